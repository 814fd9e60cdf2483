// The filters parser against CKAN 2.12's ckanext/datastore/filters.py: shapes, merging,
// `$$` names, limits and messages.
import { describe, expect, it } from "vitest";
import { DatastoreError } from "./errors";
import { filterValueCount, parseFilters, pyRepr } from "./filters";

const FIELDS = new Set(["_id", "a", "b", "c", "$x", "year"]);
const parse = (input: unknown) => parseFilters(input, (f) => FIELDS.has(f));

function errorOf(input: unknown): Record<string, unknown> {
  try {
    parse(input);
  } catch (e) {
    if (e instanceof DatastoreError) return e.details;
    throw e;
  }
  throw new Error("no error");
}

/** `depth` groups nested inside each other around one equality. */
function nested(depth: number): Record<string, unknown> {
  let f: Record<string, unknown> = { a: 1 };
  for (let i = 0; i < depth; i++) f = { [i % 2 ? "$and" : "$or"]: [f, { b: i }] };
  return f;
}

describe("parseFilters: shapes", () => {
  it.each([null, undefined, {}, [], "", 0, false])("%j is no filter", (input) => {
    expect(parse(input)).toBeNull();
  });

  it("a scalar is eq, a list is in, a dict of operators is their AND", () => {
    expect(parse({ a: 1 })).toEqual({ op: "eq", field: "a", value: 1 });
    expect(parse({ a: [1, 2] })).toEqual({ op: "in", field: "a", values: [1, 2] });
    expect(parse({ a: [] })).toEqual({ op: "in", field: "a", values: [] });
    expect(parse({ a: { gte: 1, lte: 5 } })).toEqual({
      op: "and",
      of: [
        { op: "gte", field: "a", value: 1 },
        { op: "lte", field: "a", value: 5 },
      ],
    });
    expect(parse({ a: { eq: [1, 2] } })).toEqual({ op: "eq", field: "a", value: [1, 2] });
  });

  it("a list mixing values and operator dicts is their OR, values last", () => {
    expect(parse({ year: [2005, { gte: 2010, lte: 2019 }] })).toEqual({
      op: "or",
      of: [
        {
          op: "and",
          of: [
            { op: "gte", field: "year", value: 2010 },
            { op: "lte", field: "year", value: 2019 },
          ],
        },
        { op: "in", field: "year", values: [2005] },
      ],
    });
  });

  it("several keys AND; a top-level list ORs its dicts", () => {
    expect(parse({ a: 1, b: 2 })).toEqual({
      op: "and",
      of: [
        { op: "eq", field: "a", value: 1 },
        { op: "eq", field: "b", value: 2 },
      ],
    });
    expect(parse([{ a: 1, b: 2 }, { c: 3 }])).toEqual({
      op: "or",
      of: [
        {
          op: "and",
          of: [
            { op: "eq", field: "a", value: 1 },
            { op: "eq", field: "b", value: 2 },
          ],
        },
        { op: "eq", field: "c", value: 3 },
      ],
    });
  });

  it("$or and $and nest, and a group inside one of its own kind merges into it", () => {
    expect(parse({ b: false, $or: [{ a: "x" }, { _id: { gt: 2 } }] })).toEqual({
      op: "and",
      of: [
        { op: "eq", field: "b", value: false },
        {
          op: "or",
          of: [
            { op: "eq", field: "a", value: "x" },
            { op: "gt", field: "_id", value: 2 },
          ],
        },
      ],
    });
    expect(parse({ $or: [{ $or: [{ a: 1 }, { b: 2 }] }, { c: 3 }] })).toEqual({
      op: "or",
      of: [
        { op: "eq", field: "a", value: 1 },
        { op: "eq", field: "b", value: 2 },
        { op: "eq", field: "c", value: 3 },
      ],
    });
    // A top-level $and adds its members to the root AND.
    expect(parse({ a: 1, $and: [{ b: 2 }, { c: 3 }] })).toEqual({
      op: "and",
      of: [
        { op: "eq", field: "a", value: 1 },
        { op: "eq", field: "b", value: 2 },
        { op: "eq", field: "c", value: 3 },
      ],
    });
  });

  it("takes CKAN's undocumented `in` operator", () => {
    expect(parse({ a: { in: [1, 2] } })).toEqual({ op: "in", field: "a", values: [1, 2] });
  });

  it("$$ spells a field that starts with $", () => {
    expect(parse({ $$x: 1 })).toEqual({ op: "eq", field: "$x", value: 1 });
  });

  it("takes our two extensions in operator dicts", () => {
    expect(parse({ a: { x_empty: true } })).toEqual({ op: "empty", field: "a", empty: true });
    expect(parse({ a: { x_empty: false } })).toEqual({ op: "empty", field: "a", empty: false });
    expect(parse({ a: { x_not_in: ["p", "q"] } })).toEqual({ op: "not_in", field: "a", values: ["p", "q"] });
    expect(parse({ a: { x_not_in: "p" } })).toEqual({ op: "not_in", field: "a", values: ["p"] });
  });
});

