import { describe, expect, it } from "vitest";
import { binEdge, binStep, bindAggregateSpec, inKeyOrder, parseAggregateParams, rankGroups, type AggregateRequest } from "./aggregate-spec";
import { toSpec } from "./aggregate-test-support";
import type { AggregateGroup, AggregateSpec, Resource } from "./engine";
import { DatastoreError, ErrorBag } from "./errors";

const OLD = { v2: false, metrics: [], having: null, order: [], offset: 0, totals: false, budgetMs: null };

const R = {
  id: "r",
  fields: [
    { id: "d", type: "date" },
    { id: "ts", type: "timestamp" },
    { id: "i", type: "int4" },
    { id: "f", type: "float8" },
    { id: "name", type: "text" },
    { id: "a,b", type: "text" },
    { id: "flag", type: "bool" },
  ],
} as unknown as Resource;

/** The parameters' errors, as the action would answer them (409 details). */
function parseErrors(params: Record<string, unknown>): Record<string, unknown> | null {
  const bag = new ErrorBag();
  parseAggregateParams(params, bag);
  try {
    bag.throwIfAny();
    return null;
  } catch (e) {
    return (e as DatastoreError).details;
  }
}

function bound(params: Record<string, unknown>): AggregateSpec {
  const bag = new ErrorBag();
  const req = parseAggregateParams(params, bag);
  bag.throwIfAny();
  return bindAggregateSpec(R, req);
}

function bindErrors(params: Record<string, unknown>): Record<string, unknown> {
  try {
    bound(params);
  } catch (e) {
    expect(e).toBeInstanceOf(DatastoreError);
    expect((e as DatastoreError).kind).toBe("validation");
    return (e as DatastoreError).details;
  }
  throw new Error("expected a 409");
}

describe("parseAggregateParams", () => {
  it("reads the defaults, and numbers sent as text (GET)", () => {
    const bag = new ErrorBag();
    expect(parseAggregateParams({ group_by: "name" }, bag)).toEqual<AggregateRequest>({ ...OLD, groupBy: "name", period: null, bin: null, metric: "count", field: null, limit: 100 });
    expect(parseAggregateParams({ group_by: ["i", "f"], bin: "0.5", limit: "10000", metric: "avg", field: "i", period: "week" }, bag)).toEqual<AggregateRequest>({
      ...OLD,
      groupBy: ["i", "f"],
      period: "week",
      bin: 0.5,
      metric: "avg",
      field: "i",
      limit: 10_000,
    });
    expect(bag.empty).toBe(true);
  });

  it("leaves a field sent with count unread", () => {
    expect(parseAggregateParams({ group_by: "name", field: 12 }, new ErrorBag()).field).toBeNull();
  });

  it("names every bad parameter", () => {
    expect(parseErrors({})).toEqual({ group_by: ["Missing value"] });
    expect(parseErrors({ group_by: [] })).toEqual({ group_by: ["Missing value"] });
    expect(parseErrors({ group_by: ["a", "b", "c"] })).toBeNull();
    expect(parseErrors({ group_by: ["a", "b", "c", "d"], metrics: [{ fn: "count" }] })).toEqual({ group_by: ["Must be one to 3 field ids"] });
    expect(parseErrors({ group_by: [1] })).toEqual({ group_by: ['invalid key 1: a field id or {"field": id, "period": …} or {"field": id, "bin": …}'] });
    expect(parseErrors({ group_by: { a: 1 } })).toEqual({ group_by: ['invalid key {"a":1}: a field id or {"field": id, "period": …} or {"field": id, "bin": …}'] });
    expect(parseErrors({ group_by: "d", period: "decade" })).toEqual({ period: ["Must be one of day, week, month, quarter, year"] });
    for (const bin of [0, -1, "x", "1e999", Infinity, [1], true]) expect(parseErrors({ group_by: "i", bin })).toEqual({ bin: ["Must be a positive number"] });
    expect(parseErrors({ group_by: "i", metric: "median" })).toEqual({ metric: ["Must be one of count, sum, avg, min, max"] });
    expect(parseErrors({ group_by: "i", metric: "sum" })).toEqual({ field: ["Missing value"] });
    expect(parseErrors({ group_by: "i", metric: "max", field: ["i"] })).toEqual({ field: ['invalid value "[\\"i\\"]"'] });
    for (const [limit, message] of [
      [0, "Must be between 1 and 10000"],
      [10_001, "Must be between 1 and 10000"],
      [-1, "Must be a natural number"],
      ["x", "Invalid integer"],
      [1.5, "Invalid integer"],
    ] as const) {
      expect(parseErrors({ group_by: "i", limit })).toEqual({ limit: [message] });
    }
  });
});

