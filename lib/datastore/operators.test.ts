// The operator registry: for each operator, the filter a value parses to, what an explorer URL
// may carry, its SQL clause (through a plain dialect: `?` placeholders, TRUE/FALSE), how a row in
// memory meets it, and its words in a chip.
import { describe, expect, it } from "vitest";
import type { Filter } from "./engine";
import { OPERATORS, conditionMatches, formatScalar, operatorNamed, rangeWords, type LeafFilter } from "./operators";
import type { StoredField } from "./catalog-row";
import { CastError } from "./types";
import { PlainWhere } from "./where-test-support";

const FIELDS: StoredField[] = [
  { id: "name", type: "text", column: "c0" },
  { id: "n", type: "int4", column: "c1" },
  { id: "tags", type: "_text", column: "c2" },
  { id: "at", type: "timestamp", column: "c3" },
  { id: "doc", type: "json", column: "c4" },
];

function sql(f: Filter): { sql: string; params: unknown[] } {
  const w = new PlainWhere(FIELDS);
  w.filter(f);
  return { sql: w.parts[0], params: w.params };
}

/** Each operator: a value it takes, the filter that makes, its clause and bound values. */
const CLAUSES: { name: keyof typeof OPERATORS; field: string; value: unknown; filter: LeafFilter; sql: string; params: unknown[] }[] = [
  { name: "eq", field: "n", value: 5, filter: { op: "eq", field: "n", value: 5 }, sql: "t.c1 = ?", params: [5] },
  { name: "gt", field: "n", value: "5", filter: { op: "gt", field: "n", value: "5" }, sql: "t.c1 > ?", params: [5] },
  { name: "gte", field: "name", value: "b", filter: { op: "gte", field: "name", value: "b" }, sql: "t.c0 >= ?", params: ["b"] },
  { name: "lt", field: "_id", value: 10, filter: { op: "lt", field: "_id", value: 10 }, sql: "t._id < ?", params: [10] },
  { name: "lte", field: "n", value: 2.5, filter: { op: "lte", field: "n", value: 2.5 }, sql: "t.c1 <= ?", params: [2.5] },
  { name: "in", field: "n", value: [1, "2", null], filter: { op: "in", field: "n", values: [1, "2", null] }, sql: "t.c1 IN (?, ?)", params: [1, 2] },
  {
    name: "x_not_in",
    field: "name",
    value: ["CA", null],
    filter: { op: "not_in", field: "name", values: ["CA", null] },
    // text: null is Python's "None" (CKAN 2.12)
    sql: "(t.c0 IS NULL OR t.c0 NOT IN (?, ?))",
    params: ["CA", "None"],
  },
  { name: "x_empty", field: "name", value: true, filter: { op: "empty", field: "name", empty: true }, sql: "(t.c0 IS NULL OR t.c0 = '')", params: [] },
];

describe("each operator's clause", () => {
  for (const c of CLAUSES) {
    it(`${c.name}: ${JSON.stringify(c.value)}`, () => {
      const f = operatorNamed(c.name)!.parse(c.field, c.value);
      expect(f).toEqual(c.filter);
      expect(sql(f!)).toEqual({ sql: c.sql, params: c.params });
    });
  }

  it("names every operator once", () => {
    expect(CLAUSES.map((c) => c.name).sort()).toEqual(Object.keys(OPERATORS).sort());
  });

  it("a comparison with SQL NULL matches nothing; a timestamp bound between seconds moves to a whole one", () => {
    expect(sql({ op: "eq", field: "n", value: null })).toEqual({ sql: "FALSE", params: [] });
    expect(sql({ op: "eq", field: "at", value: "2020-01-01T10:00:00.5" })).toEqual({ sql: "FALSE", params: [] });
    expect(sql({ op: "lt", field: "at", value: "2020-01-01T10:00:00.5" }).sql).toBe("t.c3 <= ?");
    expect(sql({ op: "gte", field: "at", value: "2020-01-01T10:00:00.5" }).sql).toBe("t.c3 > ?");
  });

  it("json compares for equality only", () => {
    expect(sql({ op: "eq", field: "doc", value: { a: 1 } })).toEqual({ sql: "t.c4 = ?", params: ['{"a":1}'] });
    expect(() => sql({ op: "gt", field: "doc", value: 1 })).toThrow(CastError);
    expect(() => sql({ op: "gt", field: "doc", value: 1 })).toThrow("operator does not exist: json > unknown");
  });

  it("lists: one value is equality, none matches nothing; none of none is every row", () => {
    expect(sql({ op: "in", field: "n", values: [3] }).sql).toBe("t.c1 = ?");
    expect(sql({ op: "in", field: "n", values: [null] }).sql).toBe("FALSE");
    expect(sql({ op: "not_in", field: "n", values: [] }).sql).toBe("TRUE");
  });

  it("empty: text is also '', an array also its empty array; false negates", () => {
    expect(sql({ op: "empty", field: "tags", empty: true }).sql).toBe("(t.c2 IS NULL OR t.c2 = '[]')");
    expect(sql({ op: "empty", field: "n", empty: false }).sql).toBe("NOT (t.c1 IS NULL)");
  });
});

