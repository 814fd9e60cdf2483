// The one way in for every HTTP entry (actions, dumps, uploads): authenticate (token →
// principal), spend one request of the caller's budget, once (admission.ts; 429 past it),
// read the parameters, run one domain call, and write the answer and any error through
// envelope.ts. An entry states only what is its own: where its parameters come from,
// its domain call, and, for a download or a stream, how its result is written.
import { config } from "../config";
import { getDatastore } from "../datastore";
import { ANONYMOUS, authorOf, type ActionContext } from "../datastore/context";
import type { Params } from "../datastore/validate";
import { admit } from "./admission";
import { failure, helpUrl, success, type FailureOptions } from "./envelope";
import type { Budgets } from "../datastore/rate-budget";
import { clientKey, type ApiRequest } from "./params";
import { withQuota, type Quota } from "./rate-limit";

export interface Call<P = Params> {
  request: ApiRequest;
  url: URL;
  params: P;
  /** The engine as this client sees it (its turn among expensive reads), the tokens, who asks. */
  ctx: ActionContext;
  /** The envelope's help link. */
  help: string;
  /** The request's body as it arrives, for bodies too big to hold (uploads). */
  body(): AsyncIterable<Uint8Array>;
}

export interface Entry<P, R> {
  /** The name the envelope's help link gives. */
  name: string;
  /** The parameters, read from the request (a BadRequest is a bare 400). */
  params(request: ApiRequest, url: URL): P | Promise<P>;
  /** Answered as anonymous whatever the token (JSONP). */
  anonymous?(params: P): boolean;
  /** The one domain call. */
  run(call: Call<P>): Promise<R>;
  /** The answer: CKAN's success envelope unless said otherwise (a download, a stream). */
  answer?(result: R, call: Call<P>): Response | Promise<Response>;
  failure?: FailureOptions;
  /** The domain call reads the body as it arrives (`call.body`): an error answer before the
   *  body's end closes the connection, rather than take the rest of a file that was refused. */
  streamsBody?: boolean;
}

export async function serve<P, R>(request: ApiRequest, entry: Entry<P, R>): Promise<Response> {
  const help = helpUrl(request, entry.name);
  const body = trackedBody(request);
  let quota: Quota | undefined;
  let budgets: Budgets | undefined;
  try {
    const url = new URL(request.url);
    const datastore = await getDatastore();
    const { engine, tokens } = datastore;
    budgets = datastore.budgets;
    // Who asks, and their budget, first: a request refused or unreadable is counted too.
    const admitted = await admit(request, tokens, budgets);
    const { caller } = admitted;
    quota = admitted.quota;
    if (quota.refused) throw quota.refused;
    const params = await entry.params(request, url);
    const user = entry.anonymous?.(params) ? ANONYMOUS : caller;
    const ctx: ActionContext = { engine: engine.forClient(clientKey(request, user), authorOf(user)), tokens, user, siteUrl: config.siteUrl ?? url.origin };
    const call: Call<P> = { request, url, params, ctx, help, body: body.chunks };
    const result = await entry.run(call);
    return withQuota(entry.answer ? await entry.answer(result, call) : success(help, result), quota, budgets);
  } catch (e) {
    const response = failure(help, e, entry.failure);
    if (entry.streamsBody && !body.read()) response.headers.set("connection", "close");
    return withQuota(response, quota, budgets);
  }
}

/** The body as it arrives, and whether it was read to its end. */
function trackedBody(request: ApiRequest): { chunks: () => AsyncIterable<Uint8Array>; read: () => boolean } {
  let read = false;
  const chunks = () => {
    // A Fetch Request's body (`next start`, tests) is async-iterable in Node, if not in its types.
    const source = request.stream?.() ?? (request.body as AsyncIterable<Uint8Array> | null) ?? (async function* () {})();
    return (async function* () {
      yield* source;
      read = true;
    })();
  };
  return { chunks, read: () => read };
}