describe("bindAggregateSpec", () => {
  it("groups each key by its value, its period or its bin, by type", () => {
    expect(bound({ group_by: "name" })).toEqual(toSpec({ keys: [{ field: "name" }], metric: "count", field: null, limit: 100 }));
    expect(bound({ group_by: ["d", "name"], period: "month" }).keys).toEqual([{ field: "d", period: "month" }, { field: "name" }]);
    expect(bound({ group_by: ["f", "i"], bin: 1 }).keys).toEqual([
      { field: "f", bin: 1 },
      { field: "i", bin: 1 },
    ]);
    expect(bound({ group_by: ["ts", "_id"], period: "day", bin: 100 }).keys).toEqual([
      { field: "ts", period: "day" },
      { field: "_id", bin: 100 },
    ]);
    expect(bound({ group_by: "name", metric: "sum", field: "_id" })).toMatchObject({ metrics: [{ name: "value", fn: "sum", field: "_id" }] });
  });

  it("reads a comma string as a list, unless a field has that very id", () => {
    expect(bound({ group_by: "d, name" }).keys).toEqual([{ field: "d" }, { field: "name" }]);
    expect(bound({ group_by: "a,b" }).keys).toEqual([{ field: "a,b" }]);
  });

  it("answers 409 for unknown fields and types that cannot be grouped so", () => {
    expect(bindErrors({ group_by: "nope" })).toEqual({ group_by: ['field "nope" does not exist'] });
    expect(bindErrors({ group_by: "d,name,i,f" })).toEqual({ group_by: ["Must be one to 3 field ids"] });
    expect(bindErrors({ group_by: ",," })).toEqual({ group_by: ["Must be one to 3 field ids"] });
    expect(bindErrors({ group_by: "name", period: "day" })).toEqual({ period: ['a period needs a date or timestamp field: "name" is text'] });
    expect(bindErrors({ group_by: ["i", "flag"], period: "day" })).toEqual({ period: ['a period needs a date or timestamp field: "i" is int4, "flag" is bool'] });
    expect(bindErrors({ group_by: "d", bin: 2 })).toEqual({ bin: ['a bin needs a number field: "d" is date'] });
    expect(bindErrors({ group_by: "name", metric: "sum", field: "name" })).toEqual({ field: ['field "name" is text: sum needs a number field'] });
    expect(bindErrors({ group_by: "name", metric: "avg", field: "d" })).toEqual({ field: ['field "d" is date: avg needs a number field'] });
    expect(bindErrors({ group_by: "name", metric: "min", field: "nope" })).toEqual({ field: ['field "nope" does not exist'] });
    expect(bindErrors({ group_by: "nope", bin: 1, metric: "max", field: "flag" })).toEqual({
      group_by: ['field "nope" does not exist'],
      field: ['field "flag" is bool: max needs a number field'],
    });
  });
});

describe("bins", () => {
  it("keeps decimal widths exact: 0.3 falls in the bin from 0.3 of width 0.1", () => {
    expect(binStep(0.1)).toEqual({ mul: 10, div: 1 });
    expect(binStep(2.5)).toEqual({ mul: 10, div: 25 });
    expect(binStep(1.5e-7)).toEqual({ mul: 1e8, div: 15 });
    expect(binStep(10)).toEqual({ mul: 1, div: 10 });
    expect(binStep(1e21)).toEqual({ mul: 1, div: 1e21 });
    expect(binStep(1 / 3)).toEqual({ mul: 1, div: 1 / 3 });
    const { mul, div } = binStep(0.1);
    expect(Math.floor((0.3 * mul) / div)).toBe(3);
    expect(binEdge(0.1, 3)).toBe(0.3);
    expect(binEdge(0.1, -1)).toBe(-0.1);
    expect(binEdge(2.5, 3)).toBe(7.5);
  });
});

