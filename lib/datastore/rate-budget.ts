// Request quotas (issue 29): a token bucket per client and policy, refilled continuously at the
// policy's rate up to its burst. The bucket itself lives in a BudgetStore: in this process
// (SQLite, one app server) or in a table every app server shares (PostgreSQL). An app server
// takes a slice of a bucket at a time and spends it locally, so most requests cost no store
// round trip, and a bucket found empty is not asked again until it could give a slice: a
// flooder's refusals cost nothing either. Time is injected (`now`), never slept on.

/** A budget: `perMinute` units a minute, at most `burst` at once. */
export interface RatePolicy {
  /** Its name in the RateLimit headers ("anonymous", "token", "expensive"). */
  name: string;
  perMinute: number;
  burst: number;
}

/** What a store answers a lease: units granted, and the shared level left (below 0: a debt). */
export interface Lease {
  granted: number;
  level: number;
}

/** Where buckets live. `debt` units are taken whatever the level (work already done); then up
 *  to `want` whole units while the level allows. */
export interface BudgetStore {
  lease(key: string, policy: RatePolicy, debt: number, want: number): Promise<Lease> | Lease;
}

const perMs = (p: RatePolicy) => p.perMinute / 60_000;

/** The bucket's level `ms` after it was `level`, refilled up to its burst. */
export function refilled(p: RatePolicy, level: number, ms: number): number {
  return Math.min(p.burst, level + Math.max(0, ms) * perMs(p));
}

/** Buckets in this process's memory: the store of a single app server. Full buckets are the
 *  same as absent ones, and are dropped as the map grows (a flood of addresses stays bounded). */
export class MemoryBudgets implements BudgetStore {
  private buckets = new Map<string, { level: number; at: number; fullAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sweepAt = 10_000,
  ) {}

  lease(key: string, policy: RatePolicy, debt: number, want: number): Lease {
    const now = this.now();
    const b = this.buckets.get(`${policy.name}\0${key}`);
    let level = b ? refilled(policy, b.level, now - b.at) : policy.burst;
    level -= debt;
    const granted = Math.max(0, Math.min(want, Math.floor(level)));
    level -= granted;
    if (!b && this.buckets.size >= this.sweepAt) this.sweep(now);
    this.buckets.set(`${policy.name}\0${key}`, { level, at: now, fullAt: now + (policy.burst - level) / perMs(policy) });
    return { granted, level };
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (b.fullAt <= now) this.buckets.delete(k);
  }
}

/** A decision on one request. */
export interface Verdict {
  ok: boolean;
  /** Units the client may still spend now (about: other app servers spend the same bucket). */
  remaining: number;
  /** Seconds until the bucket is full again. */
  reset: number;
  /** Refused: seconds until a request may pass. */
  retryAfter: number;
}

interface Local {
  /** Units taken from the store and not yet spent (below 0: work charged, not yet paid). */
  balance: number;
  /** The store's level after the last lease, and when. */
  shared: number;
  sharedAt: number;
  /** The store had nothing to give: not asked again before this time. */
  emptyUntil: number;
  /** A lease on its way: requests meanwhile wait for it rather than send their own. */
  pending?: Promise<void>;
  usedAt: number;
}

/** The share of a burst an app server takes at a time: the most one app server can hold
 *  unspent, so what a client gets through all of them stays within a few slices of its budget. */
export const SLICE_SHARE = 1 / 40;

/** Spends budgets for one app server, from a store, in slices. */
export class Budgets {
  private locals = new Map<string, Local>();

  constructor(
    private readonly store: BudgetStore,
    private readonly now: () => number = Date.now,
    private readonly maxLocals = 20_000,
  ) {}

  private slice(p: RatePolicy): number {
    return Math.max(1, Math.ceil(p.burst * SLICE_SHARE));
  }

  private local(key: string, p: RatePolicy): Local {
    const id = `${p.name}\0${key}`;
    let l = this.locals.get(id);
    if (!l) {
      if (this.locals.size >= this.maxLocals) this.forgetIdle();
      l = { balance: 0, shared: p.burst, sharedAt: this.now(), emptyUntil: 0, usedAt: this.now() };
      this.locals.set(id, l);
    }
    l.usedAt = this.now();
    return l;
  }

