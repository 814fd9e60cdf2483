import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeIndexes } from "../actions/datastore-info";
import { bulkInsert } from "../../test/bulk-insert";
import type { Resource, SearchQuery } from "../engine";
import { openEngine } from "../open";
import type { SqliteEngine } from "./engine";
import { everySchema, integrityCheck, withRawDb } from "./test-support";

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: false };
const byN: SearchQuery = { ...base, sort: [{ field: "n", desc: true, nullsFirst: true }] };
const ENV = ["DATASTORE_ADAPTIVE_INDEXES", "DATASTORE_ADAPTIVE_SLOW_MS", "DATASTORE_ADAPTIVE_READS", "DATASTORE_ADAPTIVE_MAX_INDEXES", "DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT"];

function tempFile(name: string): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "learn-")), name);
}

function indexNames(file: string, table: string): string[] {
  return withRawDb(file, (db) => db.prepare(`SELECT name FROM ${everySchema(db)} WHERE type = 'index' AND tbl_name = ? ORDER BY name`).pluck().all(table) as string[]);
}

function tableOf(file: string, id: string): string {
  return withRawDb(file, (db) => db.prepare("SELECT table_name FROM datastore_resources WHERE id = ?").pluck().get(id) as string);
}

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function makeResource(engine: SqliteEngine, id: string, rows: number): Promise<Resource> {
  await engine.createResource({ id, name: id, description: "", private: false }, [
    { id: "n", type: "int4" },
    { id: "m", type: "int4" },
    { id: "word", type: "text" },
    { id: "tags", type: "_text" },
  ]);
  const words = ["alpha", "beta", "gamma", "delta", "epsilon"];
  await bulkInsert(engine, id, Array.from({ length: rows }, (_, i) => ({ n: (i * 7919) % rows, m: i % 1000, word: words[i % 5], tags: [words[i % 3]] })));
  return (await engine.getResource(id))!;
}

