// The one HTTP entry point for /api/action/{name} and /api/3/action/{name}: read the
// parameters, authenticate, run the action, wrap the answer. No datastore logic here.
import { config } from "../config";
import { getDatastore } from "../datastore";
import { ACTIONS } from "../datastore/actions";
import { envelopeParts, failure, helpUrl, json, partsResponse, success } from "./envelope";
import { bodyParams, clientKey, queryParams, type ApiRequest } from "./params";
import type { Params } from "../datastore/validate";

const CALLBACK_RE = /^[A-Za-z_$][\w$.]{0,63}$/;

/** CKAN 2.11 `_links`: relative, without the POST body, `prev` only when offset − limit > 0. */
function links(url: URL, method: string, params: Params, result: Record<string, unknown>) {
  const limit = Number(result.limit);
  const offset = Number(result.offset ?? 0);
  const base = new URLSearchParams();
  if (method === "GET") {
    for (const [k, v] of Object.entries(params)) {
      if (k !== "offset") base.set(k, Array.isArray(v) ? String(v[v.length - 1]) : String(v));
    }
  }
  const at = (o: number) => {
    const qs = new URLSearchParams(base);
    qs.set("offset", String(o));
    return `${url.pathname}?${qs}`;
  };
  const start = base.size ? `${url.pathname}?${base}` : url.pathname;
  const out: Record<string, string> = { start, next: at(offset + limit) };
  if (offset - limit > 0) out.prev = at(offset - limit);
  return out;
}

export async function handleAction(request: ApiRequest, name: string): Promise<Response> {
  const help = helpUrl(request, name);
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) return json(`Bad request - Action name not known: ${name}`, 400);
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "POST") {
    return json(`Bad request - Method not allowed: ${method}`, 405, { allow: action.read ? "GET, POST" : "POST" });
  }
  if (method === "GET" && !action.read) {
    return json("Bad request - JSON Error: Invalid request. Please use POST method for your request", 400);
  }
  try {
    const url = new URL(request.url);
    const params = method === "GET" ? queryParams(url.searchParams) : await bodyParams(request);
    let callback: string | undefined;
    if (method === "GET") {
      // JSONP (legacy): the answer is wrapped, and the request is anonymous.
      if (typeof params.callback === "string" && CALLBACK_RE.test(params.callback)) callback = params.callback;
      delete params.callback;
      delete params._;
    }
    const { engine, tokens } = await getDatastore();
    const user = callback ? { scope: null } : await tokens.authenticate(request.headers.get("authorization"));
    const result = await action.run({ engine: engine.forClient(clientKey(request, user)), tokens, user, siteUrl: config.siteUrl ?? url.origin }, params);
    if (name === "datastore_search" && result && typeof result === "object") {
      (result as Record<string, unknown>)._links = links(url, method, params, result as Record<string, unknown>);
    }
    if (callback) {
      return partsResponse([`${callback}(`, ...envelopeParts(help, result), ");"], "application/javascript;charset=utf-8");
    }
    return success(help, result);
  } catch (e) {
    return failure(help, e);
  }
}

