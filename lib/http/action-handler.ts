// /api/action/{name} and /api/3/action/{name}: CKAN's action API through the one pipeline
// (pipeline.ts). What is the action API's own: which actions exist and take GET, JSONP, and
// datastore_search's `_links`. No datastore logic here.
import { ACTIONS, runAction } from "../datastore/actions";
import type { Params } from "../datastore/validate";
import { envelopeParts, partsResponse, success } from "./envelope";
import { BadRequest, bodyParams, queryParams, type ApiRequest } from "./params";
import { serve } from "./pipeline";

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

/** The parameters, and the JSONP callback a GET named (taken out of the parameters). */
interface ActionParams {
  params: Params;
  callback?: string;
}

async function readParams(request: ApiRequest, url: URL, method: string): Promise<ActionParams> {
  if (method !== "GET") return { params: await bodyParams(request) };
  const params = queryParams(url.searchParams);
  // JSONP (legacy): the answer is wrapped, and the request is anonymous.
  const callback = typeof params.callback === "string" && CALLBACK_RE.test(params.callback) ? params.callback : undefined;
  delete params.callback;
  delete params._;
  return { params, callback };
}

export async function handleAction(request: ApiRequest, name: string): Promise<Response> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  const method = request.method.toUpperCase();
  const refusal = !action
    ? new BadRequest(`Bad request - Action name not known: ${name}`)
    : method !== "GET" && method !== "POST"
      ? new BadRequest(`Bad request - Method not allowed: ${method}`, 405)
      : method === "GET" && !action.read
        ? new BadRequest("Bad request - JSON Error: Invalid request. Please use POST method for your request")
        : undefined;
  if (refusal) {
    // Refused before its parameters are read, but through the pipeline: it spends a request of
    // its caller's budget as every request does (rate-limit.ts).
    const refused = await serve(request, {
      name,
      params: () => {
        throw refusal;
      },
      run: async () => undefined,
    });
    if (refusal.status === 405) refused.headers.set("allow", action!.read ? "GET, POST" : "POST");
    return refused;
  }
  return serve(request, {
    name,
    params: (req, url) => readParams(req, url, method),
    anonymous: ({ callback }) => callback !== undefined,
    run: async ({ ctx, params }) => runAction(ctx, name, params.params),
    answer(result, { url, params, help }) {
      if (name === "datastore_search" && result && typeof result === "object") {
        (result as Record<string, unknown>)._links = links(url, method, params.params, result as Record<string, unknown>);
      }
      if (!params.callback) return success(help, result);
      return partsResponse([`${params.callback}(`, ...envelopeParts(help, result), ");"], "application/javascript;charset=utf-8");
    },
  });
}
