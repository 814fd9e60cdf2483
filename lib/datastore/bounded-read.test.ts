import { describe, expect, it } from "vitest";
import { BOUNDED, boundedPlan, type BoundedReads } from "./bounded-read";
import { runNow } from "./stepwise";

/** Reads answering a number of matching rows, recording what was asked. */
function reads(over: { exact?: number | null; sample?: number | null }, withSample = true) {
  const asked: string[] = [];
  const r: BoundedReads<number> = {
    exact: () => (asked.push("exact"), over.exact ?? null),
    first: (n) => (asked.push(`first ${n}`), -1),
  };
  if (withSample) r.sample = (n) => (asked.push(`sample ${n}`), over.sample ?? null);
  return { r, asked };
}
const run = (table: { rowCount: number; narrowed: boolean }, r: BoundedReads<number>) => runNow(boundedPlan(table, r, (n) => n));
const BIG = 5 * BOUNDED.firstRows + 1;

describe("boundedPlan", () => {
  it("answers exactly when the read fits its budget", () => {
    const { r, asked } = reads({ exact: 7 });
    expect(run({ rowCount: 10, narrowed: false }, r)).toEqual({ out: 7, partial: false });
    expect(asked).toEqual(["exact"]);
  });

  it("skips the exact try on a whole big table, and takes the spread sample", () => {
    const { r, asked } = reads({ exact: 7, sample: 3 });
    expect(run({ rowCount: BIG, narrowed: false }, r)).toEqual({ out: 3, partial: true });
    expect(asked).toEqual([`sample ${BOUNDED.sampleRows}`]);
  });

  it("takes a narrowed sample only when it holds enough matches, else the first rows", () => {
    expect(run({ rowCount: BIG, narrowed: true }, reads({ sample: BOUNDED.minMatches }).r)).toEqual({ out: BOUNDED.minMatches, partial: true });
    const few = reads({ sample: BOUNDED.minMatches - 1 });
    expect(run({ rowCount: BIG, narrowed: true }, few.r)).toEqual({ out: -1, partial: true });
    expect(few.asked).toEqual(["exact", `sample ${BOUNDED.sampleRows}`, `first ${BOUNDED.firstRows}`]);
  });

  it("goes to the first rows when there is no sample to take", () => {
    const { r, asked } = reads({}, false);
    expect(run({ rowCount: 10, narrowed: true }, r)).toEqual({ out: -1, partial: true });
    expect(asked).toEqual(["exact", `first ${BOUNDED.firstRows}`]);
    expect(run({ rowCount: 10, narrowed: false }, reads({ sample: null }).r)).toEqual({ out: -1, partial: true });
  });
});
