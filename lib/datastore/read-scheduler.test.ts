import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../config";
import { bulkInsert } from "../test/bulk-insert";
import type { DatastoreEngine, SearchQuery } from "./engine";
import { DatastoreError } from "./errors";
import { openEngine } from "./open";
import { ReadPool } from "./sqlite/read-pool";
import { setReadGate } from "./read-gate";
import { ReadScheduler } from "./read-scheduler";

describe("read scheduler", () => {
  const drain = (s: ReadScheduler<string>) => {
    const out: string[] = [];
    for (let next = s.next(); next; next = s.next()) out.push(next.job);
    return out;
  };

  it("runs at most the limit of expensive reads at once, and cheap reads beside them", () => {
    const s = new ReadScheduler<string>(1);
    s.push("e1", "expensive", "a");
    s.push("e2", "expensive", "a");
    s.push("c1", "cheap", "a");
    s.push("c2", "cheap", "b");
    expect(drain(s)).toEqual(["e1", "c1", "c2"]);
    s.finished("expensive");
    expect(drain(s)).toEqual(["e2"]);
  });

  it("takes expensive reads in turn per client", () => {
    const s = new ReadScheduler<string>(1);
    for (const job of ["a1", "a2", "a3"]) s.push(job, "expensive", "a");
    s.push("b1", "expensive", "b");
    s.push("c1", "expensive", "c");
    const order: string[] = [];
    for (let next = s.next(); next; next = s.next()) {
      order.push(next.job);
      s.finished("expensive");
    }
    expect(order).toEqual(["a1", "b1", "c1", "a2", "a3"]);
  });

  it("starts a waiting expensive read before cheap ones while under the limit, so none starves", () => {
    const s = new ReadScheduler<string>(1);
    for (let i = 0; i < 3; i++) s.push(`c${i}`, "cheap", "a");
    s.push("e1", "expensive", "b");
    expect(s.next()).toEqual({ job: "e1", lane: "expensive" });
    expect(s.waiting).toEqual({ cheap: 3, expensive: 0 });
  });

  it("tells the read gate how long each client's expensive reads ran, and asks it before one queues", () => {
    let t = 0;
    const s = new ReadScheduler<string>(2, () => t);
    const charged: [string, number][] = [];
    setReadGate({ refusal: (client) => (client === "spent" ? 7 : 0), charge: (client, ms) => charged.push([client, ms]) });
    try {
      s.push("a1", "expensive", "a");
      s.push("a2", "expensive", "a");
      s.next();
      t = 100;
      s.next();
      t = 250;
      s.finished("expensive", "a");
      t = 1000;
      s.finished("expensive", "a");
      // cheap reads are not charged
      s.push("c1", "cheap", "a");
      s.next();
      s.finished("cheap", "a");
      expect(charged).toEqual([["a", 250], ["a", 900]]);
      const refused = s.refusal("spent");
      expect([refused?.kind, refused?.retryAfter, refused?.details.policy]).toEqual(["rate_limit", 7, "expensive"]);
      expect(s.refusal("a")).toBeUndefined();
    } finally {
      setReadGate(undefined);
    }
  });
});

const ROWS = 150_000;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "word"], sort: [], distinct: false, limit: 5, offset: 0, includeTotal: false };
/** Sorts the whole table on an unindexed field: a read the worker judges expensive. */
const slow: SearchQuery = { ...base, sort: [{ field: "word", desc: true, nullsFirst: true }, { field: "n", desc: true, nullsFirst: true }], offset: ROWS - 10 };
/** The first page: cheap. */
const quick: SearchQuery = { ...base, limit: 1 };

describe("read pool lanes (two workers, one expensive read at a time)", () => {
  let file: string;
  let engine: DatastoreEngine;
  let pool: ReadPool;
  const resourceId = "lanes";

  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lanes-")), "lanes.db");
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: resourceId, name: resourceId, description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
    ]);
    const words = ["alpha", "beta", "gamma", "delta"];
    await bulkInsert(engine, resourceId, Array.from({ length: ROWS }, (_, i) => ({ n: (i * 7919) % ROWS, word: words[i % 4] })));
    pool = new ReadPool(file, 2, undefined, config);
  });

  afterAll(async () => {
    await pool.close();
    await engine.close();
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
  });

  it("answers cheap reads while expensive ones wait their turn", async () => {
    const before = { ...pool.answered };
    const done: string[] = [];
    const run = (name: string, query: SearchQuery) => pool.run({ op: "search", resourceId, query }).then(() => done.push(name));
    const all = [run("e1", slow), run("e2", slow), run("e3", slow)];
    for (let i = 1; i <= 5; i++) all.push(run(`c${i}`, quick));
    await Promise.all(all);
    // One expensive read at a time: the cheap ones, sent last, overtake the second and third.
    const secondExpensive = done.filter((n) => n.startsWith("e"))[1];
    expect(done.indexOf(secondExpensive)).toBeGreaterThan(Math.max(...[1, 2, 3, 4, 5].map((i) => done.indexOf(`c${i}`))));
    expect({ cheap: pool.answered.cheap - before.cheap, expensive: pool.answered.expensive - before.expensive }).toEqual({ cheap: 5, expensive: 3 });
  });

  it("still finishes expensive reads under a steady stream of cheap ones", async () => {
    let streaming = true;
    let cheapDone = 0;
    const stream = Promise.all(
      [0, 1, 2].map(async () => {
        while (streaming) {
          await pool.run({ op: "search", resourceId, query: quick });
          cheapDone++;
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    const answers = await Promise.all([pool.run({ op: "search", resourceId, query: slow }), pool.run({ op: "search", resourceId, query: slow })]);
    const cheapWhileSlow = cheapDone;
    streaming = false;
    await stream;
    expect(answers).toHaveLength(2);
    expect(cheapWhileSlow).toBeGreaterThan(10);
  });

  it("takes expensive reads in turn per client", async () => {
    const done: string[] = [];
    const run = (name: string, client: string) => pool.run({ op: "search", resourceId, query: slow }, client).then(() => done.push(name));
    await Promise.all([run("a1", "a"), run("a2", "a"), run("a3", "a"), run("a4", "a"), run("b1", "b")]);
    // b's one read comes before a's third, though a sent four first.
    expect(done.indexOf("b1")).toBeLessThan(done.indexOf("a3"));
  });

  it("answers 409 past the query timeout, and the lane keeps running", async () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "1";
    let err: unknown;
    try {
      err = await pool.run({ op: "search", resourceId, query: slow }).catch((e) => e);
    } finally {
      delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    }
    expect(err).toBeInstanceOf(DatastoreError);
    expect((err as DatastoreError).kind).toBe("validation");
    expect(Object.keys((err as DatastoreError).details)).toEqual(["query"]);
    // The failed read gave its place back: the next expensive ones run.
    const answers = await Promise.all([pool.run({ op: "search", resourceId, query: slow }), pool.run({ op: "search", resourceId, query: slow })]);
    expect(answers).toHaveLength(2);
  });

  it("dumps in _id order chunk by chunk through the pool, as on one connection", async () => {
    const query: SearchQuery = { ...base, sort: [{ field: "_id", desc: false, nullsFirst: true }], limit: 2500, offset: 10 };
    const chunks: unknown[][][] = [];
    for await (const chunk of pool.keysetChunks(resourceId, query, 1000)) chunks.push(chunk);
    expect(chunks.map((ch) => ch.length)).toEqual([1000, 1000, 500]);
    const r = (await engine.getResource(resourceId))!;
    const whole = await engine.search(r, query);
    expect(chunks.flat()).toEqual(whole.rows);
  });
});
