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

describe("the full-text index stays in step with every write", () => {
  it("passes FTS5's integrity check against the table after inserts, updates, upserts and deletes", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-")), "e.db");
    const engine = new SqliteEngine(openDatabase(file));
    engine.createResource({ id: "b", name: "b", description: "", private: false }, [
      { id: "title", type: "text" },
      { id: "year", type: "int4" },
      { id: "ok", type: "bool" },
      { id: "tags", type: "_text" },
    ]);
    engine.setPrimaryKey("b", ["title"]);
    engine.write("b", [{ title: "War and Peace", year: 1869, ok: true, tags: ["russian"] }, { title: "Emma", year: 1815, ok: false }], "insert");
    engine.write("b", [{ title: "Emma", year: 1816, tags: ["english", "classic"] }, { title: "Ulysses", year: 1922 }], "upsert");
    engine.write("b", [{ _id: 1, ok: null }], "update");
    engine.deleteRows("b", [{ field: "year", values: [1922] }]);
    const r = engine.getResource("b")!;
    const fts = `${engine.db.prepare("SELECT table_name FROM datastore_resources WHERE id = 'b'").pluck().get()}_fts`;
    expect(() => engine.db.prepare(`INSERT INTO "${fts}" ("${fts}", rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
    const q = (word: string) =>
      engine.searchNow(r, { ...base, columns: ["_id"], fts: [{ field: null, tree: { op: "term", word, prefix: false }, rank: "rank" }] }).rows.flat();
    expect(q("classic")).toEqual([2]);
    expect(q("1815")).toEqual([]);
    expect(q("1816")).toEqual([2]);
    expect(q("ulysses")).toEqual([]);
    engine.alterFields("b", [{ id: "note", type: "text" }], [], ["tags"]);
    engine.write("b", [{ title: "Dubliners", note: "stories" }], "insert");
    expect(q("stories")).toEqual([3 + 1]);
    expect(q("classic")).toEqual([]);
    engine.deleteRows("b", []);
    expect(q("war")).toEqual([]);
    expect(() => engine.db.prepare(`INSERT INTO "${fts}" ("${fts}", rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
  });
});
