// The API's quotas (issue 29; docs/api.md "Quotas"): every request spends one unit of its
// caller's budget (a token's, else its client address's) before anything else is done, and
// past it is answered 429. Expensive reads spend a budget of their own, in milliseconds of
// read time, charged by the read scheduler as they end (lib/datastore/read-gate.ts). Every
// answer says where the caller stands, in the IETF RateLimit-Policy and RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers-10).
// The default anonymous budgets bind only while the app server is shared: an address past its
// budget is refused only if another client asked within the last SHARED_MS. A client alone gets
// the whole machine; once others are there, the budget keeps their share (work-conserving, as
// the read scheduler's turns are). A budget the operator sets (DATASTORE_RATE_ANONYMOUS,
// DATASTORE_RATE_EXPENSIVE) binds always: it is what they chose. A token's budget always binds:
// it is a partner's agreement.
import type { Principal } from "../auth/principal";
import { config } from "../config";
import { DatastoreError } from "../datastore/errors";
import type { Budgets, RatePolicy, Verdict } from "../datastore/rate-budget";
import { setReadGate } from "../datastore/read-gate";
import { clientKey, type ApiRequest } from "./params";

/** A budget as a request meets it: `whenShared` binds a client address only while another
 *  client shares the app server (the default anonymous and expensive budgets; one the operator
 *  sets binds always). */
export type RequestPolicy = RatePolicy & { whenShared?: boolean };

/** What a request spent, for its answer's headers; `refused` when it may not go on. */
export interface Quota {
  /** Whose budgets these are: the read scheduler's name for the client (params.ts clientKey). */
  client: string;
  spent: { policy: RatePolicy; verdict: Verdict }[];
  refused?: DatastoreError;
}

/** The request budget that applies, if any. The operator's own token (DATASTORE_ADMIN_TOKEN) has
 *  none, nor does a client whose address cannot be told (a handler called in-process: limiting
 *  it would limit every such caller together). */
export function requestPolicy(user: Principal, client: string): RequestPolicy | undefined {
  if (user.tokenId) {
    if (user.ratePerMinute === 0) return undefined;
    if (user.ratePerMinute) return { name: "token", perMinute: user.ratePerMinute, burst: user.ratePerMinute };
    const t = config.rateToken;
    return t ? { name: "token", perMinute: t.perMinute, burst: t.burst } : undefined;
  }
  if (user.scope !== null || client === "address:unknown") return undefined;
  const a = config.rateAnonymous;
  return a ? { name: "anonymous", perMinute: a.perMinute, burst: a.burst, whenShared: !a.set } : undefined;
}

/** The expensive reads' budget, in milliseconds of read time. */
export function expensivePolicy(user: Principal, client: string): RequestPolicy | undefined {
  if ((user.scope !== null && !user.tokenId) || client === "address:unknown") return undefined;
  const e = config.rateExpensive;
  return e ? { name: "expensive", perMinute: e.perMinute * 1000, burst: e.burst * 1000, whenShared: !e.set } : undefined;
}

/** Another client asked within this long: the app server is shared, and anonymous budgets bind. */
export const SHARED_MS = 5000;

/** The last two different clients an app server heard from: enough to tell whether anyone but
 *  a given client asked lately, in constant time and memory. The operator's token and callers
 *  in this process are nobody's competition. */
class Activity {
  private last = { client: "", at: Number.NEGATIVE_INFINITY };
  private before = { client: "", at: Number.NEGATIVE_INFINITY };

  seen(client: string, now = Date.now()): void {
    if (client === "admin" || client === "address:unknown") return;
    if (client !== this.last.client) this.before = this.last;
    this.last = { client, at: now };
  }

  /** Whether a client other than `client` asked within SHARED_MS. */
  shared(client: string, now = Date.now()): boolean {
    const other = this.last.client === client ? this.before : this.last;
    return other.at >= now - SHARED_MS;
  }
}