describe("rankGroups", () => {
  const g = (key: unknown[], count: number, value: number | null = count): AggregateGroup => ({ key, count, values: { value }, _id: count });
  const spec = (keys: AggregateSpec["keys"], limit = 100): AggregateSpec => toSpec({ keys, metric: "count", field: null, limit });

  it("orders by value descending (no value last), then key, nulls last; the rest go to others", () => {
    const groups = [g(["b"], 2), g([null], 5), g(["a"], 2), g(["c"], 1, null), g(["z"], 7)];
    const out = rankGroups(groups, spec([{ field: "name" }], 3));
    expect(out.groups.map((x) => x.key[0])).toEqual(["z", null, "a"]);
    expect(out.others).toEqual({ groups: 2, count: 3 });
    expect(rankGroups([g([null], 2), g(["a"], 2)], spec([{ field: "name" }])).groups.map((x) => x.key[0])).toEqual(["a", null]);
    expect(rankGroups([g([true], 1), g([false], 1)], spec([{ field: "flag" }])).groups.map((x) => x.key[0])).toEqual([false, true]);
  });

  it("orders by key when every key is a period or a bin: a time series, a grid", () => {
    const grid = spec([
      { field: "f", bin: 1 },
      { field: "i", bin: 1 },
    ]);
    expect(inKeyOrder(grid)).toBe(true);
    expect(inKeyOrder(spec([{ field: "d", period: "day" }, { field: "name" }]))).toBe(false);
    const cells = [g([1, 2], 9), g([-1, 5], 1), g([1, null], 4), g([null, 0], 3), g([1, -3], 2)];
    expect(rankGroups(cells, grid).groups.map((x) => x.key)).toEqual([[-1, 5], [1, -3], [1, 2], [1, null], [null, 0]]);
    const days = spec([{ field: "d", period: "day" }], 2);
    const out = rankGroups([g(["2020-01-03"], 1), g(["2020-01-01"], 5), g([null], 1), g(["2020-01-02"], 3)], days);
    expect(out).toEqual({ groups: [g(["2020-01-01"], 5), g(["2020-01-02"], 3)], others: { groups: 2, count: 2 } });
  });

  it("answers no groups for no rows", () => {
    expect(rankGroups([], spec([{ field: "name" }]))).toEqual({ groups: [], others: { groups: 0, count: 0 } });
  });
});

