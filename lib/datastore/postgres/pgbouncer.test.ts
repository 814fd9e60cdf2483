// The engine through PgBouncer (Debian's 1.18), with the settings docs/postgresql.md ("Through
// PgBouncer") says are required: pool_mode = session, ignore_startup_parameters = options,
// statement_timeout, and the role's search_path and statement_timeout set on the server (the
// pooler drops the start-up parameters that carry them). One round of everything that holds a connection in its own way:
// migrations under an advisory lock, transactions and savepoints, COPY, prepared statements, a
// cursor, tokens, and a learned index built CONCURRENTLY. Without them the server says what is
// missing instead of creating tables in the wrong schema. A cluster and a pooler of its own.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { bulkInsert } from "../../test/bulk-insert";
import { pgUnavailableReason, sql, startCluster, type PgCluster } from "../../test/pg-cluster";
import { pgbouncerUnavailableReason, startBouncer, type Bouncer } from "../../test/pgbouncer";
import { DatastoreUnavailable } from "../errors";
import type { SearchQuery, TokenRecord } from "../engine";
import { openPostgresEngine } from "./engine";

const unavailable = pgUnavailableReason() ?? pgbouncerUnavailableReason();
if (unavailable) console.warn(`PgBouncer test skipped: ${unavailable}`);

