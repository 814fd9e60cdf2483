// A request's budget is spent once, before anything else is done for it (rate-limit.ts spends,
// and refuses past it). `npm start`'s server does next to nothing before a route handler, so
// the pipeline admits there. Under Next, a request refused in the route handler has cost Next's
// routing and request objects already, which at a flood's rate fill its thread: there this
// process admits each API request as it arrives (lib/server/next-admission.ts), answers a refused
// one itself, and hands the quota of one let through to its route in a header no client can write.
import { randomBytes } from "node:crypto";
import type { Principal } from "../auth/principal";
import type { TokenStore } from "../auth/tokens";
import { getDatastore } from "../datastore";
import type { Budgets } from "../datastore/rate-budget";
import { failure, helpUrl } from "./envelope";
import type { ApiRequest } from "./params";
import { spend, withQuota, type Quota } from "./rate-limit";

const HEADER = "x-datastore-admitted";
// The stamp opens with this process's secret: a client's header never matches it. On
// globalThis, as Next loads this module once for its request hook and again for each route.
const SECRET = Symbol.for("datastore-explorer.admission-secret");

function secret(): string {
  const g = globalThis as { [SECRET]?: string };
  return (g[SECRET] ??= randomBytes(16).toString("hex"));
}

/** What this process spent for the request as it arrived, if it did. */
function admittedOnArrival(request: ApiRequest): Quota | undefined {
  const stamp = request.headers.get(HEADER);
  const prefix = `${secret()} `;
  return stamp?.startsWith(prefix) ? (JSON.parse(stamp.slice(prefix.length)) as Quota) : undefined;
}

/** Who asks, and what the request spent (`quota.refused` past its budget): spent now, unless it
 *  was as the request arrived. */
export async function admit(request: ApiRequest, tokens: TokenStore, budgets: Budgets): Promise<{ caller: Principal; quota: Quota }> {
  const caller = await tokens.authenticate(request.headers.get("authorization"));
  return { caller, quota: admittedOnArrival(request) ?? (await spend(request, caller, budgets)) };
}

/**
 * Admits a request to the API entry `name` (the name its answers' help links give) as it
 * arrives: the answer to send now when it is refused, the very one its route would send; else
 * the header to stamp on it, by which its route's `admit` does not spend again.
 */
export async function admitOnArrival(request: ApiRequest, name: string): Promise<{ refusal: Response } | { stamp: [string, string] }> {
  const { tokens, budgets } = await getDatastore();
  const { quota } = await admit(request, tokens, budgets);
  if (quota.refused) return { refusal: withQuota(failure(helpUrl(request, name), quota.refused), quota, budgets) };
  const spent: Quota = { client: quota.client, spent: quota.spent };
  return { stamp: [HEADER, `${secret()} ${JSON.stringify(spent)}`] };
}
