import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "../../config";
import { bulkInsert } from "../../test/bulk-insert";
import type { SearchQuery } from "../engine";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { state, type Internal } from "./catalog";
import type { SqliteEngine } from "./engine";
import { ReadPool } from "./read-pool";
import { searchOnPool } from "./search-apart";

const ROWS = 150_000;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "word"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 5, offset: 0, includeTotal: true };
/** `word` has no index: its total is a count that reads every row. */
const beta: SearchQuery = { ...base, filters: [{ op: "in", field: "word", values: ["beta"] }] };
/** Another client's expensive read: a count of every row (`n` has no index), each a new one. */
const counted = (n: number): SearchQuery => ({ ...base, filters: [{ op: "in", field: "n", values: [n] }], limit: 1 });

describe("a search's page and count side by side", () => {
  let file: string;
  let engine: SqliteEngine; // writes, and reads on its own connection for comparison
  let pool: ReadPool;
  const resourceId = "apart";
  const resource = async () => (await engine.getResource(resourceId)) as Internal;
  const reads = () => pool.answered.cheap + pool.answered.expensive;
  /** The search through the pool, as the engine sends it, with the state it knows. */
  const onPool = async (query: SearchQuery, client = "alone") => {
    const r = await resource();
    return searchOnPool(pool, resourceId, query, client, state(r));
  };
  /** Read in process, with the state the pool's answers carry. */
  const expected = async (query: SearchQuery) => ({ ...(await engine.search(await resource(), query)), readAt: state(await resource()) });

  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "apart-")), "apart.db");
    engine = (await openEngine({ file, readWorkers: 0 })) as SqliteEngine;
    await engine.createResource({ id: resourceId, name: resourceId, description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
    ]);
    const words = ["alpha", "beta", "gamma", "delta"];
    await bulkInsert(engine, resourceId, Array.from({ length: ROWS }, (_, i) => ({ n: (i * 7919) % ROWS, word: words[i % 4] })));
    // Three workers, two expensive reads at a time, as on two cores.
    pool = new ReadPool(file, 3, undefined, config);
    await pool.run({ op: "stats", resourceId });
    // The other two workers start once the first is ready.
    await vi.waitFor(() => expect(pool.ready).toBe(3), { timeout: 30_000, interval: 20 });
  });

  afterAll(async () => {
    await pool.close();
    await engine.close();
  });

  it("reads the page on one worker and the count in two ranges of _id on two others when the pool is idle, with the same answer", async () => {
    const [apart, readsBefore] = [pool.searchesApart, reads()];
    expect(await onPool(beta)).toEqual(await expected(beta));
    expect(pool.searchesApart).toBe(apart + 1);
    // The page and two parts of the count: three reads answered where one was.
    expect(reads() - readsBefore).toBe(3);
  });

  it("keeps the total it counted for that state: the next page reads its rows only, and a write counts again", async () => {
    const next = { ...beta, offset: 5 };
    const readsBefore = reads();
    expect(await onPool(next)).toEqual(await expected(next));
    expect(reads() - readsBefore).toBe(1);
    await bulkInsert(engine, resourceId, [{ n: -1, word: "beta" }]);
    const after = await onPool(next);
    expect(after).toEqual(await expected(next));
    expect(after.total).toBe(ROWS / 4 + 1);
  });

  it("does not use a total kept for another state than its page's", async () => {
    const stale = state(await resource());
    const question = { filters: beta.filters, fts: beta.fts, distinct: false };
    pool.totals.keep(stale, question, 999);
    await bulkInsert(engine, resourceId, [{ n: -2, word: "beta" }]);
    // As if the caller had looked the resource up just before the write.
    const out = await searchOnPool(pool, resourceId, beta, "alone", stale);
    expect(out).toEqual(await expected(beta));
    expect(out.total).toBe(ROWS / 4 + 2);
  });

  it("reads a search whole on one worker while another client's reads run or wait, and answers the same", async () => {
    const query = { ...beta, filters: [{ op: "in" as const, field: "word", values: ["gamma"] }] };
    const apart = pool.searchesApart;
    // One expensive read of another client, running; then four: two run, two wait their turn.
    for (const n of [1, 4]) {
      const others = Array.from({ length: n }, (_, i) => pool.run({ op: "search", resourceId, query: counted(10 * n + i) }, "other"));
      const mine = onPool(query);
      await Promise.all(others);
      expect(await mine).toEqual(await expected(query));
    }
    expect(pool.searchesApart).toBe(apart);
  });

  it("counts a distinct search, a full-text one, one within _id bounds or one with an estimation threshold whole, beside its page", async () => {
    for (const query of [
      { ...base, columns: ["word"], distinct: true, filters: [{ op: "in" as const, field: "n", values: [1, 2, 3, 4] }] },
      { ...base, fts: [{ field: null, tree: parsePlain("alpha"), rank: "rank" }], filters: [{ op: "in" as const, field: "n", values: [4, 8, 12, 16] }] },
      // A keyset page's: SQLite would walk each range from the query's own lower bound.
      { ...beta, filters: [{ op: "gt" as const, field: "_id", value: 4 }, { op: "in" as const, field: "n", values: [5, 6] }] },
      { ...beta, filters: [{ op: "in" as const, field: "word", values: ["delta"] }], totalEstimationThreshold: 10 * ROWS },
    ]) {
      const [apart, readsBefore] = [pool.searchesApart, reads()];
      expect(await onPool(query)).toEqual(await expected(query));
      expect(pool.searchesApart).toBe(apart + 1);
      expect(reads() - readsBefore).toBe(2);
    }
  });
});