// On globalThis: under Next, the request hook (admission.ts) and the routes (uploads, the read
// gate) each load this module, and must see the same clients.
const ACTIVITIES = Symbol.for("datastore-explorer.rate-activities");

function activityOf(budgets: Budgets): Activity {
  const g = globalThis as { [ACTIVITIES]?: WeakMap<Budgets, Activity> };
  const activities = (g[ACTIVITIES] ??= new WeakMap());
  let a = activities.get(budgets);
  if (!a) activities.set(budgets, (a = new Activity()));
  return a;
}

/** Spends one request of the caller's budget (and finds where its expensive reads stand). */
export async function spend(request: ApiRequest, user: Principal, budgets: Budgets): Promise<Quota> {
  const client = clientKey(request, user);
  installGate(budgets);
  const activity = activityOf(budgets);
  activity.seen(client);
  const quota: Quota = { client, spent: [] };
  const policy = requestPolicy(user, client);
  if (policy) {
    const verdict = await budgets.take(client, policy);
    quota.spent.push({ policy, verdict });
    // A lone anonymous client is let through past a default budget; the headers still say it is spent.
    if (!verdict.ok && !(policy.whenShared && !activity.shared(client))) quota.refused = DatastoreError.tooMany(policy.name, verdict.retryAfter);
  }
  const expensive = expensivePolicy(user, client);
  if (expensive) quota.spent.push({ policy: expensive, verdict: await budgets.admit(client, expensive) });
  return quota;
}

/** RateLimit-Policy and RateLimit (structured-field lists); none when no budget applies. The
 *  expensive budget counts milliseconds, a unit the draft's registry lacks: named in a vendor
 *  parameter (`dsx-unit`), as the draft asks of its own extensions. */
export function quotaHeaders(quota: Quota | undefined, budgets?: Budgets): Record<string, string> {
  if (!quota || quota.spent.length === 0) return {};
  const policies: string[] = [];
  const limits: string[] = [];
  for (const { policy, verdict } of quota.spent) {
    // The expensive budget as it stands after the request's reads were charged.
    const now = budgets && policy.name === "expensive" ? budgets.peek(quota.client, policy) : verdict;
    let item = `"${policy.name}";q=${policy.perMinute};w=60`;
    if (policy.burst !== policy.perMinute) item += `;dsx-burst=${policy.burst}`;
    if (policy.name === "expensive") item += `;dsx-unit="ms"`;
    policies.push(item);
    limits.push(`"${policy.name}";r=${now.remaining};t=${now.reset}`);
  }
  return { "ratelimit-policy": policies.join(", "), ratelimit: limits.join(", ") };
}

/** The answer with its caller's RateLimit fields. */
export function withQuota(response: Response, quota: Quota | undefined, budgets?: Budgets): Response {
  for (const [name, value] of Object.entries(quotaHeaders(quota, budgets))) response.headers.set(name, value);
  return response;
}

const GATE_OF = Symbol.for("datastore-explorer.read-gate-budgets");

/** The read scheduler's gate over these budgets (once per budgets: tests switch stores). The
 *  scheduler names clients as clientKey does; the budget is the same for every one of them. */
function installGate(budgets: Budgets): void {
  const g = globalThis as { [GATE_OF]?: Budgets };
  if (g[GATE_OF] === budgets) return;
  g[GATE_OF] = budgets;
  const policy = (client: string) => (client === "admin" ? undefined : expensivePolicy({ scope: null }, client));
  setReadGate({
    refusal: (client) => {
      const p = policy(client);
      if (!p || (client.startsWith("address:") && p.whenShared && !activityOf(budgets).shared(client))) return 0;
      return budgets.waitFor(client, p);
    },
    charge: (client, ms) => {
      const p = policy(client);
      // An address alone was refused nothing: its reading leaves its budget empty at most.
      if (p) budgets.charge(client, p, ms, client.startsWith("address:") && p.whenShared === true && !activityOf(budgets).shared(client));
    },
  });
}