describe("indexes learned from slow reads", () => {
  let file: string;
  let engine: SqliteEngine;
  let r: Resource;
  const resource = async (id = r.id) => (await engine.getResource(id))!;
  const settled = (count: number) => until(`learn event ${count}`, () => engine.learnEvents()[count - 1]);

  beforeAll(async () => {
    process.env.DATASTORE_ADAPTIVE_SLOW_MS = "0"; // every read counts as slow
    process.env.DATASTORE_ADAPTIVE_READS = "3";
    process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT = "100";
    process.env.DATASTORE_ADAPTIVE_MAX_INDEXES = "2";
    file = tempFile("learn.db");
    engine = (await openEngine({ file, readWorkers: 1 })) as SqliteEngine;
    r = await makeResource(engine, "big", 50_000);
  }, 60_000);

  afterAll(async () => {
    for (const k of ENV) delete process.env[k];
    await engine.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("builds an index after three slow reads sorting on a field, and datastore_info says it was learned", async () => {
    await engine.search(await resource(), byN);
    await engine.search(await resource(), byN);
    await new Promise((res) => setTimeout(res, 100));
    expect(engine.learnEvents()).toEqual([]);
    expect((await resource()).learnedIndexes).toEqual([]);

    await engine.search(await resource(), byN);
    const event = await settled(1);
    expect(event).toMatchObject({ resourceId: "big", field: "n", outcome: "built" });
    const learned = (await resource()).learnedIndexes!;
    expect(learned).toEqual([{ fields: ["n"], created: expect.any(String), reads: 3, buildMs: expect.any(Number), bytes: expect.any(Number) }]);
    expect(learned[0].bytes).toBeGreaterThan(0);
    expect(describeIndexes(await resource())).toEqual([
      { fields: ["n"], reason: "learned", learned: { created: learned[0].created, slow_reads: 3, build_ms: learned[0].buildMs, size: learned[0].bytes } },
    ]);
    const table = tableOf(file, "big");
    expect(indexNames(file, table)).toContain(`${table}_lx_c1`);
    // The sort reads the new index, on the read workers too.
    const plan = withRawDb(file, (db) => db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM "${table}" ORDER BY c1 DESC LIMIT 10`).all() as { detail: string }[]);
    expect(plan.map((p) => p.detail).join(" ")).toContain(`${table}_lx_c1`);
    const page = await engine.search(await resource(), byN);
    expect(page.rows[0]).toEqual([expect.any(Number), 49_999]);
    // An indexed field gathers no more evidence.
    for (let i = 0; i < 3; i++) await engine.search(await resource(), byN);
    await new Promise((res) => setTimeout(res, 100));
    expect(engine.learnEvents()).toHaveLength(1);
  });

  it("learns from filters too, and stops at the most learned indexes a resource may have", async () => {
    const byWord: SearchQuery = { ...base, filters: [{ op: "eq", field: "word", value: "beta" }], includeTotal: true };
    for (let i = 0; i < 3; i++) await engine.valueCounts(await resource(), "m", byWord, 5);
    expect(await settled(2)).toMatchObject({ field: "word", outcome: "built" });
    expect((await resource()).learnedIndexes!.map((ix) => ix.fields)).toEqual([["n"], ["word"]]);
    // Two is the most (DATASTORE_ADAPTIVE_MAX_INDEXES): m is never tried.
    const byM: SearchQuery = { ...base, sort: [{ field: "m", desc: false, nullsFirst: false }] };
    for (let i = 0; i < 4; i++) await engine.search(await resource(), byM);
    await new Promise((res) => setTimeout(res, 200));
    expect(engine.learnEvents()).toHaveLength(2);
    expect(indexNames(file, tableOf(file, "big")).filter((n) => n.includes("_lx_"))).toHaveLength(2);
  });

  it("refuses an index that would take learned indexes past their share of the table's size", async () => {
    process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT = "5";
    try {
      const small = await makeResource(engine, "budget", 20_000);
      for (let i = 0; i < 3; i++) await engine.search((await resource(small.id))!, byN);
      const event = await settled(3);
      expect(event).toMatchObject({ resourceId: "budget", field: "n", outcome: "refused" });
      expect(event.detail).toMatch(/over 5% of the table/);
      expect(event.lockMs).toBeUndefined(); // refused before taking the write lock
      expect((await resource(small.id)).learnedIndexes).toEqual([]);
      expect(indexNames(file, tableOf(file, "budget"))).toEqual([]);
    } finally {
      process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT = "100";
    }
  });

  it("gives way to a declared index on the same field, and goes with a dropped field", async () => {
    const table = tableOf(file, "big");
    await engine.setIndexes("big", [["n", "m"]]);
    expect(describeIndexes(await resource())).toEqual([
      { fields: ["n", "m"], reason: "declared" },
      { fields: ["word"], reason: "learned", learned: expect.any(Object) },
    ]);
    expect(indexNames(file, table)).toEqual([`${table}_ix_c1_c2`, `${table}_lx_c3`]);
    // SQLite drops no column an index uses: the learned index goes first.
    await engine.alterFields("big", [], [], ["word"]);
    expect((await resource()).learnedIndexes).toEqual([]);
    expect(indexNames(file, table)).toEqual([`${table}_ix_c1_c2`]);
    // The import rule's picks are told apart from declared indexes.
    await engine.setIndexes("big", [["n"], ["m"]], [["m"]]);
    expect(describeIndexes(await resource())).toEqual([
      { fields: ["n"], reason: "declared" },
      { fields: ["m"], reason: "import" },
    ]);
    await engine.dropTable("big");
    const dropped = (await engine.getResource("big"))!;
    expect([dropped.indexes, dropped.importIndexes, dropped.learnedIndexes]).toEqual([[], [], []]);
  });

  it("learns nothing from a small table, where a scan is fast anyway", async () => {
    const small = await makeResource(engine, "tiny", 9_999);
    const before = engine.learnEvents().length;
    for (let i = 0; i < 5; i++) await engine.search((await resource(small.id))!, byN);
    await new Promise((res) => setTimeout(res, 200));
    expect(engine.learnEvents()).toHaveLength(before);
  });

  it("learns nothing when DATASTORE_ADAPTIVE_INDEXES=0", async () => {
    process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
    try {
      const off = await makeResource(engine, "off", 20_000);
      const before = engine.learnEvents().length;
      for (let i = 0; i < 5; i++) await engine.search((await resource(off.id))!, byN);
      await new Promise((res) => setTimeout(res, 200));
      expect(engine.learnEvents()).toHaveLength(before);
      expect((await resource(off.id)).learnedIndexes).toEqual([]);
    } finally {
      delete process.env.DATASTORE_ADAPTIVE_INDEXES;
    }
  });
});

describe("reads and writes while a learned index is built", () => {
  let file: string;
  let engine: SqliteEngine;

  beforeAll(async () => {
    process.env.DATASTORE_ADAPTIVE_SLOW_MS = "0";
    process.env.DATASTORE_ADAPTIVE_READS = "3";
    process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT = "100";
    file = tempFile("busy.db");
    engine = (await openEngine({ file, readWorkers: 2 })) as SqliteEngine;
    await makeResource(engine, "big", 600_000);
    await engine.createResource({ id: "small", name: "small", description: "", private: false }, [{ id: "k", type: "int4" }, { id: "v", type: "text" }]);
    await engine.setPrimaryKey("small", ["k"]);
  }, 120_000);

  afterAll(async () => {
    for (const k of ENV) delete process.env[k];
    await engine.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("fails none of them: writes wait for the build, then succeed; reads go on", async () => {
    const errors: unknown[] = [];
    const writeMs: number[] = [];
    const readMs: number[] = [];
    let writes = 0;
    let reads = 0;
    let stop = false;
    const writer = async () => {
      for (let i = 0; !stop; i++) {
        const t = performance.now();
        try {
          if (i % 10 === 9) await engine.transaction(async (tx) => tx.write("small", [{ k: i % 50, v: `t${i}` }], "upsert"));
          else await engine.write("small", [{ k: i % 50, v: `v${i}` }], "upsert");
          writes++;
        } catch (e) {
          errors.push(e);
        }
        writeMs.push(performance.now() - t);
        await new Promise((res) => setTimeout(res, 2));
      }
    };
    const reader = async (query: SearchQuery) => {
      while (!stop) {
        const t = performance.now();
        try {
          const r = (await engine.getResource("big"))!;
          const page = await engine.search(r, query);
          if (page.rows.length === 0) throw new Error("empty page");
          reads++;
        } catch (e) {
          errors.push(e);
        }
        readMs.push(performance.now() - t);
      }
    };
    const loops = [
      writer(),
      reader(byN), // these reads earn the index
      reader({ ...base, filters: [{ op: "eq", field: "word", value: "gamma" }], includeTotal: true }),
      reader({ ...base, includeTotal: true }),
    ];
    const event = await until("the build", () => engine.learnEvents().find((e) => e.field === "n"), 60_000);
    const writesAtBuild = writes;
    await new Promise((res) => setTimeout(res, 300));
    stop = true;
    await Promise.all(loops);

    expect(errors).toEqual([]);
    expect(event.outcome).toBe("built");
    expect(writes).toBeGreaterThan(writesAtBuild); // writes queued behind the build went through
    expect(reads).toBeGreaterThan(0);
    const longestWrite = Math.max(...writeMs);
    // A write waits at most for the build's hold on the write lock (plus one write of its own).
    expect(longestWrite).toBeLessThan(event.lockMs! + 1_000);
    console.info(
      `learned index on 600,000 rows: lock held ${event.lockMs} ms (${event.detail}); longest write ${longestWrite.toFixed(0)} ms over ${writes} writes; longest read ${Math.max(...readMs).toFixed(0)} ms over ${reads} reads`,
    );
    expect((await engine.getResource("small"))!.rowCount).toBe(50);
    expect(integrityCheck(file)).toBe("ok");
  });
});