const SCHEMA = "bounced";
const learning = { adaptiveIndexes: true, adaptiveSlowMs: 0, adaptiveReads: 3, adaptiveMaxIndexes: 3, adaptiveMaxSizePercent: 100 };
const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({ filters: [], fts: [], columns: ["_id", "k", "v"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: true, ...over });

describe.skipIf(!!unavailable)("the PostgreSQL engine through PgBouncer", () => {
  let cluster: PgCluster;
  // Each test starts its own pooler: a server connection keeps the role's settings it began with.
  let bouncer: Bouncer | undefined;
  const required = { pool_mode: "session", ignore_startup_parameters: "options, statement_timeout" };

  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);

  /** The role's settings docs/postgresql.md asks for, which the pooler's connections start with. */
  const setRole = () =>
    sql(cluster.superUrl, `ALTER ROLE app IN DATABASE app SET search_path = ${SCHEMA}`, `ALTER ROLE app IN DATABASE app SET statement_timeout = ${config.queryTimeoutMs}`);

  afterEach(async () => {
    await bouncer?.stop();
    bouncer = undefined;
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it("says which setting is missing when the pooler refuses the start-up options", async () => {
    bouncer = await startBouncer(cluster, { pool_mode: "session" });
    const open = openPostgresEngine({ url: bouncer.url, schema: SCHEMA, poolSize: 2, limits: config });
    await expect(open).rejects.toThrow(/unsupported startup parameter: (options|statement_timeout)/);
    await expect(open).rejects.toThrow(/add `ignore_startup_parameters = options, statement_timeout` to pgbouncer.ini/);
  });

  it("refuses to start while the role's search_path does not name the schema, and creates nothing", async () => {
    bouncer = await startBouncer(cluster, required);
    const open = openPostgresEngine({ url: bouncer.url, schema: SCHEMA, poolSize: 2, limits: config });
    await expect(open).rejects.toBeInstanceOf(DatastoreUnavailable);
    await expect(open).rejects.toThrow(`ALTER ROLE "app" IN DATABASE "app" SET search_path = "${SCHEMA}"`);
    const [tables] = await sql(cluster.url(), "SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'datastore%' OR schemaname = 'bounced'");
    expect(tables.rows).toEqual([{ n: 0 }]);
  });

  it("serves writes, reads, a dump, tokens and a learned index with the role's settings", async () => {
    await setRole();
    bouncer = await startBouncer(cluster, required);
    // Two app servers, as behind a load balancer: they migrate once between them.
    const url = bouncer.url;
    const [A, B] = await Promise.all([0, 1].map(() => openPostgresEngine({ url, schema: SCHEMA, poolSize: 4, limits: config, learning })));
    try {
      await A.check("full");
      await A.createResource({ id: "r", name: "r", description: "", private: false }, [
        { id: "k", type: "int4" },
        { id: "v", type: "text" },
      ]);
      await A.setPrimaryKey("r", ["k"]);
      await bulkInsert(A, "r", Array.from({ length: 12_000 }, (_, k) => ({ k, v: `value ${k % 7}` })));
      await B.write("r", [{ k: 5, v: "changed through B" }], "upsert");
      // A failed write inside a transaction rolls back to its savepoint; the rest commits.
      await A.transaction(async (tx) => {
        await tx.write("r", [{ k: 20_000, v: "kept" }], "insert");
        await expect(tx.write("r", [{ k: 20_000, v: "duplicate" }], "insert")).rejects.toThrow();
      });
      for (const engine of [A, B, A]) {
        const page = await engine.search((await engine.getResource("r"))!, query({ filters: [{ op: "eq", field: "k", value: 5 }] }));
        expect([page.rows, page.total]).toEqual([[[6, 5, "changed through B"]], 1]);
      }
      expect((await B.getResource("r"))!.rowCount).toBe(12_001);
      const counts = await B.valueCounts((await B.getResource("r"))!, "v", query(), 3);
      expect(counts.values.length).toBe(3);
      // A dump in another order than _id reads through a cursor in one transaction.
      let dumped = 0;
      for await (const chunk of A.iterate((await A.getResource("r"))!, query({ sort: [{ field: "v", desc: true, nullsFirst: false }], limit: 20_000 }))) dumped += chunk.length;
      expect(dumped).toBe(12_001);
      const token: TokenRecord = { id: randomBytes(4).toString("hex"), name: "t", scope: "read", hash: randomBytes(16).toString("hex"), created: "2026-01-01T00:00:00", expires: null, lastUsed: null, resources: null, actions: null, ratePerMinute: null };
      await A.tokens.insert(token);
      expect(await B.tokens.findByHash(token.hash)).toMatchObject({ id: token.id });
      // Three slow sorted pages: the index is built CONCURRENTLY on a connection of its own.
      for (let i = 0; i < 3; i++) await A.search((await A.getResource("r"))!, query({ sort: [{ field: "v", desc: false, nullsFirst: false }] }));
      for (let t0 = Date.now(); !A.learnEvents().length && Date.now() - t0 < 30_000; ) await new Promise((r) => setTimeout(r, 25));
      expect(A.learnEvents()).toMatchObject([{ field: "v", outcome: "built" }]);
      expect((await B.getResource("r"))!.learnedIndexes!.map((ix) => ix.fields)).toEqual([["v"]]);
    } finally {
      await Promise.all([A.close(), B.close()]);
    }
    const [tables] = await sql(cluster.url(), "SELECT schemaname, count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'datastore%' GROUP BY 1");
    expect(tables.rows).toEqual([{ schemaname: SCHEMA, n: expect.any(Number) }]);
  });

  it("answers 503 naming pool_mode = session through a pooler in transaction mode", async () => {
    // One server connection for every client: a second connection of the pool finds the
    // first one's prepared statement there.
    await setRole();
    bouncer = await startBouncer(cluster, { ...required, pool_mode: "transaction", default_pool_size: 1 });
    const engine = await openPostgresEngine({ url: bouncer.url, schema: SCHEMA, poolSize: 2, limits: config });
    try {
      const lookups = await Promise.allSettled([0, 1, 2, 3].map(() => engine.getResource("r")));
      const refused = lookups.filter((l) => l.status === "rejected").map((l) => (l as PromiseRejectedResult).reason);
      expect(refused.length).toBeGreaterThan(0);
      for (const e of refused) {
        expect(e).toBeInstanceOf(DatastoreUnavailable);
        expect((e as Error).message).toMatch(/pool_mode = session/);
      }
    } finally {
      await engine.close();
    }
  });
});
