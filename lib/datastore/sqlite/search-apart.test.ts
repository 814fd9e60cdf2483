import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "../../config";
import { bulkInsert } from "../../test/bulk-insert";
import type { Filter, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { setReadGate } from "../read-gate";
import { openEngine } from "../open";
import { state, type Internal } from "./catalog";
import type { SqliteEngine } from "./engine";
import { ReadPool, type ReadTask } from "./read-pool";
import { searchOnPool } from "./search-apart";

const ROWS = 150_000;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "word"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 5, offset: 0, includeTotal: true };
/** `word` has no index: its total is a count that reads every row. */
const beta: SearchQuery = { ...base, filters: [{ op: "in", field: "word", values: ["beta"] }] };
/** Another client's expensive read: a count of every row (`n` has no index), each a new one. */
const counted = (n: number): SearchQuery => ({ ...base, filters: [{ op: "in", field: "n", values: [n] }], limit: 1 });
/** A search like `beta` whose count no worker kept yet: a word no row has. */
const absent = (word: string): SearchQuery => ({ ...base, filters: [{ op: "in", field: "word", values: [word] }] });
/** What the pool keeps a total under (search-apart.ts totalQuestion). */
const questionOf = (query: SearchQuery) => ({ filters: query.filters, fts: query.fts, distinct: false });

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

  afterEach(() => {
    vi.restoreAllMocks();
    setReadGate(undefined);
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
  });

  it("reads the page on one worker and the count in ranges of _id on two others when the pool is idle, with the same answer", async () => {
    const [apart, readsBefore] = [pool.searchesApart, reads()];
    expect(await onPool(beta)).toEqual(await expected(beta));
    expect(pool.searchesApart).toBe(apart + 1);
    // The page and eight ranges of the count (count.ts MIN_RANGES) where one read was.
    expect(reads() - readsBefore).toBe(9);
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
    // The other client's reads, once the pool runs them, reach their workers only after the
    // pool has judged mine: on a loaded machine one could otherwise end before mine is judged,
    // and mine would rightly be read apart on the idle pool.
    let judged!: () => void;
    let mineJudged = new Promise<void>((go) => (judged = go));
    let mineId = -1;
    const theirs = new Set<SearchQuery>();
    const post = Worker.prototype.postMessage;
    vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, task: ReadTask) {
      if (task.op === "search" && task.apart) mineId = task.id;
      if (task.op === "search" && theirs.has(task.query) && !task.judge) void mineJudged.then(() => post.call(this, task));
      else post.call(this, task);
    });
    const settle = (pool as unknown as { settle: (slot: unknown, reply: { id: number }) => void }).settle;
    vi.spyOn(pool as unknown as { settle: typeof settle }, "settle").mockImplementation(function (this: ReadPool, slot, reply) {
      settle.call(this, slot, reply);
      if (reply.id === mineId) judged();
    });
    // One expensive read of another client, running; then four: two run, two wait their turn.
    for (const n of [1, 4]) {
      mineJudged = new Promise<void>((go) => (judged = go));
      const queries = Array.from({ length: n }, (_, i) => counted(10 * n + i));
      queries.forEach((query) => theirs.add(query));
      const others = queries.map((query) => pool.run({ op: "search", resourceId, query }, "other"));
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
  it("lets another client's expensive read in after one range, not after the count, when it comes once the count is split", async () => {
    const query = absent("epsilon");
    const posted: ReadTask[] = [];
    const post = Worker.prototype.postMessage;
    let other: Promise<unknown> | undefined;
    vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, task: ReadTask) {
      posted.push(task);
      // Another client asks as soon as the count's first range is sent.
      if (task.op === "count" && !other) other = new Promise((go) => setImmediate(go)).then(() => pool.run({ op: "search", resourceId, query: counted(77) }, "other"));
      post.call(this, task);
    });
    expect(await onPool(query)).toEqual(await expected(query));
    await other;
    const ranges = posted.filter((t) => t.op === "count");
    expect(ranges.length).toBe(8);
    // Sent to its expensive slot (unjudged) while the search still had ranges to send: it took
    // the slot of the range that ended first, and the search's ranges went on one at a time.
    const othersTurn = posted.findIndex((t) => t.op === "search" && !t.judge && t.query.limit === 1);
    expect(othersTurn).toBeGreaterThan(0);
    expect(posted.indexOf(ranges.at(-1)!)).toBeGreaterThan(othersTurn);
  });

  it("reads the search whole when a write lands between its page and a range of its count, on the search's own turn", async () => {
    const query = absent("zeta");
    const run = pool.run.bind(pool);
    let wrote = 0;
    // The client's budget lets the search in, then is spent: the read whole is not refused.
    let asked = 0;
    setReadGate({ refusal: () => (asked++ === 0 ? 0 : 7), charge: () => {} });
    vi.spyOn(pool, "run").mockImplementation(async (task, client, admitted) => {
      // Before the last range is sent: it reads a later state than the page and the other ranges.
      if (task.op === "count" && task.part?.index === task.part!.of - 1) {
        await bulkInsert(engine, resourceId, [{ n: -3, word: "zeta" }]);
        wrote++;
      }
      return run(task, client, admitted);
    });
    const wholeBefore = vi.mocked(pool.run).mock.calls.length;
    const out = await onPool(query);
    expect(wrote).toBe(1);
    expect(asked).toBe(1);
    expect(out).toEqual(await expected(query));
    expect(out.total).toBe(1);
    // The search read whole after its parts: the last call, without `apart`.
    const calls = vi.mocked(pool.run).mock.calls.slice(wholeBefore);
    expect(calls.at(-1)!.slice(0, 2)).toEqual([{ op: "search", resourceId, query }, "alone"]);
  });

  it("answers a search whose count's ranges run past the query's limit as the search read whole on one worker does: 409, too long", async () => {
    // Twenty values no row has, then every row: each row's test is slow, and every row matches,
    // so the deadline is checked as the count goes (a row the filter drops is not checked).
    const slow = (t: number): SearchQuery => {
      const none: Filter[] = Array.from({ length: 20 }, (_, i) => (i % 2 ? { op: "eq", field: "word", value: `w${t}-${i}` } : { op: "eq", field: "n", value: -100 * t - i }));
      return { ...base, filters: [{ op: "or", of: [...none, { op: "gte", field: "n", value: 0 }] }] };
    };
    // The count's own time: the quicker of two reads whole once the statements are prepared.
    const took: number[] = [];
    for (const t of [1, 2, 3]) {
      const started = performance.now();
      await pool.run({ op: "search", resourceId, query: slow(t) }, "alone");
      took.push(performance.now() - started);
    }
    // A third of the whole search's time: its count stops (or its ranges, alone or together).
    process.env.DATASTORE_QUERY_TIMEOUT_MS = String(Math.max(2, Math.round(Math.min(took[1], took[2]) / 3)));
    const whole = await pool.run({ op: "search", resourceId, query: slow(4) }, "alone").catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(DatastoreError);
    expect(whole).toMatchObject({ kind: "validation", message: expect.stringContaining("took too long") });
    const apart = pool.searchesApart;
    const split = await onPool(slow(5)).catch((e: unknown) => e);
    expect(pool.searchesApart).toBe(apart + 1);
    expect(split).toEqual(whole);
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    // Nothing is left waiting or broken: the same search answers once the limit is back.
    expect(await onPool(slow(5))).toEqual(await expected(slow(5)));
  });

  it("holds the ranges' running times, added up, to the query's limit, as the count's on one worker", async () => {
    const run = pool.run.bind(pool);
    let [ranges, running] = [0, 0];
    // Each range says it ran 40% of the limit: the third would take the count past it.
    vi.spyOn(pool, "run").mockImplementation(async (task, client, admitted) => {
      if (task.op !== "count") return run(task, client, admitted);
      ranges++;
      running++;
      const out = await run(task, client, admitted).finally(() => running--);
      return { ...(out as object), ms: 0.4 * config.queryTimeoutMs };
    });
    await expect(onPool(absent("mu"))).rejects.toEqual(DatastoreError.tooLong(config.queryTimeoutMs));
    // Two lanes: the two ranges that passed the limit between them, and none after.
    expect(ranges).toBeLessThanOrEqual(4);
    // The other lane's range ends unseen: the next test starts on an idle pool.
    await vi.waitFor(() => expect(running).toBe(0));
  });

  it("lets the page and the ranges in on the search's own turn: the client's budget running out meanwhile refuses none of them", async () => {
    const query = absent("iota");
    let asked = 0;
    const charged: number[] = [];
    // The budget lets the search in, then is spent.
    setReadGate({ refusal: () => (asked++ === 0 ? 0 : 7), charge: (_client, ms) => charged.push(ms) });
    const apart = pool.searchesApart;
    expect(await onPool(query)).toEqual(await expected(query));
    expect(pool.searchesApart).toBe(apart + 1);
    expect(asked).toBe(1);
    // Each range was charged to the client as any expensive read.
    expect(charged.length).toBeGreaterThanOrEqual(8);
    // Its next search is refused as before.
    await expect(onPool(absent("kappa"))).rejects.toMatchObject({ kind: "rate_limit" });
  });

  it("answers a search read whole on one worker with a total the pool kept for that state, and keeps the totals it counts whole", async () => {
    const query = absent("lambda");
    const busy = () => Array.from({ length: 3 }, (_, i) => pool.run({ op: "search", resourceId, query: counted(300 + i) }, "other"));
    // Another client's reads run: the search is read whole, and its total is kept.
    let others = busy();
    const first = await onPool(query);
    await Promise.all(others);
    expect(first).toEqual(await expected(query));
    const at = state(await resource());
    expect(pool.totals.get(at, questionOf(query))).toBe(0);
    // A total kept for this state (planted, to tell it from a count) answers the next one.
    pool.totals.keep(at, questionOf(query), 999);
    others = busy();
    const next = await onPool({ ...query, offset: 5 });
    await Promise.all(others);
    expect(next.total).toBe(999);
  });
});
