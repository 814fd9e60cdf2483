import { describe, expect, it } from "vitest";
import { axisFor } from "./histogram-axis";
import { estimateDistinct, summarizeField, Tally, topValues } from "./summary-stats";
import type { Stored, TypeName } from "./types";

const tally = (type: TypeName, values: Stored[]) => {
  const t = new Tally(type);
  for (const v of values) t.add(v);
  return t;
};
const exact = (rows: number) => ({ rows, total: rows, exact: true, top: 10, bins: 20 });

describe("Tally", () => {
  it("counts NULL and '' as empty, and [] for arrays only", () => {
    expect(tally("text", [null, "", "[]", "a", "a"])).toMatchObject({ empty: 2, counts: new Map([["[]", 1], ["a", 2]]) });
    expect(tally("_text", [null, "[]", '["a"]'])).toMatchObject({ empty: 2, counts: new Map([['["a"]', 1]]) });
    expect(tally("json", [null, '""', "[]", "{}"]).empty).toBe(1);
    expect(tally("int4", [0, null, 0]).empty).toBe(1);
  });
});

describe("topValues", () => {
  it("keeps the k most common, count descending then value", () => {
    const counts = new Map<Stored, number>([["b", 2], ["c", 5], ["a", 2], ["d", 1], ["e", 5]]);
    expect(topValues(counts, 3)).toEqual([["c", 5], ["e", 5], ["a", 2]]);
    expect(topValues(counts, 100).map(([v]) => v)).toEqual(["c", "e", "a", "b", "d"]);
    expect(topValues(new Map(), 5)).toEqual([]);
  });

  it("matches a full sort on many values", () => {
    const counts = new Map<Stored, number>(Array.from({ length: 5000 }, (_, i) => [`v${(i * 7919) % 5000}`, (i * 31) % 17]));
    const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0]! < b[0]! ? -1 : 1));
    expect(topValues(counts, 25)).toEqual(sorted.slice(0, 25));
  });
});

describe("estimateDistinct", () => {
  it("adds unseen values when many are seen once (Duj1), within [seen, population]", () => {
    // every value seen at least twice: nothing unseen
    expect(estimateDistinct(new Map<Stored, number>([["a", 5], ["b", 2]]), 1000)).toBe(2);
    // 20 values, 15 distinct, 10 seen once, of 1000: 20·15 / (20 − 10 + 10·20/1000) = 29.4
    const mixed = new Map<Stored, number>([...Array.from({ length: 10 }, (_, i) => [i, 1] as [Stored, number]), ...Array.from({ length: 5 }, (_, i) => [100 + i, 2] as [Stored, number])]);
    expect(estimateDistinct(mixed, 1000)).toBe(29);
    // all different (a key): every value of the population
    const unique = new Map<Stored, number>(Array.from({ length: 1000 }, (_, i) => [i, 1]));
    expect(estimateDistinct(unique, 50_000)).toBe(50_000);
    // a population no bigger than the sample: what was seen
    expect(estimateDistinct(unique, 10)).toBe(1000);
    expect(estimateDistinct(new Map(), 10)).toBe(0);
  });
});