describe("the second form (issue 25)", () => {
  it("takes up to three keys, each with its own period or bin, and several measures named by default", () => {
    const s = bound({
      group_by: [{ field: "d", period: "month" }, "name", { field: "f", bin: 0.5 }],
      metrics: [{ fn: "count" }, { fn: "sum", field: "i" }, { fn: "count_distinct", field: "name" }, { fn: "max", field: "ts", name: "latest" }],
    });
    expect(s.keys).toEqual([{ field: "d", period: "month" }, { field: "name" }, { field: "f", bin: 0.5 }]);
    expect(s.metrics).toEqual([
      { name: "count", fn: "count", field: null },
      { name: "sum_i", fn: "sum", field: "i" },
      { name: "count_distinct_name", fn: "count_distinct", field: "name" },
      { name: "latest", fn: "max", field: "ts" },
    ]);
    // JSON sent as text (GET), the global period applying to a plain key of its kind.
    expect(bound({ group_by: '["ts", {"field": "i", "bin": 10}]', period: "year", metrics: '[{"fn": "avg", "field": "f"}]', totals: "true", offset: "20" })).toMatchObject({
      keys: [{ field: "ts", period: "year" }, { field: "i", bin: 10 }],
      metrics: [{ name: "avg_f", fn: "avg", field: "f" }],
      totals: true,
      offset: 20,
    });
    // Any of metrics, having, order_by or totals selects it; count by default.
    expect(bound({ group_by: "name", totals: true }).metrics).toEqual([{ name: "count", fn: "count", field: null }]);
  });

  it("reads order_by and having against the measures and the keys", () => {
    const s = bound({ group_by: "name", metrics: [{ fn: "count" }, { fn: "avg", field: "i" }], order_by: "avg_i desc, name", having: { count: { gte: 2 } } });
    expect(s.order).toEqual([
      { by: "avg_i", desc: true },
      { by: "name", desc: false },
    ]);
    expect(s.having).toEqual({ op: "gte", field: "count", value: 2 });
  });

  it("answers 409 naming the parameter for every bad measure, key, having and order", () => {
    expect(bindErrors({ group_by: [{ field: "name", period: "day" }] })).toEqual({ group_by: ['a period needs a date or timestamp field: "name" is text'] });
    expect(bindErrors({ group_by: [{ field: "d", bin: 1 }] })).toEqual({ group_by: ['a bin needs a number field: "d" is date'] });
    expect(bindErrors({ group_by: ["name", "name"], totals: true })).toEqual({ group_by: ["a field may be grouped once"] });
    expect(parseErrors({ group_by: [{ field: "d", period: "decade" }] })).toEqual({ group_by: ["period of \"d\" must be one of day, week, month, quarter, year"] });
    expect(parseErrors({ group_by: "name", metrics: [] })).toEqual({ metrics: ["Must be a list of 1 to 10 measures, each {\"fn\": …, \"field\": …}"] });
    expect(parseErrors({ group_by: "name", metrics: Array.from({ length: 11 }, () => ({ fn: "count" })) })).toMatchObject({ metrics: [expect.any(String)] });
    expect(parseErrors({ group_by: "name", metrics: [{ fn: "median", field: "i" }] })).toEqual({ metrics: ["fn must be one of count, sum, avg, min, max, count_distinct"] });
    expect(parseErrors({ group_by: "name", metrics: [{ fn: "sum" }] })).toEqual({ metrics: ["sum needs a field"] });
    expect(parseErrors({ group_by: "name", metrics: [{ fn: "count" }], metric: "sum" })).toMatchObject({ metric: [expect.any(String)] });
    expect(parseErrors({ group_by: "name", order_by: 3 })).toMatchObject({ order_by: [expect.any(String)] });
    expect(parseErrors({ group_by: "name", budget_ms: 0 })).toEqual({ budget_ms: ["Must be a positive integer"] });
    expect(bindErrors({ group_by: "name", metrics: [{ fn: "sum", field: "name" }] })).toEqual({ metrics: ['field "name" is text: sum needs a number field'] });
    expect(bindErrors({ group_by: "name", metrics: [{ fn: "min", field: "flag" }] })).toEqual({ metrics: ['field "flag" is bool: min needs a number, date or timestamp field'] });
    expect(bindErrors({ group_by: "name", metrics: [{ fn: "count_distinct", field: "nope" }] })).toEqual({ metrics: ['field "nope" does not exist'] });
    expect(bindErrors({ group_by: "name", metrics: [{ fn: "count" }, { fn: "sum", field: "i", name: "count" }] })).toEqual({ metrics: ['two measures are named "count": give one a "name"'] });
    expect(bindErrors({ group_by: "name", metrics: [{ fn: "count", name: "name" }] })).toEqual({ metrics: ['"name" is a group_by field: give the measure another "name"'] });
    expect(bindErrors({ group_by: "name", order_by: "nope desc" })).toEqual({ order_by: ['"nope" is neither a measure nor a group_by field (count, name)'] });
    expect(bindErrors({ group_by: "name", having: { nope: 1 } })).toMatchObject({ having: [expect.stringContaining("count, name")] });
  });

  it("keeps the groups having keeps, in the asked order, from offset, the rest in others", () => {
    const spec = bound({ group_by: "name", metrics: [{ fn: "count" }, { fn: "max", field: "i" }], having: { $or: [{ count: { gte: 3 } }, { name: "a" }] }, order_by: "max_i asc", limit: 2, offset: 1 });
    const g = (name: string | null, count: number, max: number | null): AggregateGroup => ({ key: [name], count, values: { count, max_i: max }, _id: 1 });
    const all = [g("a", 1, 9), g("b", 3, 5), g("c", 4, null), g("d", 2, 1), g("e", 5, 7), g(null, 6, 2)];
    const out = rankGroups(all, spec);
    // Kept: a, b, c, e, null; by max_i ascending, no value last: null(2), b(5), e(7), a(9), c(-).
    expect(out.groups.map((x) => x.key[0])).toEqual(["b", "e"]);
    expect(out.others).toEqual({ groups: 2, count: 5 });
  });
});