  /** Locals with nothing held and nothing owed, unused for a minute, are the same as new ones. */
  private forgetIdle(): void {
    const now = this.now();
    for (const [id, l] of this.locals) if (l.balance === 0 && !l.pending && now - l.usedAt > 60_000) this.locals.delete(id);
  }

  /** Spends `cost` units (1: a request). Answers at once while this server holds a slice. */
  take(key: string, p: RatePolicy, cost = 1): Verdict | Promise<Verdict> {
    const l = this.local(key, p);
    if (l.balance >= cost) {
      l.balance -= cost;
      return this.verdict(l, p, true, cost);
    }
    if (this.now() < l.emptyUntil) return this.verdict(l, p, false, cost);
    return this.refill(key, p, l, cost).then(() => {
      if (l.balance < cost) return this.verdict(l, p, false, cost);
      l.balance -= cost;
      return this.verdict(l, p, true, cost);
    });
  }

  /** Whether work charged afterwards (charge) may start: the balance must be above 0. */
  admit(key: string, p: RatePolicy): Verdict | Promise<Verdict> {
    const l = this.local(key, p);
    if (l.balance > 0) return this.verdict(l, p, true, 0);
    if (this.now() < l.emptyUntil) return this.verdict(l, p, false, 1);
    return this.refill(key, p, l, 1).then(() => this.verdict(l, p, l.balance > 0, 1));
  }

  /** Seconds before work charged afterwards may start, from what this server holds: 0 unless
   *  the balance is spent and the store said it has nothing yet (admit asks it). */
  waitFor(key: string, p: RatePolicy): number {
    const l = this.locals.get(`${p.name}\0${key}`);
    const now = this.now();
    if (!l || l.balance > 0 || now >= l.emptyUntil) return 0;
    return Math.max(1, Math.ceil((l.emptyUntil - now) / 1000));
  }

  /** Work done (an expensive read's time): owed until the next lease pays it to the store, at
   *  most one burst. `toEmpty`: work nobody was refused for (a client alone) leaves the budget
   *  at most empty, never in debt: the client waits a slice's refill once others come. */
  charge(key: string, p: RatePolicy, units: number, toEmpty = false): void {
    const l = this.local(key, p);
    const floor = toEmpty ? -Math.max(0, refilled(p, l.shared, this.now() - l.sharedAt)) : -p.burst;
    l.balance = Math.max(l.balance - units, Math.min(floor, l.balance));
  }

  /** What the headers say now, without spending. */
  peek(key: string, p: RatePolicy): Verdict {
    return this.verdict(this.local(key, p), p, true, 0);
  }

  private refill(key: string, p: RatePolicy, l: Local, cost: number): Promise<void> {
    l.pending ??= (async () => {
      try {
        const debt = Math.max(0, -l.balance);
        const want = Math.max(this.slice(p), Math.ceil(cost));
        const lease = await this.store.lease(key, p, debt, want);
        l.balance += debt + lease.granted;
        l.shared = lease.level;
        l.sharedAt = this.now();
        // Nothing given: the store fills up to a slice in this long; until then, refuse here.
        if (lease.granted < want) l.emptyUntil = this.now() + Math.max(1, (Math.min(want, p.burst) - lease.level) / perMs(p));
      } catch (e) {
        // A store that cannot be reached must not take the API down with it: this slice is let through.
        console.error(`datastore: rate budget store unavailable (${(e as Error).message}); letting requests through`);
        l.balance = Math.max(l.balance, 0) + this.slice(p);
      } finally {
        l.pending = undefined;
      }
    })();
    return l.pending;
  }

  private verdict(l: Local, p: RatePolicy, ok: boolean, cost: number): Verdict {
    const now = this.now();
    const shared = refilled(p, l.shared, now - l.sharedAt);
    const level = Math.max(0, l.balance + shared);
    const remaining = Math.floor(Math.min(p.burst, level));
    const reset = Math.ceil((p.burst - Math.min(p.burst, level)) / perMs(p) / 1000);
    const retryAfter = ok ? 0 : Math.max(1, Math.ceil(Math.max(l.emptyUntil - now, (cost - level) / perMs(p)) / 1000));
    return { ok, remaining, reset, retryAfter };
  }
}