describe("summarizeField", () => {
  it("answers text and other scalars with their most common values, decoded", () => {
    expect(summarizeField("s", tally("text", ["x", "y", "x", null, ""]), exact(5))).toEqual({
      id: "s",
      type: "text",
      empty: 2,
      distinct: 2,
      distinctEstimated: false,
      top: [
        { value: "x", count: 2 },
        { value: "y", count: 1 },
      ],
    });
    expect(summarizeField("b", tally("bool", [1, 0, 1, null]), exact(4)).top).toEqual([
      { value: true, count: 2 },
      { value: false, count: 1 },
    ]);
    expect(summarizeField("t", tally("time", ["10:00:00"]), { ...exact(1), top: 1 }).top).toEqual([{ value: "10:00:00", count: 1 }]);
  });

  it("answers json and arrays with empty and distinct only", () => {
    expect(summarizeField("j", tally("json", ['{"a":1}', '{"a":1}', null]), exact(3))).toEqual({ id: "j", type: "json", empty: 1, distinct: 1, distinctEstimated: false });
    expect(summarizeField("a", tally("_int4", ["[1]", "[]"]), exact(2))).toEqual({ id: "a", type: "_int4", empty: 1, distinct: 1, distinctEstimated: false });
  });

  it("bins numbers on histogram-axis's round edges, every value counted once", () => {
    const values = [-37, 4, 4, 99, 137, null];
    const out = summarizeField("n", tally("int4", values), exact(6));
    const axis = axisFor("integer", -37, 137, 20);
    expect(out).toMatchObject({ empty: 1, distinct: 4, min: -37, max: 137 });
    expect(out.bins!.map(({ from, to }) => ({ from, to }))).toEqual(axis.bins);
    expect(out.bins!.find((b) => b.from === 0)!.count).toBe(2);
    expect(out.bins!.reduce((n, b) => n + b.count, 0)).toBe(5);
    expect(out.top).toBeUndefined();
  });

  it("closes the last bin of real numbers and bins one value in one bin", () => {
    const out = summarizeField("f", tally("float8", [0, 0.5, 1]), { ...exact(3), bins: 2 });
    expect(out.bins).toEqual([
      { from: 0, to: 0.5, count: 1 },
      { from: 0.5, to: 1, count: 2 },
    ]);
    expect(summarizeField("f", tally("float8", [2.5, 2.5]), exact(2)).bins).toEqual([{ from: 2.5, to: 2.5, count: 2 }]);
  });

  it("bins dates and timestamps by calendar units", () => {
    const days = summarizeField("d", tally("date", ["2024-02-27", "2024-02-29", "2024-03-01", "2024-03-01"]), exact(4));
    expect(days).toMatchObject({ min: "2024-02-27", max: "2024-03-01" });
    expect(days.bins).toEqual([
      { from: "2024-02-27", to: "2024-02-28", count: 1 },
      { from: "2024-02-28", to: "2024-02-29", count: 0 },
      { from: "2024-02-29", to: "2024-03-01", count: 1 },
      { from: "2024-03-01", to: "2024-03-02", count: 2 },
    ]);
    const months = summarizeField("d", tally("date", ["2001-01-15", "2001-03-02", "2002-12-31"]), { ...exact(3), bins: 10 });
    expect(months.bins!.map((b) => b.from)).toEqual(["2001-01-01", "2001-04-01", "2001-07-01", "2001-10-01", "2002-01-01", "2002-04-01", "2002-07-01", "2002-10-01"]);
    expect(months.bins!.map((b) => b.count)).toEqual([2, 0, 0, 0, 0, 0, 0, 1]);
    const stamps = summarizeField("ts", tally("timestamp", ["2020-01-01T00:00:00", "2020-01-01T05:59:59", "2020-01-01T06:00:00"]), { ...exact(3), bins: 2 });
    expect(stamps.bins).toEqual([
      { from: "2020-01-01T00:00:00", to: "2020-01-01T06:00:00", count: 2 },
      { from: "2020-01-01T06:00:00", to: "2020-01-01T12:00:00", count: 1 },
    ]);
  });

  it("answers no min, max or bins when every value is empty", () => {
    expect(summarizeField("n", tally("numeric", [null]), exact(1))).toEqual({ id: "n", type: "numeric", empty: 1, distinct: 0, distinctEstimated: false, min: null, max: null, bins: [] });
  });

  it("estimates distinct values over a sample, never above the non-empty rows it stands for", () => {
    const sample = tally("int8", Array.from({ length: 100 }, (_, i) => (i < 10 ? null : i)));
    const out = summarizeField("k", sample, { rows: 100, total: 1000, exact: false, top: 10, bins: 20 });
    expect(out).toMatchObject({ empty: 10, distinct: 900, distinctEstimated: true });
    const few = summarizeField("k", tally("text", ["a", "b", "a", "b"]), { rows: 4, total: 1000, exact: false, top: 10, bins: 20 });
    expect(few).toMatchObject({ distinct: 2, distinctEstimated: true });
  });
});