describe("what each operator takes", () => {
  it("our extensions refuse other values, and say what they take", () => {
    expect(OPERATORS.x_empty.parse("a", "yes")).toBeNull();
    expect(OPERATORS.x_empty.takes).toBe("true or false");
    expect(OPERATORS.x_not_in.parse("a", [{ b: 1 }])).toBeNull();
    expect(OPERATORS.x_not_in.parse("a", "CA")).toEqual({ op: "not_in", field: "a", values: ["CA"] });
    expect(OPERATORS.x_not_in.takes).toBe("a value or a list of values");
    expect(OPERATORS.in.parse("a", 1)).toEqual({ op: "in", field: "a", values: [1] });
  });

  it("only its own names are operators", () => {
    for (const name of ["between", "constructor", "__proto__", "toString", "$or"]) expect(operatorNamed(name)).toBeUndefined();
  });

  it("an explorer URL carries JSON scalars only", () => {
    expect(OPERATORS.eq.inUrl([1, 2])).toBe(true);
    expect(OPERATORS.gt.inUrl([1, 2])).toBe(false);
    expect(OPERATORS.gte.inUrl({ lte: 1 })).toBe(false);
    expect(OPERATORS.x_empty.inUrl("yes")).toBe(false);
    expect(OPERATORS.x_not_in.inUrl([])).toBe(false);
    expect(OPERATORS.in.inUrl(["a", null])).toBe(true);
  });
});

describe("a row in memory", () => {
  const text = (v: unknown) => (v === null ? null : String(v));
  it.each([
    ["eq", "SEA", { op: "eq", field: "f", value: "SEA" }, true],
    ["gt on null", null, { op: "gt", field: "f", value: "A" }, false],
    ["lte", "B", { op: "lte", field: "f", value: "B" }, true],
    ["in", "B", { op: "in", field: "f", values: ["A", "B"] }, true],
    ["not_in passes null", null, { op: "not_in", field: "f", values: ["A"] }, true],
    ["not_in", "A", { op: "not_in", field: "f", values: ["A"] }, false],
    ["empty", "", { op: "empty", field: "f", empty: true }, true],
    ["not empty", "x", { op: "empty", field: "f", empty: false }, true],
  ] as const)("%s", (_name, cell, f, expected) => {
    expect(conditionMatches(cell, f as LeafFilter, text)).toBe(expected);
  });
});

describe("words", () => {
  it("says each condition as a chip does", () => {
    expect(OPERATORS.in.words(["SEA", "PDX"])).toBe("SEA or PDX");
    expect(OPERATORS.in.words(["", null])).toBe('"" or null');
    expect(OPERATORS.x_not_in.words(["CA", "OR"])).toBe("not CA or OR");
    expect(OPERATORS.x_empty.words(true)).toBe("is empty");
    expect(OPERATORS.x_empty.words(false)).toBe("is not empty");
    expect(formatScalar(0)).toBe("0");
  });

  it("a range by its bounds, whole days as dates", () => {
    expect(rangeWords(60, 120)).toBe("60 to 120");
    expect(rangeWords(60, null)).toBe("from 60");
    expect(rangeWords(null, 120)).toBe("up to 120");
    expect(rangeWords("2001-03-01T00:00", "2001-03-31T23:59:59")).toBe("2001-03-01 to 2001-03-31");
    expect(rangeWords("2001-03-01T12:00", undefined)).toBe("from 2001-03-01T12:00");
  });
});
