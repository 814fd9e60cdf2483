// Indexes learned from slow reads on PostgreSQL (learned-indexes.ts), against a real server: the
// rule's three slow reads earn an index, built CONCURRENTLY so writes go on while it builds,
// once when two app servers earn it together, within the size budget, and kept right when
// declared indexes, fields or the table change. Each run works in a schema of its own.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { bulkInsert } from "../../test/bulk-insert";
import { describeIndexes } from "../actions/datastore-info";
import type { SearchQuery } from "../engine";
import type { LearnEvent, LearnSettings } from "../index-learning-rule";
import { openPostgresEngine, type PostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_learn_${randomBytes(4).toString("hex")}`;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: false };
const sortedOn = (field: string): SearchQuery => ({ ...base, sort: [{ field, desc: true, nullsFirst: true }] });
// Every read counts as slow; settings are read as reads finish, so a test may change them.
const learning: { -readonly [K in keyof LearnSettings]: LearnSettings[K] } = {
  adaptiveIndexes: true,
  adaptiveSlowMs: 0,
  adaptiveReads: 3,
  adaptiveMaxIndexes: 3,
  adaptiveMaxSizePercent: 100,
};

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!url)("indexes learned from slow reads, on PostgreSQL", () => {
  let A: PostgresEngine;
  let B: PostgresEngine;
  let raw: pg.Pool;

  const open = () => openPostgresEngine({ url: url!, schema, poolSize: 4, limits: config, learning });
  const resource = async (id: string, on = A) => (await on.getResource(id))!;
  const event = (on: PostgresEngine, field: string) => until<LearnEvent>(`a learn event on ${field}`, () => on.learnEvents().find((e) => e.field === field));
  const readsSorted = async (on: PostgresEngine, id: string, field: string, times = 3) => {
    for (let i = 0; i < times; i++) await on.search(await resource(id, on), sortedOn(field));
  };
  const tableOf = async (id: string) => (await raw.query(`SELECT table_name FROM "${schema}".datastore_resources WHERE id = $1`, [id])).rows[0].table_name as string;
  const learnedIndexNames = async (id: string) =>
    (await raw.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE '%\\_lx\\_%' ORDER BY 1`, [schema, await tableOf(id)])).rows.map(
      (r) => r.indexname as string,
    );

  async function makeResource(id: string, rows: number): Promise<void> {
    await A.createResource({ id, name: id, description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "m", type: "int4" },
      { id: "word", type: "text" },
    ]);
    const words = ["alpha", "beta", "gamma", "delta", "epsilon"];
    await bulkInsert(A, id, Array.from({ length: rows }, (_, i) => ({ n: (i * 7919) % rows, m: i % 1000, word: words[i % 5] })));
  }

  beforeAll(async () => {
    A = await open();
    B = await open(); // a second app server on the same schema
    raw = new pg.Pool({ connectionString: url, max: 3 });
    await makeResource("big", 20_000);
  }, 60_000);

  afterAll(async () => {
    await A?.close();
    await B?.close();
    await raw?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw?.end();
  });

  it("builds an index after three slow reads sorting on a field, and datastore_info says it was learned", async () => {
    const versionBefore = (await raw.query(`SELECT version FROM "${schema}".datastore_resources WHERE id = 'big'`)).rows[0].version;
    await readsSorted(A, "big", "n", 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(A.learnEvents()).toEqual([]);
    await readsSorted(A, "big", "n", 1);
    expect(await event(A, "n")).toMatchObject({ resourceId: "big", outcome: "built" });
    const learned = (await resource("big")).learnedIndexes!;
    expect(learned).toEqual([{ fields: ["n"], created: expect.any(String), reads: 3, buildMs: expect.any(Number), bytes: expect.any(Number) }]);
    expect(learned[0].bytes).toBeGreaterThan(0);
    expect(describeIndexes(await resource("big"))).toEqual([
      { fields: ["n"], reason: "learned", learned: { created: learned[0].created, slow_reads: 3, build_ms: learned[0].buildMs, size: learned[0].bytes } },
    ]);
    const table = await tableOf("big");
    expect(await learnedIndexNames("big")).toEqual([`${table}_lx_c1`]);
    // The catalog row's version went up: every app server's copy learns of the index.
    expect(Number((await raw.query(`SELECT version FROM "${schema}".datastore_resources WHERE id = 'big'`)).rows[0].version)).toBeGreaterThan(Number(versionBefore));
    const plan = await raw.query(`EXPLAIN SELECT * FROM "${schema}"."${table}" ORDER BY c1 DESC LIMIT 10`);
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join(" ")).toContain(`${table}_lx_c1`);
    expect((await A.search(await resource("big"), sortedOn("n"))).rows[0]).toEqual([expect.any(Number), 19_999]);
    // An indexed field gathers no more evidence, on either server.
    await readsSorted(A, "big", "n");
    await readsSorted(B, "big", "n");
    await new Promise((r) => setTimeout(r, 100));
    expect([A.learnEvents().length, B.learnEvents().length]).toEqual([1, 0]);
  });

  it("builds without stopping writes, and once when two app servers earn the same index", async () => {
    // A transaction that wrote to the table and stays open: CREATE INDEX CONCURRENTLY waits for
    // it before building (a plain CREATE INDEX would block every write meanwhile).
    const holder = await raw.connect();
    const table = await tableOf("big");
    try {
      await holder.query(`BEGIN; INSERT INTO "${schema}"."${table}" (c1, c2, c3) VALUES (-1, -1, 'held')`);
      await readsSorted(A, "big", "m");
      await until("the build to start", async () => (await raw.query("SELECT 1 FROM pg_stat_progress_create_index WHERE relid = to_regclass($1)", [`"${schema}"."${table}"`])).rowCount);
      // Writes to the same table go on while the index is being built.
      const t0 = performance.now();
      await A.write("big", [{ n: 20_000, m: 5, word: "during" }], "insert");
      await B.write("big", [{ n: 20_001, m: 6, word: "during" }], "insert");
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(A.learnEvents().filter((e) => e.field === "m")).toEqual([]); // still building
      // The other server earns the same index meanwhile: it sees the build and leaves it.
      await readsSorted(B, "big", "m");
      expect(await event(B, "m")).toMatchObject({ outcome: "refused", detail: "another app server is building it" });
    } finally {
      await holder.query("COMMIT");
      holder.release();
    }
    expect(await event(A, "m")).toMatchObject({ outcome: "built" });
    expect((await resource("big", B)).learnedIndexes!.map((ix) => ix.fields)).toEqual([["n"], ["m"]]);
    expect(await learnedIndexNames("big")).toEqual([`${table}_lx_c1`, `${table}_lx_c2`]);
    const valid = await raw.query(`SELECT bool_and(indisvalid) AS ok FROM pg_index WHERE indrelid = to_regclass($1)`, [`"${schema}"."${table}"`]);
    expect(valid.rows[0].ok).toBe(true);
    expect((await A.getResource("big"))!.rowCount).toBe(20_002);
  });

  it("refuses an index past the learned indexes' share of the table's size, and the most a resource may have", async () => {
    await makeResource("budget", 12_000);
    learning.adaptiveMaxSizePercent = 5;
    try {
      await readsSorted(A, "budget", "n");
      const refused = await until("the budget's verdict", () => A.learnEvents().find((e) => e.resourceId === "budget"));
      expect(refused).toMatchObject({ field: "n", outcome: "refused", detail: expect.stringMatching(/over 5% of the table/) });
      expect(await learnedIndexNames("budget")).toEqual([]);
    } finally {
      learning.adaptiveMaxSizePercent = 100;
    }
    learning.adaptiveMaxIndexes = 2; // "big" has two
    try {
      const before = A.learnEvents().length;
      await readsSorted(A, "big", "word");
      await new Promise((r) => setTimeout(r, 200));
      expect(A.learnEvents()).toHaveLength(before);
    } finally {
      learning.adaptiveMaxIndexes = 3;
    }
  });

  it("drops an index a failed build left invalid, and builds it again", async () => {
    await makeResource("leftover", 12_000);
    const table = await tableOf("leftover");
    // A unique build over repeating values fails, and leaves its index behind, invalid.
    await expect(raw.query(`CREATE UNIQUE INDEX CONCURRENTLY "${table}_lx_c2" ON "${schema}"."${table}" (c2)`)).rejects.toThrow(/could not create unique index/);
    await readsSorted(A, "leftover", "m");
    await until("the leftover's rebuild", () => A.learnEvents().find((e) => e.resourceId === "leftover"));
    expect(A.learnEvents().find((e) => e.resourceId === "leftover")).toMatchObject({ field: "m", outcome: "built" });
    const ix = await raw.query(`SELECT indisvalid, indisunique FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${schema}"."${table}_lx_c2"`]);
    expect(ix.rows).toEqual([{ indisvalid: true, indisunique: false }]);
  });

  it("gives way to a declared index on the same field, goes with a dropped field, and is forgotten with the table", async () => {
    const table = await tableOf("big");
    await A.setIndexes("big", [["n", "m"]]);
    expect(describeIndexes(await resource("big"))).toEqual([
      { fields: ["n", "m"], reason: "declared" },
      { fields: ["m"], reason: "learned", learned: expect.any(Object) },
    ]);
    expect(await learnedIndexNames("big")).toEqual([`${table}_lx_c2`]);
    await A.alterFields("big", [], [], ["m"]);
    expect((await resource("big")).learnedIndexes).toEqual([]);
    expect(await learnedIndexNames("big")).toEqual([]);
    await readsSorted(A, "leftover", "word");
    await until("a third learned index", () => A.learnEvents().find((e) => e.resourceId === "leftover" && e.field === "word"));
    await A.dropTable("leftover");
    expect((await resource("leftover")).learnedIndexes).toEqual([]);
  });

  it("cancels a build that waits when its app server closes, and another builds it later", async () => {
    const C = await open();
    const holder = await raw.connect();
    const table = await tableOf("budget");
    try {
      await holder.query(`BEGIN; INSERT INTO "${schema}"."${table}" (c1) VALUES (-1)`);
      await readsSorted(C, "budget", "word");
      await until("the build to start", async () => (await raw.query("SELECT 1 FROM pg_stat_progress_create_index WHERE relid = to_regclass($1)", [`"${schema}"."${table}"`])).rowCount);
      const t0 = performance.now();
      await C.close();
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(C.learnEvents()).toMatchObject([{ field: "word", outcome: "failed", detail: expect.stringMatching(/cancel/) }]);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
    await readsSorted(A, "budget", "word");
    expect(await until("the build on another server", () => A.learnEvents().find((e) => e.resourceId === "budget" && e.field === "word"))).toMatchObject({ outcome: "built" });
    const valid = await raw.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${schema}"."${table}_lx_c3"`]);
    expect(valid.rows).toEqual([{ indisvalid: true }]);
  });

  it("learns nothing from a small table, or when DATASTORE_ADAPTIVE_INDEXES is off", async () => {
    await makeResource("tiny", 9_999);
    const before = A.learnEvents().length;
    await readsSorted(A, "tiny", "n", 5);
    learning.adaptiveIndexes = false;
    try {
      expect(A.learnsIndexes).toBe(false);
      await readsSorted(A, "budget", "m", 5);
    } finally {
      learning.adaptiveIndexes = true;
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(A.learnEvents()).toHaveLength(before);
  });
});
