import { describe, expect, it } from "vitest";
import type { SummaryOutput } from "./engine";
import { runNow } from "./stepwise";
import { SUMMARY_LIMITS, summaryPlan, tally, type SummaryReads, type Tallied } from "./summary-plan";

const limits = { ...SUMMARY_LIMITS, exactRows: 100, sampleRows: 10, minMatches: 5, firstRows: 50 };
const rows = (n: number): Tallied => tally(["int4"], Array.from({ length: n }, (_, i) => [i]));

/** Reads answering fixed row counts, recording what was asked. */
function reads(over: { counted?: number | null; sample?: number | null; present?: number; capped?: number | null; all?: number; first?: number }) {
  const asked: string[] = [];
  const r: SummaryReads = {
    counted: () => (asked.push("counted"), over.counted ?? null),
    sample: (n) => {
      asked.push(`sample ${n}`);
      return over.sample === null
        ? null
        : { read: () => (asked.push("sample rows"), rows(over.sample ?? 0)), present: () => (asked.push("present"), over.present ?? 10) };
    },
    capped: (cap) => (asked.push(`capped ${cap}`), over.capped === undefined || over.capped === null ? null : rows(over.capped)),
    all: () => (asked.push("all"), rows(over.all ?? 0)),
    first: (n) => (asked.push(`first ${n}`), over.first === undefined ? undefined : rows(over.first)),
  };
  return { r, asked };
}

const run = (table: { rowCount: number; narrowed: boolean }, r: SummaryReads, budgetMs: number | null = 50): SummaryOutput =>
  runNow(summaryPlan(["n"], { fields: ["n"], top: 3, bins: 4, budgetMs }, table, limits, r));

describe("summaryPlan", () => {
  it("reads every matching row without a budget, however many", () => {
    const { r, asked } = reads({ all: 500 });
    expect(run({ rowCount: 100_000, narrowed: false }, r, null)).toMatchObject({ total: 500, rows: 500, partial: false, fields: [{ distinct: 500, distinctEstimated: false }] });
    expect(asked).toEqual(["all"]);
  });

  it("scales a sample's counts to the whole match, each with its interval", () => {
    const out = run({ rowCount: 10_000, narrowed: true }, reads({ sample: 8, present: 10 }).r);
    expect(out).toMatchObject({ total: 8000, rows: 8, partial: true });
    // 8 values each seen once, in bins of width 2: 2 rows a bin, scaled by 1,000.
    expect(out.fields[0].bins!.map((b) => b.count)).toEqual([2000, 2000, 2000, 2000]);
    expect(out.fields[0].bins![0].estimate!.low).toBeLessThan(2000);
    expect(out.fields[0].empty).toBe(0);
  });

  it("reads every row of a table no bigger than a sample", () => {
    const { r, asked } = reads({ sample: null, all: 8 });
    expect(run({ rowCount: 8, narrowed: false }, r)).toMatchObject({ total: 8, rows: 8, partial: false });
    expect(asked).toEqual(["counted", "sample 10", "all"]);
  });

  it("is exact when the matching rows fit the row and time budget", () => {
    const { r, asked } = reads({ counted: 60, capped: 60 });
    const out = run({ rowCount: 1000, narrowed: true }, r);
    expect(out).toMatchObject({ total: 60, rows: 60, partial: false });
    expect(out.fields[0]).toMatchObject({ id: "n", distinct: 60, min: 0, max: 59 });
    expect(asked).toEqual(["counted", "sample 10", "capped 101"]);
  });

  it("samples past the row budget, and says the total is past it", () => {
    const { r } = reads({ capped: 101, sample: 6, present: 10 });
    expect(run({ rowCount: 50, narrowed: true }, r)).toMatchObject({ total: 101, rows: 6, partial: true });
  });

  it("on a big table not counted, estimates from the sample first and skips an exact read that cannot fit", () => {
    const { r, asked } = reads({ sample: 8, present: 10 });
    expect(run({ rowCount: 10_000, narrowed: true }, r)).toMatchObject({ total: 8000, rows: 8, partial: true });
    expect(asked).toEqual(["counted", "sample 10", "sample rows", "present"]);
  });

  it("takes the first rows when a narrow search leaves few in the sample", () => {
    // Counted past the row budget: no exact read is tried.
    const { r, asked } = reads({ counted: 400, sample: 1, first: 20 });
    expect(run({ rowCount: 1000, narrowed: true }, r)).toMatchObject({ total: 400, rows: 20, partial: true });
    expect(asked).toEqual(["counted", "sample 10", "sample rows", "first 50"]);
    // Not counted: the sample's estimate, and with no match in it the first rows' estimate.
    expect(run({ rowCount: 1000, narrowed: true }, reads({ sample: 0, first: 20 }).r)).toMatchObject({ total: 400, rows: 20, partial: true });
  });

  it("reads every row when the table holds no more than the first rows", () => {
    const { r, asked } = reads({ capped: null, sample: 1, first: undefined, all: 30 });
    expect(run({ rowCount: 30, narrowed: true }, r)).toMatchObject({ total: 30, rows: 30, partial: false });
    expect(asked.at(-1)).toBe("all");
  });
});
