// The primary restart under load, at the issue's length (issue 24's goal: "a primary restart
// during a 30-second load: 0 answers of 500, every acknowledged write present"): a throwaway
// cluster (lib/test/pg-cluster.ts), an API server on it, three writers upserting and two readers
// searching through it for 30 s, and `pg_ctl restart -m fast` of the primary 10 s in.
// lib/datastore/postgres/primary-restart.test.ts runs the same for 5 s. Prints the figures
// docs/performance.md quotes.
//   npx tsx scripts/restart-under-load.ts [--seconds 30] [--restart-at 10]
import { parseArgs } from "node:util";
import { startApiServer } from "../lib/test/api-server";
import { pgUnavailableReason, startCluster } from "../lib/test/pg-cluster";
import { loadThroughRestart, missingKeys } from "../lib/test/restart-load";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "30" }, "restart-at": { type: "string", default: "10" } } });
const TOKEN = "restart-under-load-token";

async function main(): Promise<number> {
  const unavailable = pgUnavailableReason();
  if (unavailable) {
    console.error(`no PostgreSQL to start: ${unavailable}`);
    return 2;
  }
  const cluster = await startCluster();
  const app = await startApiServer({ DATASTORE_DATABASE_URL: cluster.url(), DATASTORE_READ_DATABASE_URL: "", DATASTORE_PG_POOL: "8", DATASTORE_ADMIN_TOKEN: TOKEN });
  try {
    const res = await fetch(`${app.url}/api/action/datastore_create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: TOKEN },
      body: JSON.stringify({
        resource: { name: "restart" },
        fields: [
          { id: "k", type: "int" },
          { id: "v", type: "text" },
        ],
        primary_key: "k",
        records: Array.from({ length: 100 }, (_, k) => ({ k, v: `initial ${k}` })),
      }),
    });
    const rid = ((await res.json()) as { result: { resource_id: string } }).result.resource_id;
    const report = await loadThroughRestart({ url: app.url, token: TOKEN, resourceId: rid, cluster, durationMs: Number(values.seconds) * 1000, restartAtMs: Number(values["restart-at"]) * 1000 });
    const missing = await missingKeys(app.url, TOKEN, rid, report.acknowledged);
    const s = (ms: number | null) => (ms === null ? "never" : `${(ms / 1000).toFixed(1)} s`);
    console.log(`requests: ${report.requests}; answers by status: ${JSON.stringify(report.statuses)}; other than 200 without Retry-After: ${report.withoutRetryAfter}`);
    console.log(`pg_ctl restart -m fast took ${s(report.restartMs)}; 503s over ${s(report.outageMs)}; first 200 after the restart began: ${s(report.recoveredMs)}`);
    console.log(`acknowledged upserts: ${report.acknowledged.length} keys; missing afterwards: ${missing.length}`);
    for (const f of [...report.failures, ...report.retryLater]) console.log(`  ${f}`);
    const fives = Object.keys(report.statuses).filter((status) => Number(status) >= 500 && status !== "503");
    return fives.length || missing.length || report.withoutRetryAfter || report.failures.length ? 1 : 0;
  } finally {
    await app.stop();
    await cluster.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
