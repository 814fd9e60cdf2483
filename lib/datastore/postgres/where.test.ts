// Filters on PostgreSQL match the rows the SQLite engine matches (sqlite/where.ts is the
// reference), and refuse the values it refuses: the same records in both, the same filters.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatastoreEngine, Field, Filter, SearchQuery } from "../engine";
import { openEngine } from "../open";
import { makeResource, testDb, type TestDb } from "./reads-test-support";
import { quoteIdent as q, type PgResource } from "./resource";
import { whereSql } from "./where";

const FIELDS: Field[] = [
  { id: "name", type: "text" },
  { id: "n", type: "int4" },
  { id: "big", type: "int8" },
  { id: "x", type: "float8" },
  { id: "num", type: "numeric" },
  { id: "ok", type: "bool" },
  { id: "day", type: "date" },
  { id: "at", type: "timestamp" },
  { id: "clock", type: "time" },
  { id: "tags", type: "_text" },
  { id: "ns", type: "_int4" },
  { id: "doc", type: "json" },
];

const RECORDS: Record<string, unknown>[] = [
  { name: "alpha", n: 1, big: 10, x: 1.5, num: 2.25, ok: true, day: "2020-01-01", at: "2020-01-01T10:00:00", clock: "10:00:00", tags: ["a", "b"], ns: [1, 2], doc: { a: 1 } },
  { name: "beta", n: 5, big: 9007199254740991, x: -2, num: 0, ok: false, day: "2020-02-29", at: "2020-01-01T10:00:01", clock: "23:59:59", tags: [], ns: [10], doc: [1, 2] },
  { name: "", n: -3, x: 0.1, ok: true, day: "1999-12-31", at: "1999-12-31T23:59:59", tags: ["b"], ns: [9], doc: "text" },
  { name: "None", n: 100, big: -1, x: 1e10, num: 1e20, ok: null, tags: null, ns: [1, 2, 3], doc: null },
  { name: "Beta", n: null, x: null, day: null, at: "2021-06-15T00:00:00", ns: [], doc: { a: 1 } },
  { name: null, n: 5, big: 10, num: -1.5, ok: false, day: "2020-01-01", tags: ["a"], ns: [1, null] },
  { name: "ünï", n: 2147483647, x: -0.0, tags: ["", "z"], doc: 5 },
];

const FILTERS: Filter[] = [
  { op: "eq", field: "name", value: "beta" },
  { op: "eq", field: "name", value: "" },
  { op: "eq", field: "name", value: null }, // CKAN 2.12: str(None) is "None"
  { op: "eq", field: "name", value: 5 },
  { op: "gt", field: "name", value: "Beta" },
  { op: "lte", field: "name", value: "alpha" },
  { op: "eq", field: "n", value: 5 },
  { op: "eq", field: "n", value: "5" },
  { op: "gt", field: "n", value: 4.5 },
  { op: "lt", field: "n", value: 1e12 },
  { op: "gte", field: "n", value: -1e12 },
  { op: "eq", field: "n", value: null },
  { op: "eq", field: "n", value: "" },
  { op: "eq", field: "big", value: 9007199254740991 },
  { op: "lt", field: "big", value: "11" },
  { op: "gt", field: "x", value: 0 },
  { op: "eq", field: "x", value: 0.1 },
  { op: "eq", field: "x", value: 0 },
  { op: "gte", field: "num", value: "0" },
  { op: "eq", field: "num", value: 2.25 },
  { op: "eq", field: "ok", value: true },
  { op: "eq", field: "ok", value: "f" },
  { op: "gt", field: "ok", value: false },
  { op: "eq", field: "day", value: "2020-01-01" },
  { op: "eq", field: "day", value: "01/01/2020" },
  { op: "gte", field: "day", value: "2020-01-01T12:00:00" },
  { op: "lt", field: "day", value: "2020-02-29" },
  { op: "eq", field: "at", value: "2020-01-01 10:00:00" },
  { op: "eq", field: "at", value: "2020-01-01T10:00:00.5" },
  { op: "lt", field: "at", value: "2020-01-01T10:00:00.5" },
  { op: "gte", field: "at", value: "2020-01-01T10:00:00.5" },
  { op: "gt", field: "at", value: "2020-01-01" },
  { op: "lte", field: "clock", value: "12:00" },
  { op: "eq", field: "tags", value: ["a", "b"] },
  { op: "eq", field: "tags", value: [] },
  { op: "gt", field: "tags", value: ["a"] },
  { op: "lt", field: "ns", value: [2] },
  { op: "gte", field: "ns", value: [1, 2] },
  { op: "eq", field: "ns", value: [1, null] },
  { op: "eq", field: "doc", value: { a: 1 } },
  { op: "eq", field: "doc", value: 5 },
  { op: "eq", field: "doc", value: "text" },
  { op: "in", field: "name", values: ["alpha", "beta", null] },
  { op: "in", field: "n", values: [] },
  { op: "in", field: "n", values: [5, "1", 2.5] },
  { op: "in", field: "tags", values: [["a"], []] },
  { op: "in", field: "doc", values: [{ a: 1 }, [1, 2]] },
  { op: "not_in", field: "n", values: [5, 1] },
  { op: "not_in", field: "name", values: [] },
  { op: "not_in", field: "day", values: ["2020-01-01", null] },
  { op: "not_in", field: "doc", values: [{ a: 1 }] },
  { op: "empty", field: "name", empty: true },
  { op: "empty", field: "name", empty: false },
  { op: "empty", field: "tags", empty: true },
  { op: "empty", field: "ns", empty: false },
  { op: "empty", field: "doc", empty: true },
  { op: "empty", field: "n", empty: true },
  { op: "eq", field: "_id", value: 3 },
  { op: "gt", field: "_id", value: "4" },
  { op: "lte", field: "_id", value: 2.5 },
  { op: "in", field: "_id", values: [1, 7, 99] },
  { op: "and", of: [] },
  { op: "or", of: [] },
  { op: "or", of: [{ op: "eq", field: "n", value: 5 }, { op: "and", of: [{ op: "gt", field: "x", value: 0 }, { op: "eq", field: "ok", value: true }] }] },
  { op: "and", of: [{ op: "gte", field: "day", value: "2020-01-01" }, { op: "lt", field: "day", value: "2021-01-01" }, { op: "empty", field: "tags", empty: false }] },
];

