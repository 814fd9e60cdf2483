// Scale-out, for real on one machine (issue 15, docs/postgresql.md "Deployment"): a PostgreSQL primary and a
// streaming replica (lib/test/pg-cluster.ts: initdb, pg_basebackup -R, loopback ports), two
// API-only app servers on them as child processes (`lib/server/main.ts --api`, both loading the
// sample data at once, so one loses that race), and CKAN action calls over HTTP. Checks:
//   1. a write through A is read through B at once (also while the replica is paused);
//   2. searches are served by the replica: pg_stat_statements on each cluster counts the
//      statements that name the resource's table, and only the replica's count rises;
//   3. SIGKILL of A in the middle of a stream of upserts loses no acknowledged write, and each
//      batch that was in flight is wholly there or wholly absent;
//   4. B serves throughout and after.
// Every wait polls (readiness, replica catch-up); timings are printed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, untilReady, type AppProcess as App } from "../../test/app-process";
import { pgUnavailableReason, startCluster, startReplica, type PgCluster } from "../../test/pg-cluster";

const ADMIN = "scale-out-admin-token";
const SCHEMA = "datastore";
const unavailable = pgUnavailableReason();
if (unavailable) console.warn(`scale-out test skipped: ${unavailable}`);

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const timings: string[] = [];
function note(line: string): void {
  timings.push(line);
  console.log(`scale-out: ${line}`);
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}
function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : NaN;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: any };

async function api(app: App, action: string, params: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${app.url}/api/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ADMIN },
    body: JSON.stringify(params),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.json() };
}

