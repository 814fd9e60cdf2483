import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connection";
import type { SearchQuery, SortClause } from "../engine";
import { SqliteEngine } from "./engine";

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [], distinct: false, limit: 3, offset: 0, includeTotal: true };
const asc = (field: string): SortClause => ({ field, desc: false, nullsFirst: false });
const desc = (field: string): SortClause => ({ field, desc: true, nullsFirst: true });

describe("SQLite engine query plans keep PostgreSQL's answers", () => {
  let engine: SqliteEngine;

  beforeEach(() => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-")), "e.db");
    engine = new SqliteEngine(openDatabase(file));
    engine.createResource({ id: "r", name: "r", description: "", private: false }, [{ id: "n", type: "int4" }]);
    engine.write("r", [5, 3, 9, 1, 7].map((n) => ({ n })), "insert");
    engine.setIndexes("r", [["n"]]);
  });

  const values = (query: SearchQuery) => engine.searchNow(engine.getResource("r")!, query).rows.map((row) => row[1]);

  it("sorts an indexed column without NULLs in both directions", () => {
    expect(values({ ...base, sort: [asc("n")] })).toEqual([1, 3, 5]);
    expect(values({ ...base, sort: [desc("n")] })).toEqual([9, 7, 5]);
  });

  it("still puts NULLs last ascending and first descending once the column holds one", () => {
    engine.write("r", [{ n: null }], "insert");
    expect(values({ ...base, sort: [asc("n")], limit: 10 })).toEqual([1, 3, 5, 7, 9, null]);
    expect(values({ ...base, sort: [desc("n")] })).toEqual([null, 9, 7]);
    expect(values({ ...base, sort: [{ field: "n", desc: false, nullsFirst: true }] })).toEqual([null, 1, 3]);
  });

  it("pages deep by _id the same whether _ids are dense or have gaps", () => {
    expect(values({ ...base, offset: 2 })).toEqual([9, 1, 7]);
    engine.deleteRows("r", [{ field: "n", values: [3] }]);
    expect(values({ ...base, offset: 2 })).toEqual([1, 7]);
    expect(engine.searchNow(engine.getResource("r")!, { ...base, offset: 2 }).total).toBe(4);
  });
});
