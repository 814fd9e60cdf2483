import { describe, expect, it } from "vitest";
import { AGGREGATE_BUDGET, aggregatePlan, flatGroups, measureDecoder, mergeGroups, mergeParts, type AggregateReads, type Merged } from "./aggregate-groups";
import { oldOutput, toSpec } from "./aggregate-test-support";
import type { AggregateMetric, AggregateSpec } from "./engine";
import { scaleCount } from "./sample-estimate";
import { runNow } from "./stepwise";

const spec = (metric: AggregateMetric = "count", limit = 10, budgetMs: number | null = 100): AggregateSpec =>
  toSpec({ keys: [{ field: "k" }], metric, field: metric === "count" ? null : "v", limit, budgetMs });
const group = (key: unknown, count: number, _id = 1): Merged => ({ key: [key], count, _id, n: [0], agg: [null] });
const numbers = [measureDecoder(false)];
const merged = (rows: unknown[][], s: AggregateSpec) => mergeGroups(rows, asIs, s, numbers);
const asIs = [(v: unknown) => (v === "" ? null : v)];
/** The old form's value of the one group merged from `rows`. */
const value = (rows: unknown[][], metric: AggregateMetric) => {
  const s = spec(metric, 10, null);
  return oldOutput(runNow(aggregatePlan(s, { rowCount: 1, narrowed: false, wholeRows: 1 }, AGGREGATE_BUDGET, { ...none, all: () => merged(rows, s) }))).groups[0].value;
};
const none: AggregateReads = {
  exact: () => null,
  sample: () => null,
  first: () => undefined,
  all: () => [],
  overall: () => group(null, 0),
};

describe("mergeGroups", () => {
  it("merges keys that decode alike (NULL and \"\" are the null key), keeping the first _id", () => {
    const rows = [
      [null, 2, 0, null, 5],
      ["", 3, 0, null, 2],
      ["a", 1, 0, null, 7],
    ];
    expect(merged(rows, spec())).toEqual([
      { key: [null], count: 5, _id: 2, n: [0], agg: [null] },
      { key: ["a"], count: 1, _id: 7, n: [0], agg: [null] },
    ]);
  });

  it("keeps a text key that reads like JSON apart from the null key", () => {
    expect(merged([[null, 1, 0, null, 1], ["[null]", 1, 0, null, 2]], spec()).map((g) => g.key)).toEqual([[null], ["[null]"]]);
  });

  it("combines each metric across merged rows, counts given as numbers or int8 text", () => {
    const rows = [
      [null, "2", "2", "10", "4"],
      ["", 3, 1, 4, 1],
    ];
    expect((["count", "sum", "avg", "min", "max"] as const).map((m) => value(rows, m))).toEqual([5, 14, 14 / 3, 4, 10]);
    expect(value([["a", 2, 0, null, 1]], "avg")).toBeNull();
  });
});

describe("groups read again and in parts", () => {
  const twoKeys = toSpec({ keys: [{ field: "k" }, { field: "j" }], metric: "sum", field: "v", limit: 10, budgetMs: null });

  it("adds up rows of the same keys as read (a group again from another span), then merges keys that decode alike", () => {
    // [k, j, rows, rows with v, sum of v, min(_id)]
    const rows = [
      ["a", 1, 2, 2, 5, 9],
      [null, 1, 1, 1, 1, 4],
      ["a", 1, 3, 3, 7, 3],
      ["", 1, 1, 0, null, 2],
      ["a", "1", 1, 1, 1, 1],
    ];
    expect(mergeGroups(rows, [asIs[0], asIs[0]], twoKeys, numbers)).toEqual([
      { key: ["a", 1], count: 5, _id: 3, n: [5], agg: [12] },
      { key: [null, 1], count: 2, _id: 2, n: [1], agg: [1] },
      // Read as text, a key stays apart from the same number.
      { key: ["a", "1"], count: 1, _id: 1, n: [1], agg: [1] },
    ]);
  });

  it("merges parts' groups, sent as flat lists of values, by key", () => {
    const one = flatGroups([
      { key: ["a", 1], count: 2, _id: 5, n: [2], agg: [3] },
      { key: [null, 1], count: 1, _id: 9, n: [0], agg: [null] },
    ]);
    expect(one).toEqual(["a", 1, 2, 5, 2, 3, null, 1, 1, 9, 0, null]);
    const two = flatGroups([
      { key: ["b", 1], count: 1, _id: 7, n: [1], agg: [1] },
      { key: ["a", 1], count: 1, _id: 2, n: [1], agg: [4] },
    ]);
    expect(mergeParts([one, two], twoKeys)).toEqual([
      { key: ["a", 1], count: 3, _id: 2, n: [3], agg: [7] },
      { key: [null, 1], count: 1, _id: 9, n: [0], agg: [null] },
      { key: ["b", 1], count: 1, _id: 7, n: [1], agg: [1] },
    ]);
    expect(mergeParts([[]], twoKeys)).toEqual([]);
  });
});