/** `api`, failing the test unless it answers 200; returns `result`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(app: App, action: string, params: Record<string, unknown>): Promise<any> {
  const r = await api(app, action, params);
  if (r.status !== 200) throw new Error(`${action} through ${app.name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result;
}

describe.skipIf(!!unavailable)("scale-out: two app servers on a PostgreSQL primary and a streaming replica", () => {
  let primary: PgCluster;
  let replica: PgCluster;
  // Superuser sessions on database `app` of each cluster, for what the test observes.
  let onPrimary: pg.Client;
  let onReplica: pg.Client;
  let A: App;
  let B: App;
  const apps: App[] = [];

  async function connect(c: PgCluster): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: c.superUrl.replace(/\/postgres$/, "/app") });
    await client.connect();
    return client;
  }

  /** The generated table behind a resource id or alias, from the catalog on the primary. */
  async function tableOf(idOrAlias: string): Promise<string> {
    const r = await onPrimary.query(
      `SELECT r.table_name FROM "${SCHEMA}".datastore_resources r
        WHERE r.id = $1 OR r.id = (SELECT resource_id FROM "${SCHEMA}".datastore_aliases WHERE alias = $1)`,
      [idOrAlias],
    );
    if (!r.rows[0]) throw new Error(`no table for ${idOrAlias} in the catalog`);
    return r.rows[0].table_name as string;
  }

  /** Statements run so far on a cluster that name `table` (pg_stat_statements: counted in
   *  shared memory as each one ends, so a reading is exact at once). */
  async function statements(client: pg.Client, table: string): Promise<number> {
    const r = await client.query("SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_statements WHERE query LIKE '%' || $1 || '%'", [table]);
    return r.rows[0].n as number;
  }

  /** Waits until the replica has replayed everything committed on the primary so far: a
   *  marker row is committed after it (WAL is replayed in order), and the replica polled until
   *  it holds the marker. (Comparing LSNs is brittle here: with synchronous_commit off, the test
   *  cluster's setting, the write position can trail a commit and the insert position can lead
   *  what will ever be shipped while the primary is idle.) */
  let marker = 0;
  async function replicaCaughtUp(timeoutMs = 30_000): Promise<number> {
    const t0 = now();
    const n = ++marker;
    await onPrimary.query("INSERT INTO public.scale_out_marker (n) VALUES ($1)", [n]);
    for (;;) {
      const r = await onReplica.query("SELECT coalesce(max(n), 0)::int AS n FROM public.scale_out_marker");
      if (r.rows[0].n >= n) return now() - t0;
      if (now() - t0 > timeoutMs) throw new Error(`the replica did not replay marker ${n} within ${timeoutMs} ms`);
      await sleep(10);
    }
  }

  beforeAll(async () => {
    let t0 = now();
    // pg_stat_statements tells which cluster ran a statement; postgresql.conf (and so the
    // library) is copied to the replica by pg_basebackup.
    primary = await startCluster({ settings: { shared_preload_libraries: "'pg_stat_statements'", "pg_stat_statements.track": "all" } });
    note(`primary started (initdb + start) in ${ms(now() - t0)}, port ${primary.port}`);
    onPrimary = await connect(primary);
    await onPrimary.query("CREATE EXTENSION pg_stat_statements");
    // replicaCaughtUp's markers, flushed at once.
    await onPrimary.query("CREATE TABLE public.scale_out_marker (n integer); SET synchronous_commit = on");
    t0 = now();
    replica = await startReplica(primary, { settings: { hot_standby_feedback: "on" } });
    onReplica = await connect(replica);
    note(`replica started (pg_basebackup -R + start) in ${ms(now() - t0)}, port ${replica.port}; caught up after ${ms(await replicaCaughtUp())}`);
    expect((await onReplica.query("SELECT pg_is_in_recovery() AS r")).rows[0].r).toBe(true);

    // Both servers start at once on the empty database, both asked to load the sample data.
    const env = {
      DATASTORE_DATABASE_URL: primary.url(),
      DATASTORE_READ_DATABASE_URL: replica.url(),
      DATASTORE_PG_SCHEMA: SCHEMA,
      DATASTORE_PG_POOL: "4",
      DATASTORE_ADMIN_TOKEN: ADMIN,
      DATASTORE_SAMPLE_DATA: "1",
    };
    t0 = now();
    A = await startApp("A", env);
    B = await startApp("B", env);
    apps.push(A, B);
    await Promise.all([untilReady(A, 180_000), untilReady(B, 180_000)]);
    note(`app servers A and B ready ${ms(now() - t0)} after both were started`);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.kill()));
    await onPrimary?.end().catch(() => {});
    await onReplica?.end().catch(() => {});
    await replica?.stop();
    await primary?.stop();
    if (timings.length) console.log(["", "scale-out timings:", ...timings.map((t) => `  ${t}`), ""].join("\n"));
  });

  it("starting together on one empty database, exactly one server loads the sample data", async () => {
    const loaded = apps.filter((a) => /loaded \d+ sample resources/.test(a.output()));
    const lost = apps.filter((a) => a.output().includes("another server loaded the sample data"));
    note(`sample data: loaded by ${loaded.map((a) => a.name).join(", ") || "none"}; ${lost.length ? `${lost.map((a) => a.name).join(", ")} lost the race and carried on` : "the other found it loaded"}`);
    expect(loaded.length, apps.map((a) => `--- ${a.name}:\n${a.output()}`).join("\n")).toBe(1);
    // Both serve it, from either cluster.
    for (const app of apps) expect((await ok(app, "datastore_search", { resource_id: "airports", limit: 0 })).total).toBe(3376);
  });

  let rid: string;
  let table: string;

  it("1. a write through A is read through B at once", async () => {
    const created = await ok(A, "datastore_create", {
      resource: { name: "scale-out" },
      fields: [
        { id: "k", type: "int" },
        { id: "v", type: "text" },
      ],
      primary_key: "k",
      records: [0, 1, 2, 3, 4].map((k) => ({ k, v: "initial" })),
    });
    rid = created.resource_id;
    table = await tableOf(rid);
    // Updates of existing keys: a read from a replica behind the write would find the old value.
    const writeMs: number[] = [];
    const readMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const k = i % 5;
      let t = now();
      await ok(A, "datastore_upsert", { resource_id: rid, method: "upsert", records: [{ k, v: `round ${i}` }] });
      writeMs.push(now() - t);
      t = now();
      const found = await ok(B, "datastore_search", { resource_id: rid, filters: { k } });
      readMs.push(now() - t);
      expect(found.records.map((r: { v: string }) => r.v)).toEqual([`round ${i}`]);
    }
    note(`write through A then read through B, 30 rounds: upsert median ${ms(median(writeMs))}, search median ${ms(median(readMs))} (p95 ${ms(p95(readMs))}), every read saw its write`);
  });

  it("1b. while the replica is paused, B reads a resource just written from the primary, others from the replica", async () => {
    await replicaCaughtUp();
    const airports = await tableOf("airports");
    await onReplica.query("SELECT pg_wal_replay_pause()");
    try {
      for (let t0 = now(); ; await sleep(10)) {
        if ((await onReplica.query("SELECT pg_get_wal_replay_pause_state() AS s")).rows[0].s === "paused") break;
        if (now() - t0 > 10_000) throw new Error("the replica did not pause replay");
      }
      await ok(A, "datastore_upsert", { resource_id: rid, method: "upsert", records: [{ k: 100, v: "written while the replica is paused" }] });
      // Counted from here: the write itself ran on the primary.
      const before = { p: await statements(onPrimary, table), r: await statements(onReplica, table), ap: await statements(onPrimary, airports), ar: await statements(onReplica, airports) };
      const found = await ok(B, "datastore_search", { resource_id: rid, filters: { k: 100 } });
      expect(found.records.map((r: { v: string }) => r.v)).toEqual(["written while the replica is paused"]);
      for (let i = 0; i < 5; i++) await ok(B, "datastore_search", { resource_id: "airports", q: "portland", limit: 5 });
      const after = { p: await statements(onPrimary, table), r: await statements(onReplica, table), ap: await statements(onPrimary, airports), ar: await statements(onReplica, airports) };
      note(
        `replica paused: the written resource's search ran on the primary (statements +${after.p - before.p} primary, +${after.r - before.r} replica); ` +
          `5 airports searches (unchanged resource): +${after.ar - before.ar} replica, +${after.ap - before.ap} primary`,
      );
      expect(after.p - before.p, "the search of the just-written resource ran on the primary").toBeGreaterThan(0);
      expect(after.r - before.r, "nothing of it ran on the paused replica").toBe(0);
      expect(after.ar - before.ar, "an unchanged resource is still read from the replica").toBeGreaterThanOrEqual(5);
      expect(after.ap - before.ap).toBe(0);
    } finally {
      await onReplica.query("SELECT pg_wal_replay_resume()");
    }
    note(`replica resumed; caught up after ${ms(await replicaCaughtUp())}`);
  });

  it("2. searches are served from the replica", async () => {
    await replicaCaughtUp();
    const before = { p: await statements(onPrimary, table), r: await statements(onReplica, table) };
    const t0 = now();
    const N = 40;
    for (let i = 0; i < N; i++) {
      const app = i % 2 ? B : A;
      const params = i % 4 < 2 ? { resource_id: rid, filters: { k: i % 5 } } : { resource_id: rid, q: "round", sort: "k desc", limit: 3 };
      const res = await ok(app, "datastore_search", params);
      expect(res.records.length).toBeGreaterThan(0);
    }
    const took = now() - t0;
    const after = { p: await statements(onPrimary, table), r: await statements(onReplica, table) };
    note(`${N} searches through A and B in ${ms(took)}: statements on the resource's table +${after.r - before.r} on the replica, +${after.p - before.p} on the primary`);
    expect(after.r - before.r).toBeGreaterThanOrEqual(N);
    expect(after.p - before.p).toBe(0);
  });

  // Filled by test 3, judged by test 4.
  const reads = { ok: 0, ms: [] as number[], failures: [] as string[] };
  let streamId: string;
  let streamBatches = 0;
  const BATCH = 2000;

  it("3. SIGKILL of A in the middle of a stream of upserts loses no acknowledged write", async () => {
    streamId = (
      await ok(A, "datastore_create", {
        resource: { name: "scale-out stream" },
        fields: [
          { id: "k", type: "int" },
          { id: "v", type: "text" },
        ],
        primary_key: "k",
      })
    ).resource_id;

    // B is read all along, from the first upsert until after the check.
    let reading = true;
    const reader = (async () => {
      for (let i = 0; reading; i++) {
        const t = now();
        try {
          const r = await api(B, "datastore_search", i % 2 ? { resource_id: streamId, sort: "k desc", limit: 5 } : { resource_id: "airports", q: "portland", limit: 5 });
          if (r.status === 200) {
            reads.ok++;
            reads.ms.push(now() - t);
          } else reads.failures.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        } catch (e) {
          reads.failures.push(String(e));
        }
        await sleep(5);
      }
    })();

    // Three clients upsert batches of new keys through A, one request each at a time.
    let next = 0;
    const acked = new Set<number>();
    const rejected = new Set<number>();
    const unexpected: string[] = [];
    const upsertMs: number[] = [];
    let wake: () => void = () => {};
    const enoughAcked = new Promise<void>((r) => (wake = r));
    const client = async () => {
      for (;;) {
        const b = next++;
        const t = now();
        try {
          const records = Array.from({ length: BATCH }, (_, j) => ({ k: b * BATCH + j, v: `batch ${b}` }));
          const r = await api(A, "datastore_upsert", { resource_id: streamId, method: "upsert", records });
          if (r.status !== 200) {
            unexpected.push(`batch ${b}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
            rejected.add(b);
            return;
          }
          acked.add(b);
          upsertMs.push(now() - t);
          if (acked.size >= 12) wake();
        } catch {
          rejected.add(b); // the connection died: A was killed before it answered
          return;
        }
      }
    };
    const t0 = now();
    const clients = Promise.all([client(), client(), client()]);
    await Promise.race([enoughAcked, clients]);
    expect(unexpected).toEqual([]);
    // Land the kill halfway through the requests now running.
    await sleep(median(upsertMs) / 2);
    // Write transactions open on the primary (only A writes now; reads take no transaction id).
    const openWrites = async () =>
      (await onPrimary.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = 'app' AND backend_xid IS NOT NULL")).rows[0].n as number;
    const openAtKill = await openWrites();
    const killedAt = now();
    await A.kill();
    await clients;
    // The requests that never got an answer: in flight at the kill, or sent just after it.
    const unanswered = [...rejected].sort((a, b) => a - b);
    streamBatches = next;
    // PostgreSQL sees A's connections close and rolls back what they had open.
    let rolledBackMs = NaN;
    for (;;) {
      if ((await openWrites()) === 0) {
        rolledBackMs = now() - killedAt;
        break;
      }
      if (now() - killedAt > 30_000) throw new Error("A's write transactions were still open on the primary 30 s after the kill");
      await sleep(10);
    }
    note(
      `stream: ${acked.size} batches of ${BATCH} acknowledged in ${ms(killedAt - t0)} (upsert median ${ms(median(upsertMs))}); ` +
        `SIGKILL of A with ${openAtKill} write transactions open on the primary, ` +
        `gone ${ms(rolledBackMs)} after the kill`,
    );
    expect(unexpected).toEqual([]);

    // Every batch, read through B: acknowledged ones whole; any other whole or absent.
    const t1 = now();
    const present: number[] = [];
    for (let b = 0; b < next; b++) {
      const byKey = await ok(B, "datastore_search", { resource_id: streamId, filters: { k: { gte: b * BATCH, lte: b * BATCH + BATCH - 1 } }, limit: 0 });
      const byTag = await ok(B, "datastore_search", { resource_id: streamId, filters: { v: `batch ${b}` }, limit: 0 });
      expect(byKey.total, `batch ${b}`).toBe(byTag.total);
      if (acked.has(b)) expect(byKey.total, `acknowledged batch ${b}`).toBe(BATCH);
      else expect([0, BATCH], `unacknowledged batch ${b} (${byKey.total} rows)`).toContain(byKey.total);
      if (byKey.total === BATCH) present.push(b);
    }
    const total = (await ok(B, "datastore_search", { resource_id: streamId, limit: 0 })).total;
    expect(total).toBe(present.length * BATCH);
    const streamTable = await tableOf(streamId);
    const direct = (await onPrimary.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."${streamTable}"`)).rows[0].n;
    expect(direct).toBe(present.length * BATCH);
    const committedUnanswered = unanswered.filter((b) => present.includes(b));
    note(
      `after the kill, through B in ${ms(now() - t1)}: all ${acked.size} acknowledged batches whole; of the ${unanswered.length} ` +
        `unanswered (${unanswered.join(", ")}) ${committedUnanswered.length} committed whole (${committedUnanswered.join(", ") || "none"}), ` +
        `the rest absent; ${total} rows (the primary counts ${direct})`,
    );
    reading = false;
    await reader;
  }, 180_000);

  it("4. B kept serving throughout, and serves writes and reads after", async () => {
    note(`B during the stream and the kill: ${reads.ok} searches answered 200, ${reads.failures.length} failed; median ${ms(median(reads.ms))}, p95 ${ms(p95(reads.ms))}`);
    expect(reads.failures).toEqual([]);
    expect(reads.ok).toBeGreaterThan(0);
    // A's sessions died with it: B writes the same resource at once (no lock left behind).
    let t = now();
    await ok(B, "datastore_upsert", { resource_id: streamId, method: "upsert", records: [{ k: -1, v: "after the kill" }] });
    const found = await ok(B, "datastore_search", { resource_id: streamId, filters: { k: -1 } });
    expect(found.records.map((r: { v: string }) => r.v)).toEqual(["after the kill"]);
    note(`B after the kill: upsert + read of it in ${ms(now() - t)}`);
    // Once the replica has caught up, B reads the whole stream from it.
    t = now();
    const lag = await replicaCaughtUp();
    const streamTable = await tableOf(streamId);
    const before = { p: await statements(onPrimary, streamTable), r: await statements(onReplica, streamTable) };
    const all = await ok(B, "datastore_search", { resource_id: streamId, filters: { k: { gte: 0, lt: streamBatches * BATCH } }, limit: 0 });
    const after = { p: await statements(onPrimary, streamTable), r: await statements(onReplica, streamTable) };
    const direct = (await onReplica.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."${streamTable}"`)).rows[0].n;
    expect(after.r - before.r).toBeGreaterThan(0);
    expect(after.p - before.p).toBe(0);
    expect(all.total + 1).toBe(direct);
    note(`replica caught up in ${ms(lag)}; B's count of the stream (${all.total} rows) came from the replica; ${ms(now() - t)} in all`);
  }, 60_000);
});
