// The read pool: reads judged cheap or expensive from PostgreSQL's plan and run in their lane;
// a replica serves reads once it has the resource's version; dumps stream in chunks; a count
// past its budget is estimated only when the client allows it.
import { toSpec } from "../aggregate-test-support";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { PgReads } from "./read-pool";
import { makeBigResource, makeResource, testDb, type TestDb } from "./reads-test-support";
import { quoteIdent as q, type PgResource } from "./resource";
import { pgTypes } from "./values";

let db: TestDb;
let small: PgResource;
let big: PgResource;
/** A second pool on the same schema, standing in for a replica: what makes it one here is the
 *  version its datastore_resources row holds. */
let replica: pg.Pool;

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 10, offset: 0, includeTotal: true };

beforeAll(async () => {
  db = await testDb();
  small = await makeResource(db.pool, [{ id: "n", type: "int4" }], Array.from({ length: 50 }, (_, i) => ({ n: i % 7 })));
  big = await makeBigResource(db.pool, 60_000);
  await db.pool.query("CREATE TABLE datastore_resources (id text PRIMARY KEY, version bigint NOT NULL)");
  replica = new pg.Pool({ connectionString: process.env.DATASTORE_DATABASE_URL, types: pgTypes, options: `-c search_path=${q(db.schema)}`, max: 2 });
});
afterAll(async () => {
  await replica?.end();
  await db?.close();
});

describe("lanes", () => {
  it("a small table's page is cheap; a big page or a scan of a big table is expensive", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    await reads.search(small, base, "a");
    await reads.search(big, base, "a");
    expect(reads.answered).toEqual({ cheap: 2, expensive: 0 });
    await reads.search(big, { ...base, limit: 5000 }, "a");
    await reads.search(big, { ...base, sort: [{ field: "name", desc: true, nullsFirst: true }] }, "a");
    await reads.search(big, { ...base, filters: [{ op: "eq", field: "name", value: "name 7" }] }, "a");
    expect(reads.answered).toEqual({ cheap: 2, expensive: 3 });
  });

  it("expensive reads run at most expensiveLimit at once, cheap ones meanwhile", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const scans = ["a", "a", "b"].map((client, i) => reads.histogram(big, "n", { ...base, filters: [{ op: "gt", field: "n", value: i }] }, 10, client));
    const cheap = await reads.search(small, base, "c");
    expect(cheap.rows).toHaveLength(10);
    const done = await Promise.all(scans);
    expect(done.every((h) => h.bins.length > 0)).toBe(true);
    expect(reads.answered).toEqual({ cheap: 1, expensive: 3 });
  });

  it("the same answers through the pool as on one connection", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 2, limits: config });
    const out = await reads.search(big, { ...base, filters: [{ op: "in", field: "n", values: [3, 4] }], limit: 3 }, "");
    expect(out).toEqual({ rows: [[4, 3], [5, 4], [1004, 3]], total: 120, totalEstimated: false });
    const counts = await reads.valueCounts(small, "n", base, 2, "");
    expect(counts).toEqual({ values: [{ value: 0, count: 8 }, { value: 1, count: 7 }], partial: false });
    const stats = await reads.stats(big, "");
    expect(stats.size).toBeGreaterThan(0);
    expect(stats.dbSize).toBeGreaterThan(stats.size);
  });
});

describe("the query time limit", () => {
  it("a read past it fails with statement_timeout's SQLSTATE, and the next reads run", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const slow: SearchQuery = { ...base, sort: [{ field: "name", desc: false, nullsFirst: false }, { field: "day", desc: true, nullsFirst: true }], offset: 50_000 };
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "1";
    let err: unknown;
    try {
      err = await reads.search(big, slow, "").catch((e: unknown) => e);
    } finally {
      delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    }
    expect((err as { code?: string }).code).toBe("57014");
    const answers = await Promise.all([reads.search(big, slow, ""), reads.search(big, slow, "")]);
    expect(answers.map((a) => a.rows.length)).toEqual([10, 10]);
  });
});

describe("deep pages", () => {
  it("in _id order without conditions seek to the page, with or without gaps", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const q: SearchQuery = { ...base, offset: 30_000, limit: 3, lastId: true };
    expect(await reads.search(big, q, "")).toEqual({ rows: [[30_001, 0], [30_002, 1], [30_003, 2]], total: 60_000, totalEstimated: false, lastId: 30_003 });
    // The catalog's count no longer matches the ids' extent: OFFSET it is.
    expect((await reads.search({ ...big, rowCount: 59_999 }, q, "")).rows[0]).toEqual([30_001, 0]);
  });
});