describe("aggregatePlan", () => {
  const budget = { ...AGGREGATE_BUDGET, fewRows: 10, firstRows: 100 };
  /** Reads answering from fixed groups, recording what was asked. */
  const reads = (over: Partial<{ exact: Merged[] | null; sample: Merged[] | null; first: Merged[] | undefined; all: Merged[] }>) => {
    const asked: string[] = [];
    const r: AggregateReads = {
      exact: () => (asked.push("exact"), over.exact ?? null),
      sample: () => (asked.push("sample"), over.sample ? { groups: over.sample, picked: 50 } : null),
      first: (n) => (asked.push(`first ${n}`), over.first),
      all: () => (asked.push("all"), over.all ?? []),
      overall: () => (asked.push("overall"), group(null, 0)),
    };
    return { r, asked };
  };
  const run = (table: { rowCount: number; narrowed: boolean }, r: AggregateReads, s = spec()) => runNow(aggregatePlan(s, { ...table, wholeRows: 1000 }, budget, r));

  it("is exact over every row, however many, when no budget is given", () => {
    const { r, asked } = reads({ all: [group("a", 3000), group("b", 4000)] });
    expect(run({ rowCount: 7000, narrowed: false }, r, spec("count", 10, null))).toMatchObject({ total: 7000, rows: 7000, partial: false });
    expect(asked).toEqual(["all"]);
  });

  it("answers exactly when the exact read fits", () => {
    const { r, asked } = reads({ exact: [group("a", 3), group("b", 4)] });
    expect(run({ rowCount: 7, narrowed: false }, r)).toMatchObject({ total: 7, rows: 7, partial: false, others: { groups: 0, count: 0 } });
    expect(asked).toEqual(["exact"]);
  });

  it("goes straight to the sample for a whole table too big, and takes the table's count as the total", () => {
    const { r, asked } = reads({ sample: [group("a", 20), group("b", 30)] });
    const out = run({ rowCount: 5000, narrowed: false }, r);
    expect(out).toMatchObject({ total: 5000, rows: 50, partial: true });
    expect(asked).toEqual(["sample"]);
    // Each count is the table's, estimated from the sample's 50 picks, with its margin.
    const b = scaleCount(30, 50, 5000);
    expect(out.groups[0]).toMatchObject({ key: ["b"], count: b.value, values: { value: b.value }, estimate: { low: b.low, high: b.high } });
    expect(b.value).toBe(3000);
    expect(b.low).toBeLessThan(3000);
    expect(b.high).toBeGreaterThan(3000);
  });

  it("scales a narrowed sample's rows up to the table", () => {
    const { r, asked } = reads({ sample: [group("a", 20)] });
    expect(run({ rowCount: 5000, narrowed: true }, r)).toMatchObject({ total: 2000, rows: 20, partial: true });
    expect(asked).toEqual(["exact", "sample"]);
  });

  it("tries the first rows when the sample holds few matches, and keeps whichever holds more", () => {
    const { r, asked } = reads({ sample: [group("a", 2)], first: [group("a", 8)] });
    expect(run({ rowCount: 5000, narrowed: true }, r)).toMatchObject({ total: 400, rows: 8, partial: true });
    expect(asked).toEqual(["exact", "sample", "first 100"]);
  });

  it("is exact over every row when the table holds no more than the first rows, or than a sample", () => {
    expect(run({ rowCount: 90, narrowed: true }, reads({ sample: [group("a", 2)], all: [group("a", 3)] }).r)).toMatchObject({ total: 3, partial: false });
    expect(run({ rowCount: 5000, narrowed: false }, reads({ all: [group("a", 3)] }).r)).toMatchObject({ total: 3, partial: false });
  });
});
