import { describe, expect, it } from "vitest";
import { Budgets, MemoryBudgets, type BudgetStore, type Lease, type RatePolicy } from "./rate-budget";

const POLICY: RatePolicy = { name: "anonymous", perMinute: 600, burst: 100 };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** Takes `n` requests one after another; how many passed. */
async function takeMany(b: Budgets, key: string, n: number, p = POLICY): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i++) if ((await b.take(key, p)).ok) ok++;
  return ok;
}

describe("request budgets", () => {
  it("lets a burst through, refuses past it with the wait, and refills at the rate", async () => {
    const c = clock();
    const b = new Budgets(new MemoryBudgets(c.now), c.now);
    expect(await takeMany(b, "a", 150)).toBe(100);
    const refused = await b.take("a", POLICY);
    expect(refused).toMatchObject({ ok: false, remaining: 0 });
    // 600 a minute: one every 100 ms, but a slice (3 of a burst of 100) is given at a time.
    expect(refused.retryAfter).toBe(1);
    c.advance(1000);
    expect(await takeMany(b, "a", 50)).toBe(10);
    c.advance(60_000);
    const fresh = await b.take("a", POLICY);
    expect(fresh).toMatchObject({ ok: true, remaining: 99, reset: 1 });
  });

  it("keeps clients apart", async () => {
    const c = clock();
    const b = new Budgets(new MemoryBudgets(c.now), c.now);
    expect(await takeMany(b, "flooder", 500)).toBe(100);
    expect(await takeMany(b, "other", 20)).toBe(20);
  });

  it("answers from the slice it holds without asking the store, and an empty store once until it could give a slice", async () => {
    const c = clock();
    const memory = new MemoryBudgets(c.now);
    let leases = 0;
    const store: BudgetStore = {
      lease: (k, p, d, w): Lease => {
        leases++;
        return memory.lease(k, p, d, w);
      },
    };
    const b = new Budgets(store, c.now);
    expect(await takeMany(b, "a", 100)).toBe(100);
    // slices of 3: 34 leases for 100 requests
    expect(leases).toBe(34);
    leases = 0;
    expect(await takeMany(b, "a", 1000)).toBe(0);
    expect(leases).toBeLessThanOrEqual(1);
    c.advance(300);
    expect(await takeMany(b, "a", 1000)).toBe(3);
    expect(leases).toBeLessThanOrEqual(2);
  });

  it("two app servers on one store get no more than the budget together, and not much less", async () => {
    const c = clock();
    const shared = new MemoryBudgets(c.now);
    const servers = [new Budgets(shared, c.now), new Budgets(shared, c.now)];
    let ok = 0;
    // 20 s at 50 requests a second through each: 100 + 200 refilled is the budget.
    for (let ms = 0; ms < 20_000; ms += 10) {
      for (const s of servers) if ((await s.take("t", POLICY)).ok) ok++;
      c.advance(10);
    }
    expect(ok).toBeLessThanOrEqual(300);
    expect(ok).toBeGreaterThanOrEqual(270);
  });

  it("charges work after it is done: a debt refuses until repaid, then admits again; a debt is at most one burst", async () => {
    const c = clock();
    const b = new Budgets(new MemoryBudgets(c.now), c.now);
    const work: RatePolicy = { name: "expensive", perMinute: 60_000, burst: 60_000 };
    expect((await b.admit("a", work)).ok).toBe(true);
    b.charge("a", work, 30_000); // half the budget: still admitted
    expect((await b.admit("a", work)).ok).toBe(true);
    b.charge("a", work, 600_000); // ten minutes of reading: owed, but no more than a burst
    const refused = await b.admit("a", work);
    expect(refused.ok).toBe(false);
    expect(b.waitFor("a", work)).toBe(refused.retryAfter);
    // 28.5 s were left of the shared budget, 60 s are owed (not 600), and a slice (1.5 s) must
    // refill: 33 s
    expect(refused.retryAfter).toBe(33);
    c.advance(30_000);
    expect((await b.admit("a", work)).ok).toBe(false);
    c.advance(3_100);
    expect((await b.admit("a", work)).ok).toBe(true);
    expect(b.waitFor("a", work)).toBe(0);
  });

  it("work nobody was refused for leaves the budget empty at most, never in debt", async () => {
    const c = clock();
    const b = new Budgets(new MemoryBudgets(c.now), c.now);
    const work: RatePolicy = { name: "expensive", perMinute: 60_000, burst: 60_000 };
    expect((await b.admit("a", work)).ok).toBe(true);
    b.charge("a", work, 600_000, true);
    const now = await b.admit("a", work);
    // empty: only a slice's refill (1.5 s) away
    expect([now.ok, now.remaining, now.retryAfter]).toEqual([false, 0, 2]);
    c.advance(1_600);
    expect((await b.admit("a", work)).ok).toBe(true);
  });

  it("lets requests through when the store cannot be reached", async () => {
    const c = clock();
    const b = new Budgets({ lease: () => Promise.reject(new Error("connection refused")) }, c.now);
    const errors = console.error;
    console.error = () => undefined;
    try {
      expect(await takeMany(b, "a", 10)).toBe(10);
    } finally {
      console.error = errors;
    }
  });

  it("keeps a bounded number of buckets under a flood of addresses", () => {
    const c = clock();
    const m = new MemoryBudgets(c.now, 100);
    for (let i = 0; i < 1000; i++) {
      m.lease(`address:${i}`, POLICY, 0, 1);
      c.advance(1000);
    }
    expect(m.size).toBeLessThanOrEqual(101);
  });
});
