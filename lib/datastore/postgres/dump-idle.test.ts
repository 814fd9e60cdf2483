// Sorted dumps whose clients stop reading (issue 24's review: "slow sorted dumps hold
// connections"). A dump in any order but _id reads through a cursor, holding a connection and
// its snapshot between chunks; as many stalled dumps as the pool has connections used to leave
// every other read waiting for one, then failing. Past dumpIdleMs unread, a dump is ended:
// its connection closed (the server ends its transaction), and it fails when next read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { createDatabase, withClient, withDatabase } from "../../test/pg-support";
import { openPostgresEngine, type PostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const POOL = 4;
const IDLE_MS = 500;
const query = (sort: "v" | "_id", limit = -1): SearchQuery => ({
  filters: [],
  fts: [],
  columns: ["_id", "v"],
  sort: [{ field: sort, desc: true, nullsFirst: false }],
  distinct: false,
  limit,
  offset: 0,
  includeTotal: false,
});

describe.skipIf(!url)("sorted dumps left unread", () => {
  let db: string;
  let engine: PostgresEngine;

  /** The engine's connections on the server still inside a transaction, doing nothing. */
  const idleInTransaction = () =>
    withClient(withDatabase(url!, db), async (c) => (await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'", [db])).rows[0].n as number);

  beforeAll(async () => {
    db = await createDatabase("dump_idle");
    engine = await openPostgresEngine({ url: withDatabase(url!, db), schema: "datastore", poolSize: POOL, limits: config, dumpIdleMs: IDLE_MS });
    await engine.createResource({ id: "big", name: "big", description: "", private: false }, [{ id: "v", type: "int4" }]);
    await engine.write("big", Array.from({ length: 3000 }, (_, v) => ({ v })), "insert");
  });
  afterAll(async () => {
    await engine?.close();
  });

  it("do not keep other reads from a connection, are ended past the bound, and free theirs", async () => {
    const big = (await engine.getResource("big"))!;
    // As many dumps as the pool has connections, each read to its first chunk, then left.
    const dumps = Array.from({ length: POOL }, () => engine.iterate(big, query("v")));
    for (const d of dumps) expect(((await d.next()).value as unknown[][])[0]).toEqual([3000, 2999]);
    expect(await idleInTransaction()).toBe(POOL);
    // Another read waits for a connection (the pool's wait is 10 s) only until the dumps are ended.
    const t0 = performance.now();
    const page = await engine.search(big, query("_id", 2));
    expect(page.rows).toEqual([[3000, 2999], [2999, 2998]]);
    expect(performance.now() - t0).toBeLessThan(5_000);
    // Their transactions end on the server (each dump's bound runs from its own last chunk);
    // reading on fails with a clear error.
    await expect.poll(idleInTransaction, { timeout: 3_000 }).toBe(0);
    for (const d of dumps) await expect(d.next()).rejects.toThrow(/the dump was ended: its client read nothing for 500 ms/);
    // Every connection serves again.
    const pages = await Promise.all(Array.from({ length: POOL * 2 }, () => engine.search(big, query("v", 1))));
    expect(pages.map((p) => p.rows)).toEqual(Array(POOL * 2).fill([[3000, 2999]]));
  });

  it("a dump read without pauses runs to its end, however long it takes in all", async () => {
    const big = (await engine.getResource("big"))!;
    let rows = 0;
    for await (const chunk of engine.iterate(big, query("v"))) {
      rows += chunk.length;
      await new Promise((r) => setTimeout(r, IDLE_MS / 3));
    }
    expect(rows).toBe(3000);
    expect(await idleInTransaction()).toBe(0);
  });
});
