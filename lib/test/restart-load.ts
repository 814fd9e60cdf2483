// A load of reads and upserts through an app server while its PostgreSQL primary restarts
// (issue 24: "a primary restart under load"), for primary-restart.test.ts (a few seconds) and
// scripts/restart-under-load.ts (30 s). Each writer upserts batches of new keys, so a key whose
// upsert was answered 200 (acknowledged) must be there afterwards; each reader searches. Every
// answer's status is counted, and whether each answer other than 200 said when to try again.
import type { PgCluster } from "./pg-cluster";

export interface RestartLoadOptions {
  /** The app server's origin. */
  url: string;
  token: string;
  /** A resource with fields k (int, its primary key) and v (text). */
  resourceId: string;
  cluster: PgCluster;
  /** How long the load runs in all, and when (from its start) the primary restarts. */
  durationMs: number;
  restartAtMs: number;
  /** The load goes on at least this long after the primary is back (default 2 s), however long
   *  the restart took. */
  afterRestartMs?: number;
  writers?: number;
  readers?: number;
  /** Records per upsert. */
  batch?: number;
}

export interface RestartLoadReport {
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Answers other than 200 without a Retry-After header. */
  withoutRetryAfter: number;
  /** Requests that got no answer at all (the app server unreachable), and a sample of the
   *  answers other than 200 without Retry-After. */
  failures: string[];
  /** A sample of the answers other than 503 that said when to try again (Retry-After). */
  retryLater: string[];
  /** Keys whose upsert answered 200. */
  acknowledged: number[];
  /** How long pg_ctl restart took (ms), from its start. */
  restartMs: number;
  /** From the restart's start to the first 200 of a request sent after the primary was back
   *  (ms), or null if none came. */
  recoveredMs: number | null;
  /** From the first 503 to the last (ms), or 0: how long the outage was seen. */
  outageMs: number;
  requests: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function loadThroughRestart(o: RestartLoadOptions): Promise<RestartLoadReport> {
  const report: RestartLoadReport = { statuses: {}, withoutRetryAfter: 0, failures: [], retryLater: [], acknowledged: [], restartMs: 0, recoveredMs: null, outageMs: 0, requests: 0 };
  const started = performance.now();
  let restartStarted = Infinity;
  let restartDone = Infinity;
  let firstBad = Infinity;
  let lastBad = -Infinity;
  const stopAt = started + o.durationMs;
  const going = () => performance.now() < Math.max(stopAt, restartDone + (o.afterRestartMs ?? 2_000));

  const call = async (action: string, params: Record<string, unknown>): Promise<number> => {
    const sent = performance.now();
    report.requests++;
    let res: Response;
    try {
      res = await fetch(`${o.url}/api/action/${action}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: o.token },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (e) {
      if (report.failures.length < 20) report.failures.push(`${action}: no answer (${(e as Error).message})`);
      return 0;
    }
    const body = await res.text();
    const now = performance.now();
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
    if (res.status === 200) {
      if (sent >= restartDone && report.recoveredMs === null) report.recoveredMs = now - restartStarted;
    } else {
      if (res.status === 503) {
        firstBad = Math.min(firstBad, now);
        lastBad = Math.max(lastBad, now);
      }
      const sample = `${action}: ${res.status} ${body.slice(0, 300)}`;
      if (!res.headers.get("retry-after")) {
        report.withoutRetryAfter++;
        if (report.failures.length < 20) report.failures.push(sample);
      } else if (res.status !== 503 && report.retryLater.length < 5) report.retryLater.push(sample);
    }
    return res.status;
  };

  const writer = async (w: number) => {
    const batch = o.batch ?? 5;
    for (let i = 0; going(); i++) {
      const keys = Array.from({ length: batch }, (_, j) => (w + 1) * 10_000_000 + i * batch + j);
      const status = await call("datastore_upsert", { resource_id: o.resourceId, method: "upsert", records: keys.map((k) => ({ k, v: `w${w} ${i}` })) });
      if (status === 200) report.acknowledged.push(...keys);
      else await sleep(20); // a client told to come back later does not spin
    }
  };
  const reader = async (r: number) => {
    for (let i = 0; going(); i++) {
      const params = i % 2 ? { resource_id: o.resourceId, filters: { k: i % 100 } } : { resource_id: o.resourceId, q: `w${r}`, sort: "k desc", limit: 5 };
      if ((await call("datastore_search", params)) !== 200) await sleep(20);
    }
  };
  const restart = async () => {
    await sleep(o.restartAtMs);
    restartStarted = performance.now();
    try {
      await o.cluster.restart();
    } finally {
      restartDone = performance.now(); // a failed restart ends the load too
      report.restartMs = restartDone - restartStarted;
    }
  };

  await Promise.all([
    restart(),
    ...Array.from({ length: o.writers ?? 3 }, (_, w) => writer(w)),
    ...Array.from({ length: o.readers ?? 2 }, (_, r) => reader(r)),
  ]);
  report.outageMs = lastBad >= firstBad ? lastBad - firstBad : 0;
  return report;
}

/** Keys of the resource that are missing among `keys` (read back through the app server). */
export async function missingKeys(url: string, token: string, resourceId: string, keys: number[]): Promise<number[]> {
  const present = new Set<number>();
  for (let offset = 0; ; offset += 32_000) {
    const res = await fetch(`${url}/api/action/datastore_search`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: token },
      body: JSON.stringify({ resource_id: resourceId, fields: "k", sort: "k", limit: 32_000, offset, include_total: false }),
    });
    if (res.status !== 200) throw new Error(`reading the keys back: ${res.status} ${await res.text()}`);
    const records = ((await res.json()) as { result: { records: { k: number }[] } }).result.records;
    for (const r of records) present.add(r.k);
    if (records.length < 32_000) break;
  }
  return keys.filter((k) => !present.has(k));
}
