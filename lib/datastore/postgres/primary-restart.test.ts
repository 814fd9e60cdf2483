// Operations a DBA expects, on a throwaway cluster of this file's own (lib/test/pg-cluster.ts),
// as the primary is restarted under it:
//   - a primary restart (pg_ctl restart -m fast) during a load of reads and upserts through an
//     app server: every answer is 200, or 503 with Retry-After, never a 500 (a read that a
//     write overtook twice may answer 409 with Retry-After too); every upsert answered 200 is
//     there afterwards; the app server serves again by itself;
//   - a write's statement timeout (DATASTORE_WRITE_TIMEOUT_MS) answers 409, and writes nothing.
// The 30-second run of the same load is scripts/restart-under-load.ts (docs/performance.md).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../test/api-server";
import { pgUnavailableReason, sql, startCluster, type PgCluster } from "../../test/pg-cluster";
import { loadThroughRestart, missingKeys } from "../../test/restart-load";

const ADMIN = "primary-restart-admin-token";
const SCHEMA = "datastore";
const unavailable = pgUnavailableReason();
if (unavailable) console.warn(`primary restart test skipped: ${unavailable}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(app: ApiServer, action: string, params: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/api/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ADMIN },
    body: JSON.stringify(params),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: await res.json() };
}

describe.skipIf(!!unavailable)("a PostgreSQL primary restarting under load", () => {
  let cluster: PgCluster;
  let app: ApiServer;
  let rid: string;

  beforeAll(async () => {
    cluster = await startCluster();
    app = await startApiServer({
      DATASTORE_DATABASE_URL: cluster.url(),
      DATASTORE_READ_DATABASE_URL: "",
      DATASTORE_PG_SCHEMA: SCHEMA,
      DATASTORE_PG_POOL: "4",
      DATASTORE_ADMIN_TOKEN: ADMIN,
      DATASTORE_WRITE_TIMEOUT_MS: "2000",
    });
    const created = await api(app, "datastore_create", {
      resource: { name: "restart" },
      fields: [
        { id: "k", type: "int" },
        { id: "v", type: "text" },
      ],
      primary_key: "k",
      records: Array.from({ length: 100 }, (_, k) => ({ k, v: `initial ${k}` })),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    rid = created.body.result.resource_id;
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await cluster?.stop();
  });

  it("answers 200, or 503 with Retry-After, never 500, loses no acknowledged write, and serves again by itself", async () => {
    const report = await loadThroughRestart({ url: app.url, token: ADMIN, resourceId: rid, cluster, durationMs: 5_000, restartAtMs: 1_000 });
    console.info(`primary restart under load: ${JSON.stringify({ ...report, acknowledged: report.acknowledged.length })}`);
    expect(report.failures, app.output()).toEqual([]);
    for (const status of Object.keys(report.statuses)) expect(["200", "503", "409"], `status ${status}: ${app.output()}`).toContain(status);
    expect(report.withoutRetryAfter).toBe(0);
    // The load spanned the restart: answers came after the primary was back, without restarting the app server.
    expect(report.recoveredMs, app.output()).not.toBeNull();
    expect(report.acknowledged.length).toBeGreaterThan(0);
    expect(await missingKeys(app.url, ADMIN, rid, report.acknowledged)).toEqual([]);
    const after = await api(app, "datastore_upsert", { resource_id: rid, method: "upsert", records: [{ k: 1, v: "after the restart" }] });
    expect(after.status).toBe(200);
  });

  it("rolls a write back past DATASTORE_WRITE_TIMEOUT_MS and answers 409, saying so", async () => {
    // Another session holds the resource's catalog row: the write waits for it past its time limit.
    const table = (await sql(cluster.url(), `SELECT table_name FROM "${SCHEMA}".datastore_resources WHERE id = '${rid}'`))[0].rows[0].table_name as string;
    const holder = new pg.Client({ connectionString: cluster.url() });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "${SCHEMA}".datastore_resources WHERE id = $1 FOR UPDATE`, [rid]);
      const t0 = performance.now();
      const r = await api(app, "datastore_upsert", { resource_id: rid, method: "upsert", records: [{ k: 5_000, v: "too late" }] });
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(r.status).toBe(409);
      expect(r.body.error).toEqual({
        __type: "Validation Error",
        database: [expect.stringMatching(/^the write took longer than 2000 ms \(DATASTORE_WRITE_TIMEOUT_MS\) and was rolled back: nothing was written/)],
      });
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    const [found] = await sql(cluster.url(), `SELECT count(*)::int AS n FROM "${SCHEMA}"."${table}" WHERE c1 = 5000`);
    expect(found.rows).toEqual([{ n: 0 }]);
    expect((await api(app, "datastore_upsert", { resource_id: rid, method: "upsert", records: [{ k: 5_000, v: "in time" }] })).status).toBe(200);
  });
});
