import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { bulkInsert } from "../../test/bulk-insert";
import type { SearchQuery } from "../engine";
import { DatastoreError, DatastoreUnavailable } from "../errors";
import { openEngine } from "../open";
import type { SqliteEngine } from "./engine";
import { state, type Internal } from "./catalog";
import { ReadPool } from "./read-pool";

const ROWS = 150_000;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "word"], sort: [], distinct: false, limit: 5, offset: 0, includeTotal: true };

describe("read pool and bounded reads", () => {
  let file: string;
  let engine: SqliteEngine; // reads on its own connection, for comparison with the pool
  let pool: ReadPool;
  let resourceId: string;
  const resource = async () => (await engine.getResource(resourceId))!;
  const searchNow = async (query: SearchQuery) => engine.search(await resource(), query);

  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pool-")), "pool.db");
    engine = (await openEngine({ file, readWorkers: 0 })) as SqliteEngine;
    resourceId = (await engine.createResource({ id: "big", name: "big", description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
    ])).id;
    const words = ["alpha", "beta", "gamma", "delta"];
    await bulkInsert(engine, resourceId, Array.from({ length: ROWS }, (_, i) => ({ n: (i * 7919) % ROWS, word: words[i % 4] })));
    pool = new ReadPool(file, 2, undefined, config);
  });

  afterAll(async () => {
    await pool.close();
    await engine.close();
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    delete process.env.DATASTORE_COUNT_BUDGET_MS;
  });

  it("answers on worker threads exactly as in process", async () => {
    const query: SearchQuery = { ...base, filters: [{ op: "in", field: "word", values: ["beta"] }], sort: [{ field: "n", desc: true, nullsFirst: true }] };
    const inProcess = await searchNow(query);
    const pooled = await pool.run({ op: "search", resourceId, query });
    // With the state it read, for the page cache.
    expect(pooled).toEqual({ ...inProcess, readAt: state((await resource()) as Internal) });
    expect(inProcess.total).toBe(ROWS / 4);
  });

  it("hands over encoded records, value counts and sizes as computed in process", async () => {
    const columns = [{ id: "_id", type: "int" as const }, { id: "n", type: "int4" as const }, { id: "word", type: "text" as const }];
    const query: SearchQuery = { ...base, limit: 3000, encode: { format: "objects", columns } };
    const pooled = (await pool.run({ op: "search", resourceId, query })) as { records: Uint8Array; rows: unknown[] };
    expect(pooled.rows).toEqual([]);
    const records = JSON.parse(new TextDecoder().decode(pooled.records));
    expect(records).toHaveLength(3000);
    expect(records[1]).toEqual({ _id: 2, n: 7919, word: "beta" });
    expect(pooled.records).toEqual((await searchNow(query)).records);
    // Value counts on a small table: on the big one, whether they fit their time budget
    // (bounded-read.ts) depends on the machine's load, and this is about the hand-over.
    const small = await engine.createResource({ id: "small", name: "small", description: "", private: false }, [{ id: "word", type: "text" }]);
    await bulkInsert(engine, small.id, Array.from({ length: 400 }, (_, i) => ({ word: ["alpha", "beta", "gamma", "delta"][i % 4] })));
    const counts = await pool.run({ op: "valueCounts", resourceId: small.id, query: base, field: "word", limit: 10, budgetMs: null });
    expect(counts).toEqual({ values: ["alpha", "beta", "delta", "gamma"].map((value) => ({ value, count: 100 })), partial: false });
    expect(counts).toEqual(await engine.valueCounts(small, "word", base, 10));
    expect(await pool.run({ op: "stats", resourceId })).toEqual(await engine.stats(await resource()));
  });

  it("starts one worker first, the others once it is ready, and reads on the first before they are", async () => {
    const staggered = new ReadPool(file, 3, undefined, config);
    try {
      expect(staggered.started).toBe(1);
      expect(await staggered.run({ op: "stats", resourceId })).toEqual(await engine.stats(await resource()));
      expect(staggered.started).toBe(3);
    } finally {
      await staggered.close();
    }
  });

  it("runs reads in parallel on several workers", async () => {
    const query: SearchQuery = { ...base, sort: [{ field: "word", desc: false, nullsFirst: false }] };
    const answers = await Promise.all([1, 2, 3, 4].map(() => pool.run({ op: "search", resourceId, query })));
    expect(answers).toEqual(Array(4).fill({ ...(await searchNow(query)), readAt: state((await resource()) as Internal) }));
    // A quick read sent after a slow one is answered first: it does not wait behind it.
    const slow: SearchQuery = { ...base, sort: [{ field: "word", desc: true, nullsFirst: true }, { field: "n", desc: true, nullsFirst: true }], offset: ROWS - 10 };
    const quick: SearchQuery = { ...base, limit: 1, includeTotal: false };
    const order: string[] = [];
    await Promise.all([
      pool.run({ op: "search", resourceId, query: slow }).then(() => order.push("slow")),
      pool.run({ op: "search", resourceId, query: quick }).then(() => order.push("quick")),
    ]);
    expect(order).toEqual(["quick", "slow"]);
  });

  it("stops a query past the time budget with a 409 query error", async () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "1";
    try {
      const query: SearchQuery = { ...base, filters: [{ op: "in", field: "word", values: ["beta", "gamma"] }], sort: [{ field: "word", desc: true, nullsFirst: true }] };
      const err = await pool.run({ op: "search", resourceId, query }).catch((e) => e);
      expect(err).toBeInstanceOf(DatastoreError);
      expect((err as DatastoreError).kind).toBe("validation");
      expect(Object.keys((err as DatastoreError).details)).toEqual(["query"]);
    } finally {
      delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    }
  });

  it("estimates a total that would exceed the count budget when a threshold allows it, and says so", async () => {
    process.env.DATASTORE_COUNT_BUDGET_MS = "0";
    try {
      const out = await searchNow({ ...base, filters: [{ op: "in", field: "word", values: ["alpha", "delta"] }], totalEstimationThreshold: 0 });
      expect(out.totalEstimated).toBe(true);
      expect(Math.abs(out.total! - ROWS / 2)).toBeLessThan(ROWS * 0.05);
    } finally {
      delete process.env.DATASTORE_COUNT_BUDGET_MS;
    }
    const exact = await searchNow({ ...base, filters: [{ op: "in", field: "word", values: ["alpha", "delta"] }] });
    expect(exact).toMatchObject({ total: ROWS / 2, totalEstimated: false });
  });

  it("counts from an index range alone, exactly, without the deadline check", async () => {
    const other = (await engine.createResource({ id: "indexed", name: "indexed", description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
    ])).id;
    await engine.write(other, Array.from({ length: 3000 }, (_, i) => ({ n: i, word: ["alpha", "beta", "gamma"][i % 3] })), "insert");
    await engine.setIndexes(other, [["word"]]);
    const r = (await engine.getResource(other))!;
    const query: SearchQuery = { ...base, filters: [{ op: "in", field: "word", values: ["alpha", "beta"] }] };
    const [, count] = engine.searchStatements(r, query);
    expect(count.sql).not.toContain("ds_deadline");
    process.env.DATASTORE_COUNT_BUDGET_MS = "0";
    try {
      // A budget of 0 ms would let a threshold estimate any budgeted count; this one is exact.
      expect(await engine.search(r, { ...query, totalEstimationThreshold: 0 })).toMatchObject({ total: 2000, totalEstimated: false });
      // Not from an index (n is not indexed): budgeted (estimated with a threshold, see count.test.ts).
      const unindexed = engine.searchStatements(r, { ...base, filters: [{ op: "in", field: "n", values: [1, 2] }] })[1];
      expect(unindexed.sql).toContain("ds_deadline");
    } finally {
      delete process.env.DATASTORE_COUNT_BUDGET_MS;
    }
  });
});

describe("read workers that cannot start", () => {
  it("are tried again twice, then every read, waiting or to come, answers why (503), and no more start", async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pool-")), "missing.db");
    const pool = new ReadPool(missing, 2, undefined, config);
    const errors = console.error;
    const logged: string[] = [];
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
    try {
      const refused = await pool.run({ op: "stats", resourceId: "x" }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatastoreUnavailable);
      expect((refused as Error).message).toMatch(/^read workers cannot start \(3 tries\): cannot open .*missing.db: unable to open database file$/);
      const started = pool.started;
      // Each of the two workers started at most three times.
      expect(started).toBeGreaterThanOrEqual(3);
      expect(started).toBeLessThanOrEqual(6);
      // Every worker's last error has come once they have all exited: none started another.
      await pool.close();
      expect(pool.started).toBe(started);
      await expect(pool.run({ op: "stats", resourceId: "x" })).rejects.toBe(refused);
      expect(logged).toEqual([expect.stringMatching(/^datastore: read workers cannot start \(3 tries\): .*; reads fail until the server restarts$/)]);
    } finally {
      console.error = errors;
      await pool.close();
    }
  });
});
