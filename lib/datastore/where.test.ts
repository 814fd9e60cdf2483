// The shared WHERE builder: groups as balanced trees, fields by id (409 for an unknown one), and
// filter values cast as CKAN casts them before an engine binds them.
import { describe, expect, it } from "vitest";
import { DatastoreError } from "./errors";
import { ID_FIELD, type StoredField } from "./catalog-row";
import { allOf } from "./where";
import { PlainWhere } from "./where-test-support";

const FIELDS: StoredField[] = [
  { id: "name", type: "text", column: "c0" },
  { id: "n", type: "int4", column: "c1" },
  { id: "x", type: "float8", column: "c2" },
  { id: "tags", type: "_int4", column: "c3" },
  { id: "doc", type: "json", column: "c4" },
];

describe("WhereBuilder", () => {
  it("ANDs filters into parts, groups in parentheses; empty groups are every row and no row", () => {
    const w = new PlainWhere(FIELDS);
    w.filter({ op: "or", of: [{ op: "eq", field: "n", value: 1 }, { op: "and", of: [{ op: "gt", field: "x", value: 0 }, { op: "lt", field: "x", value: 1 }] }] });
    w.filter({ op: "and", of: [] });
    w.filter({ op: "or", of: [] });
    expect(w.parts).toEqual(["(t.c1 = ? OR (t.c2 > ? AND t.c2 < ?))", "TRUE", "FALSE"]);
    expect(w.params).toEqual([1, 0, 1]);
  });

  it("nests long groups as balanced trees, in order", () => {
    const w = new PlainWhere(FIELDS);
    w.filter({ op: "or", of: Array.from({ length: 10 }, (_, i) => ({ op: "eq" as const, field: "n", value: i })) });
    expect(w.parts[0]).toBe("((t.c1 = ? OR t.c1 = ? OR t.c1 = ? OR t.c1 = ? OR t.c1 = ?) OR (t.c1 = ? OR t.c1 = ? OR t.c1 = ? OR t.c1 = ? OR t.c1 = ?))");
    expect(w.params).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(allOf(["a", "b"])).toBe("a AND b");
  });

  it("binds a long `_id` list as one parameter (SQLite takes at most 32766), a short or odd one value by value", () => {
    const w = new PlainWhere(FIELDS);
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);
    w.filter({ op: "in", field: "_id", values: [...ids, null, "201"] });
    expect(w.parts).toEqual(["t._id IN ?"]);
    expect(w.params).toEqual([[...ids, 201]]);
    const short = new PlainWhere(FIELDS);
    short.filter({ op: "in", field: "_id", values: [1, 2] });
    expect(short.parts).toEqual(["t._id IN (?, ?)"]);
    const odd = new PlainWhere(FIELDS);
    odd.filter({ op: "in", field: "_id", values: [...ids, 5.5] });
    expect(odd.params).toHaveLength(201);
    const none = new PlainWhere(FIELDS);
    none.filter({ op: "in", field: "_id", values: Array.from({ length: 101 }, () => null) });
    expect(none.parts).toEqual(["FALSE"]);
  });

  it("finds fields by id, _id included; an unknown one is 409 on filters", () => {
    const w = new PlainWhere(FIELDS);
    expect(w.col("_id")).toBe(ID_FIELD);
    expect(w.col("n")).toBe(FIELDS[1]);
    try {
      w.col("nope");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DatastoreError);
      expect((e as DatastoreError).details).toEqual({ filters: ['field "nope" not in table'] });
    }
  });

  it("casts values as CKAN does: text through str(), numbers exact against integers, json as its text", () => {
    const w = new PlainWhere(FIELDS);
    const cast = (id: string, v: unknown) => w.cast(w.col(id), v);
    expect(cast("name", null)).toBe("None");
    expect(cast("name", 5)).toBe("5");
    expect(cast("n", 2.5)).toBe(2.5);
    expect(cast("n", 1e20)).toBe(1e20);
    expect(cast("n", "7")).toBe(7);
    expect(cast("n", null)).toBeNull();
    expect(cast("_id", "4")).toBe(4);
    expect(cast("doc", { a: 1 })).toBe('{"a":1}');
    expect(cast("tags", [1, 2])).toBe("[1,2]");
    expect(() => cast("tags", 1)).toThrow('malformed array literal: "1"');
    expect(() => cast("n", "abc")).toThrow();
  });
});