describe("parseFilters: errors (409 filters, CKAN's messages)", () => {
  it.each<[unknown, string[]]>([
    ["abc", ["Filters must be defined as a dict or a list of dicts"]],
    [[{ a: 1 }, 2], ["Filters must be defined as a dict or a list of dicts"]],
    [{ nope: 1 }, ["Unknown field: nope"]],
    [{ nope: 1, a: { gt: 1 }, other: { lt: 2 } }, ["Unknown field: nope", "Unknown field: other"]],
    [{ nope: [1, 2] }, ['invalid value "nope"']],
    [{ $not: [{ a: 1 }] }, ["Unknown operators (must be one of $or, $and): $not"]],
    [{ $or: { a: 1 } }, ["Filter operations must be defined as a list of dicts: {'a': 1}"]],
    [{ $or: [1] }, ["Filter operations must be defined as a list of dicts: [1]"]],
    [{ a: { like: "x%" } }, ["Unknown filter operation: FilterOp(field='a', op='like', value='x%')"]],
    [{ a: { x_empty: "yes" } }, ["Unknown filter operation: FilterOp(field='a', op='x_empty', value='yes'): x_empty takes true or false"]],
    // Filters that say nothing are refused, never read as "no filter" (a delete would empty the table).
    [{ $or: [] }, ['invalid value "$or"']],
    [{ $and: [{}] }, ['invalid value "$and"']],
    [[{}], ['invalid value "{}"']],
    // Unknown fields are reported before unknown operators, as CKAN finds those later.
    [{ a: { like: 1 }, nope: 1 }, ["Unknown field: nope"]],
  ])("%j → %j", (input, messages) => {
    expect(errorOf(input)).toEqual({ filters: messages });
  });

  it("refuses nesting 10 groups deep, not 9", () => {
    expect(parse(nested(9))).not.toBeNull();
    expect(errorOf(nested(10))).toEqual({ filters: ["Maximum nesting depth for filter operations reached"] });
  });

  it("refuses more than 100 operations, or a dict or list of 100 members", () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
    const many = ["Maximum number of filter operations exceeded"];
    expect(errorOf(keys(100))).toEqual({ filters: many });
    expect(errorOf(Array.from({ length: 100 }, () => ({ a: 1 })))).toEqual({ filters: many });
    // 50 members of two operations each, plus their AND: 101.
    expect(errorOf({ $and: Array.from({ length: 50 }, () => ({ a: 1, b: 2 })) })).toEqual({ filters: many });
    expect(parse({ $and: Array.from({ length: 33 }, () => ({ a: 1, b: 2 })) })).not.toBeNull();
  });
});

describe("helpers", () => {
  it("counts bound values", () => {
    expect(filterValueCount([parse({ a: [1, 2, 3], b: { gt: 1, x_not_in: [1, 2] } })!])).toBe(6);
  });

  it("prints values as Python's repr", () => {
    expect(pyRepr({ a: [1, null, true, "it's"] })).toBe(`{'a': [1, None, True, "it's"]}`);
  });
});
