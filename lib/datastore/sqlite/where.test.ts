// Filter trees as SQL (columns have internal names, so plans name them c0, c1…): ranges, OR groups and keyset pages are answered from an index when one
// exists (checked with SQLite's own EXPLAIN QUERY PLAN), and counts under them stay exact.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { Filter, SearchQuery } from "../engine";
import { openEngine } from "../open";
import type { SqliteEngine } from "./engine";
import * as catalog from "./catalog";
import { openReader } from "./connection";
import { attachFor } from "./groups";
import { idOrderPage } from "./id-scan";
import { planSearch } from "./read-plan";

/** The `_id`s of rows whose delay (i * 37 % 500 for row i + 1) is within [lo, hi]. */
function expectedIds(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 20_000; i++) if ((i * 37) % 500 >= lo && (i * 37) % 500 <= hi) out.push(i + 1);
  return out;
}

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
    const reader = openReader(file, config); // registers the functions the statements call
    attachFor(reader, ["f"]); // the resource's group file (groups.ts)
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

  it("a page in _id order walks the table under a dense filter, reads the index under a sparse one", async () => {
    const reader = openReader(file, config);
    try {
      const r = catalog.mustGet(reader, "f");
      const page = (filters: Filter[]) => reader.db.transaction(() => idOrderPage(reader, r, planSearch(reader, r, { ...base, filters }), { ...base, filters }))();
      // sqrt(10 × 20,000) ≈ 448: more matches than that, and a walk meets 10 sooner than a sort.
      const forty: Filter = { op: "and", of: [{ op: "gte", field: "delay", value: 60 }, { op: "lte", field: "delay", value: 99 }] };
      const row = (id: number) => [id, ((id - 1) * 37) % 500];
      expect(page([forty])).toEqual({ total: 1600, rows: expectedIds(60, 99).slice(0, 10).map(row) });
      const sparse = page([{ op: "gte", field: "delay", value: 499 }]);
      expect(sparse).toEqual({ total: 40, rows: expectedIds(499, 499).slice(0, 10).map(row) });
      // A next_page walk's bound: the page starts past it; its total is another count.
      const after = expectedIds(60, 99)[500];
      expect(page([forty, { op: "gt", field: "_id", value: after }])).toEqual({ total: null, rows: expectedIds(60, 99).slice(501, 511).map(row) });
      // Not answered by an index alone: the engine's usual plan.
      expect(page([{ op: "eq", field: "origin", value: "SEA" }])).toBeNull();
    } finally {
      reader.db.close();
    }
  });

  it("answers the same rows by either plan, matches bunched late in the table too", async () => {
    const r = (await engine.getResource("f"))!;
    for (const [lo, hi] of [[60, 120], [60, 99], [0, 499], [499, 499], [10, 11]]) {
      const filters: Filter[] = [{ op: "and", of: [{ op: "gte", field: "delay", value: lo }, { op: "lte", field: "delay", value: hi }] }];
      for (const offset of [0, 37]) {
        const out = await engine.search(r, { ...base, filters, offset, limit: 25 });
        expect(out.rows.map((row) => row[0])).toEqual(expectedIds(lo, hi).slice(offset, offset + 25));
        expect(out.total).toBe(expectedIds(lo, hi).length);
      }
    }
    await engine.createResource({ id: "late", name: "late", description: "", private: false }, [{ id: "v", type: "int4" }]);
    await engine.write("late", Array.from({ length: 40_000 }, (_, i) => ({ v: i < 30_000 ? 0 : 1 + (i % 3) })), "insert");
    await engine.setIndexes("late", [["v"]]);
    await engine.analyze();
    const late = (await engine.getResource("late"))!;
    const out = await engine.search(late, { ...base, columns: ["_id"], filters: [{ op: "gte", field: "v", value: 1 }], limit: 5 });
    expect(out.rows).toEqual([[30_001], [30_002], [30_003], [30_004], [30_005]]);
    expect(out.total).toBe(10_000);
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
