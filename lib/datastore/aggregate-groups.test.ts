import { describe, expect, it } from "vitest";
import { AGGREGATE_BUDGET, aggregatePlan, mergeGroups, type AggregateReads } from "./aggregate-groups";
import type { AggregateGroup, AggregateSpec } from "./engine";
import { runNow } from "./stepwise";

const spec = (metric: AggregateSpec["metric"] = "count", limit = 10): AggregateSpec => ({ keys: [{ field: "k" }], metric, field: metric === "count" ? null : "v", limit });
const group = (key: unknown, count: number, _id = 1): AggregateGroup => ({ key: [key], count, value: count, _id });

describe("mergeGroups", () => {
  const asIs = [(v: unknown) => (v === "" ? null : v)];

  it("merges keys that decode alike (NULL and \"\" are the null key), keeping the first _id", () => {
    const rows = [
      [null, 2, 0, null, 5],
      ["", 3, 0, null, 2],
      ["a", 1, 0, null, 7],
    ];
    expect(mergeGroups(rows, asIs, spec())).toEqual([
      { key: [null], count: 5, value: 5, _id: 2 },
      { key: ["a"], count: 1, value: 1, _id: 7 },
    ]);
  });

  it("keeps a text key that reads like JSON apart from the null key", () => {
    expect(mergeGroups([[null, 1, 0, null, 1], ["[null]", 1, 0, null, 2]], asIs, spec()).map((g) => g.key)).toEqual([[null], ["[null]"]]);
  });

  it("combines each metric across merged rows, counts given as numbers or int8 text", () => {
    const rows = [
      [null, "2", "2", "10", "4"],
      ["", 3, 1, 4, 1],
    ];
    const value = (metric: AggregateSpec["metric"]) => mergeGroups(rows, asIs, spec(metric))[0].value;
    expect([value("count"), value("sum"), value("avg"), value("min"), value("max")]).toEqual([5, 14, 14 / 3, 4, 10]);
    expect(mergeGroups([["a", 2, 0, null, 1]], asIs, spec("avg"))[0].value).toBeNull();
  });
});

describe("aggregatePlan", () => {
  const budget = { ...AGGREGATE_BUDGET, fewRows: 10, firstRows: 100 };
  /** Reads answering from fixed groups, recording what was asked. */
  const reads = (over: Partial<{ exact: AggregateGroup[] | null; sample: AggregateGroup[] | null; first: AggregateGroup[] | undefined; all: AggregateGroup[] }>) => {
    const asked: string[] = [];
    const r: AggregateReads = {
      exact: () => (asked.push("exact"), over.exact ?? null),
      sample: () => (asked.push("sample"), over.sample ? { groups: over.sample, picked: 50 } : null),
      first: (n) => (asked.push(`first ${n}`), over.first),
      all: () => (asked.push("all"), over.all ?? []),
    };
    return { r, asked };
  };
  const run = (table: { rowCount: number; narrowed: boolean }, r: AggregateReads) => runNow(aggregatePlan(spec(), { ...table, wholeRows: 1000 }, budget, r));

  it("answers exactly when the exact read fits", () => {
    const { r, asked } = reads({ exact: [group("a", 3), group("b", 4)] });
    expect(run({ rowCount: 7, narrowed: false }, r)).toMatchObject({ total: 7, rows: 7, partial: false, others: { groups: 0, count: 0 } });
    expect(asked).toEqual(["exact"]);
  });

  it("goes straight to the sample for a whole table too big, and takes the table's count as the total", () => {
    const { r, asked } = reads({ sample: [group("a", 20), group("b", 30)] });
    expect(run({ rowCount: 5000, narrowed: false }, r)).toMatchObject({ total: 5000, rows: 50, partial: true });
    expect(asked).toEqual(["sample"]);
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
