// Filter trees as SQL (columns have internal names, so plans name them c0, c1…): ranges, OR groups and keyset pages are answered from an index when one
// exists (checked with SQLite's own EXPLAIN QUERY PLAN), and counts under them stay exact.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Filter, SearchQuery } from "../engine";
import { openEngine } from "../open";
import type { SqliteEngine } from "./engine";
import { openReader } from "./connection";

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "delay"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 10, offset: 0, includeTotal: true };

describe("filters use indexes", () => {
  let file: string;
  let engine: SqliteEngine;

  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "where-")), "where.db");
    engine = (await openEngine({ file, readWorkers: 0 })) as SqliteEngine;
    await engine.createResource({ id: "f", name: "f", description: "", private: false }, [
      { id: "delay", type: "int4" },
      { id: "day", type: "date" },
      { id: "origin", type: "text" },
    ]);
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ delay: (i * 37) % 500, day: `2001-0${1 + (i % 9)}-1${i % 10}`, origin: ["SEA", "PDX", "LAX"][i % 3] }));
    await engine.write("f", rows, "insert");
    await engine.setIndexes("f", [["delay"], ["day"]]);
    await engine.analyze();
  });

  afterAll(() => engine.close());

  async function plan(filters: Filter[], sort = base.sort): Promise<{ page: string; count: string | undefined }> {
    const r = (await engine.getResource("f"))!;
    const [page, count] = engine.searchStatements(r, { ...base, filters, sort });
    const reader = openReader(file); // registers the functions the statements call
    try {
      const explain = (s: { sql: string; params: unknown[] }) =>
        (reader.db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).map((x) => x.detail).join("; ");
      return { page: explain(page), count: count && explain(count) };
    } finally {
      reader.db.close();
    }
  }

  const range: Filter = {
    op: "and",
    of: [
      { op: "gte", field: "delay", value: 60 },
      { op: "lte", field: "delay", value: 120 },
    ],
  };

  it("a range on an indexed field searches its index, for the page and the count", async () => {
    const p = await plan([range], [{ field: "delay", desc: false, nullsFirst: false }]);
    expect(p.page).toMatch(/USING (COVERING )?INDEX \S+ \(\S+>\? AND \S+<\?\)/);
    expect(p.count).toMatch(/USING (COVERING )?INDEX \S+ \(\S+>\? AND \S+<\?\)/);
  });

  it("a date range too, from a date given as text", async () => {
    const p = await plan([{ op: "gt", field: "day", value: "2001-05-01" }], [{ field: "day", desc: false, nullsFirst: false }]);
    expect(p.page).toMatch(/INDEX \S+ \(\S+>\?\)/);
  });

  it("a keyset page seeks by _id", async () => {
    const p = await plan([{ op: "gt", field: "_id", value: 15_000 }]);
    expect(p.page).toMatch(/USING INTEGER PRIMARY KEY \(rowid>\?\)/);
  });

  it("an OR of ranges on indexed fields uses both indexes", async () => {
    const p = await plan([{ op: "or", of: [range, { op: "lt", field: "day", value: "2001-02-01" }] }], []);
    expect(p.count).toMatch(/MULTI-INDEX OR/);
  });

  it("answers exact totals and the right rows", async () => {
    const r = (await engine.getResource("f"))!;
    const out = await engine.search(r, { ...base, filters: [range], limit: 5000 });
    expect(out.total).toBe(out.rows.length);
    expect(out.totalEstimated).toBe(false);
    expect(out.rows.every(([, d]) => (d as number) >= 60 && (d as number) <= 120)).toBe(true);
    expect(out.rows.length).toBe(20_000 / 500 * 61);
  });
});