describe("replica", () => {
  it("reads on the replica when it has the resource's version, else on the primary", async () => {
    const reads = new PgReads({ primary: db.pool, replica, schema: db.schema, expensiveLimit: 2, limits: config });
    const r = { ...small, version: 5 };
    await reads.search(r, base, ""); // no catalog row there yet: the primary
    await db.pool.query("INSERT INTO datastore_resources VALUES ($1, 4)", [r.id]);
    await reads.search(r, base, ""); // behind: the primary
    await db.pool.query("UPDATE datastore_resources SET version = 5 WHERE id = $1", [r.id]);
    await reads.search(r, base, "");
    await reads.summary(r, base, { fields: ["n"], top: 2, bins: 2 }, "");
    expect(reads.served).toEqual({ primary: 2, replica: 2 });
  });

  it("an unreachable replica gives way to the primary", async () => {
    const dead = new pg.Pool({ connectionString: "postgresql://app@127.0.0.1:1/app", connectionTimeoutMillis: 2000 });
    dead.on("error", () => undefined);
    const reads = new PgReads({ primary: db.pool, replica: dead, schema: db.schema, expensiveLimit: 2, limits: config });
    const out = await reads.search(small, base, "");
    expect(out.rows).toHaveLength(10);
    expect(reads.served).toEqual({ primary: 1, replica: 0 });
    await dead.end();
  });
});

describe("dumps", () => {
  async function all(it: AsyncIterableIterator<unknown[][]>): Promise<unknown[][][]> {
    const chunks: unknown[][][] = [];
    for await (const c of it) chunks.push(c);
    return chunks;
  }

  it("in _id order, by keyset, 1000 rows a chunk", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const chunks = await all(reads.iterate(big, { ...base, filters: [{ op: "lt", field: "n", value: 25 }], limit: -1, includeTotal: false }, ""));
    expect(chunks.map((c) => c.length)).toEqual([1000, 500]);
    expect(chunks.flat().map((row) => row[0])).toEqual(Array.from({ length: 1500 }, (_, i) => Math.floor(i / 25) * 1000 + (i % 25) + 1));
  });

  it("in any other order, through a cursor; stopping early gives the connection back", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const q: SearchQuery = { ...base, columns: ["n", "name"], sort: [{ field: "n", desc: true, nullsFirst: true }, { field: "_id", desc: false, nullsFirst: false }], limit: 2500, offset: 10, includeTotal: false };
    const chunks = await all(reads.iterate(big, q, ""));
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 500]);
    expect(chunks[0][0]).toEqual([999, "name 49"]);
    const page = await reads.search(big, { ...q, limit: 2500 }, "");
    expect(chunks.flat()).toEqual(page.rows);
    for await (const chunk of reads.iterate(big, q, "")) {
      expect(chunk).toHaveLength(1000);
      break;
    }
    expect(db.pool.totalCount - db.pool.idleCount).toBe(0);
  });
});

describe("bounded counts", () => {
  it("exact without a threshold; past the budget, PostgreSQL's estimate when it reaches the threshold", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    const q: SearchQuery = { ...base, filters: [{ op: "gte", field: "name", value: "name 1" }], limit: 1 };
    const budget = process.env.DATASTORE_COUNT_BUDGET_MS;
    process.env.DATASTORE_COUNT_BUDGET_MS = "1";
    try {
      const exact = await reads.search(big, q, "");
      expect(exact).toMatchObject({ total: 58_800, totalEstimated: false });
      const estimated = await reads.search(big, { ...q, totalEstimationThreshold: 1000 }, "");
      expect(estimated.totalEstimated).toBe(true);
      expect(estimated.total).toBeGreaterThan(40_000);
      expect(estimated.total).toBeLessThan(60_000);
      // An estimate below the threshold: the exact count.
      expect(await reads.search(big, { ...q, totalEstimationThreshold: 1_000_000 }, "")).toMatchObject({ total: 58_800, totalEstimated: false });
      // Nothing to filter: the catalog's count, exact.
      expect(await reads.search(big, { ...base, totalEstimationThreshold: 0 }, "")).toMatchObject({ total: 60_000, totalEstimated: false });
    } finally {
      if (budget === undefined) delete process.env.DATASTORE_COUNT_BUDGET_MS;
      else process.env.DATASTORE_COUNT_BUDGET_MS = budget;
    }
  });
});

describe("bounded extensions on a big table", () => {
  it("value counts, histogram, summary and aggregate under a budget: a sample, partial, counts scaled", async () => {
    const reads = new PgReads({ primary: db.pool, schema: db.schema, expensiveLimit: 1, limits: config });
    // The catalog says the table is huge: unnarrowed reads go straight to their samples.
    const huge = { ...big, rowCount: 10_000_000 };
    const counts = await reads.valueCounts(huge, "name", base, 3, "", 100);
    expect(counts.partial).toBe(true);
    // 1,200 in the first 100,000 rows, scaled to the 10,000,000 the catalog says
    expect(counts.values[0].count).toBe(120_000);
    const h = await reads.histogram(huge, "day", base, 12, "", 100);
    expect(h.partial).toBe(true);
    expect(h.bins.length).toBe(12);
    const s = await reads.summary(huge, base, { fields: ["n", "name"], top: 2, bins: 4, budgetMs: 100 }, "");
    expect(s.partial).toBe(true);
    const a = await reads.aggregate(huge, base, toSpec({ keys: [{ field: "day", period: "month" }], metric: "count", field: null, limit: 100, budgetMs: 100 }), "");
    expect(a.partial).toBe(true);
    expect(a.groups).toHaveLength(12);
  });
});
