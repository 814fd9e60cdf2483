import { describe, expect, it } from "vitest";
import { BOUNDED, boundedPlan, scaledCounts, type BoundedReads } from "./bounded-read";
import { runNow } from "./stepwise";

/** Reads answering a number of matching rows, recording what was asked. */
function reads(over: { exact?: number | null; sample?: number | null }, withSample = true) {
  const asked: string[] = [];
  const r: BoundedReads<number> = {
    exact: (ms) => (asked.push(`exact ${ms}`), ms === null ? 42 : (over.exact ?? null)),
    first: (n) => (asked.push(`first ${n}`), -1),
  };
  if (withSample) r.sample = (n) => (asked.push(`sample ${n}`), over.sample ?? null);
  return { r, asked };
}
const run = (table: { rowCount: number; narrowed: boolean }, r: BoundedReads<number>, budgetMs: number | null = 50) => runNow(boundedPlan(table, budgetMs, r, (n) => n));
const BIG = 5 * BOUNDED.firstRows + 1;

describe("boundedPlan", () => {
  it("is exact without a budget, whatever the table's size", () => {
    const { r, asked } = reads({ sample: 3 });
    expect(run({ rowCount: 100 * BIG, narrowed: false }, r, null)).toEqual({ out: 42, partial: false, sampled: 0 });
    expect(asked).toEqual(["exact null"]);
  });

  it("answers exactly when the read fits its budget", () => {
    const { r, asked } = reads({ exact: 7 });
    expect(run({ rowCount: 10, narrowed: false }, r)).toEqual({ out: 7, partial: false, sampled: 0 });
    expect(asked).toEqual(["exact 50"]);
  });

  it("skips the exact try on a whole big table, and takes the spread sample", () => {
    const { r, asked } = reads({ exact: 7, sample: 3 });
    expect(run({ rowCount: BIG, narrowed: false }, r)).toEqual({ out: 3, partial: true, sampled: BOUNDED.sampleRows });
    expect(asked).toEqual([`sample ${BOUNDED.sampleRows}`]);
  });

  it("takes a narrowed sample only when it holds enough matches, else the first rows", () => {
    expect(run({ rowCount: BIG, narrowed: true }, reads({ sample: BOUNDED.minMatches }).r)).toEqual({ out: BOUNDED.minMatches, partial: true, sampled: BOUNDED.sampleRows });
    const few = reads({ sample: BOUNDED.minMatches - 1 });
    expect(run({ rowCount: BIG, narrowed: true }, few.r)).toEqual({ out: -1, partial: true, sampled: BOUNDED.firstRows });
    expect(few.asked).toEqual(["exact 50", `sample ${BOUNDED.sampleRows}`, `first ${BOUNDED.firstRows}`]);
  });

  it("goes to the first rows when there is no sample to take", () => {
    const { r, asked } = reads({}, false);
    expect(run({ rowCount: 10, narrowed: true }, r)).toMatchObject({ out: -1, partial: true });
    expect(asked).toEqual(["exact 50", `first ${BOUNDED.firstRows}`]);
    expect(run({ rowCount: 10, narrowed: false }, reads({ sample: null }).r)).toMatchObject({ out: -1, partial: true });
  });
});

describe("scaledCounts", () => {
  it("scales each count to the population, within its interval, and leaves a whole population alone", () => {
    const [a, b] = scaledCounts([{ v: "a", count: 100 }, { v: "b", count: 1 }], 1_000, 100_000);
    expect(a).toMatchObject({ v: "a", count: 10_000 });
    expect(a.estimate!.low).toBeLessThan(10_000);
    expect(a.estimate!.high).toBeGreaterThan(10_000);
    // One row seen: at least that one is there.
    expect(b.count).toBe(100);
    expect(b.estimate!.low).toBeGreaterThanOrEqual(1);
    expect(scaledCounts([{ count: 5 }], 10, 10)).toEqual([{ count: 5 }]);
  });
});