/** Filters both engines refuse (409). */
const REFUSED: Filter[] = [
  { op: "eq", field: "n", value: "abc" },
  { op: "eq", field: "n", value: "1.5" },
  { op: "gt", field: "doc", value: 1 },
  { op: "eq", field: "tags", value: "a" },
  { op: "eq", field: "day", value: "2020-02-30" },
  { op: "in", field: "ok", values: ["maybe"] },
  { op: "eq", field: "nope", value: 1 },
];

let db: TestDb;
let r: PgResource;
let sqlite: DatastoreEngine;

beforeAll(async () => {
  db = await testDb();
  r = await makeResource(db.pool, FIELDS, RECORDS);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pg-where-")), "where.db");
  sqlite = await openEngine({ file, readWorkers: 0 });
  await sqlite.createResource({ id: "w", name: "w", description: "", private: false }, FIELDS);
  await sqlite.write("w", RECORDS, "insert");
});
afterAll(async () => {
  await sqlite?.close();
  await db?.close();
});

const query = (filters: Filter[]): SearchQuery => ({
  filters,
  fts: [],
  columns: ["_id"],
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit: 100,
  offset: 0,
  includeTotal: false,
});

async function sqliteIds(filters: Filter[]): Promise<number[]> {
  const out = await sqlite.search((await sqlite.getResource("w"))!, query(filters));
  return out.rows.map((row) => row[0] as number);
}

async function pgIds(filters: Filter[]): Promise<number[]> {
  const params: unknown[] = [];
  const cond = whereSql(r, filters, params);
  const { rows } = await db.pool.query<{ _id: number }>(`SELECT t._id FROM ${q(r.table)} AS t WHERE ${cond} ORDER BY t._id`, params);
  return rows.map((row) => row._id);
}

describe("filters: the rows SQLite matches", () => {
  for (const f of FILTERS) {
    it(JSON.stringify(f), async () => {
      expect(await pgIds([f])).toEqual(await sqliteIds([f]));
    });
  }

  it("several filters AND together", async () => {
    const fs = [FILTERS[6], FILTERS[20]];
    expect(await pgIds(fs)).toEqual(await sqliteIds(fs));
  });

  for (const f of REFUSED) {
    it(`refuses ${JSON.stringify(f)}`, async () => {
      await expect(sqliteIds([f])).rejects.toThrow();
      await expect(pgIds([f])).rejects.toThrow();
    });
  }
});
