// The bench's "mixed load" scenario: cheap, index-backed pages read by two clients while two
// other clients run slow searches (a sort on an unindexed field; full text ANDed with an
// unindexed filter, with a total). Reports the cheap pages' median and p95, alone and beside
// the slow clients, and the slow searches' throughput. `mixedLoad` takes the bench's own
// request function; run standalone against a server with:
//   npx tsx scripts/bench-mixed.ts --mixed-load --url http://127.0.0.1:3999 [--resource flights-3m] [--seconds 10]

import http from "node:http";
import { parseArgs } from "node:util";

type Body = Record<string, unknown>;
export type Post = (action: string, body: Body) => Promise<{ status: number; ms: number }>;

export interface MixedLoadOptions {
  post: Post;
  resourceId: string;
  /** Seconds of cheap pages beside the slow clients (default 10). */
  seconds?: number;
  /** Seconds of cheap pages alone first, for comparison (default 5; 0 skips). */
  aloneSeconds?: number;
}

interface Latencies {
  n: number;
  median: number;
  p95: number;
  errors: number;
}

export interface MixedLoadResult {
  cheapAlone: Latencies | null;
  cheap: Latencies & { byQuery: Record<string, Latencies> };
  slow: { completed: number; perSecond: number; median: number; timeouts: number; errors: number; byQuery: Record<string, Latencies> };
  seconds: number;
}

export const CHEAP_QUERIES: { name: string; body: Body }[] = [
  { name: "first page", body: { limit: 100 } },
  { name: "origin=SEA + total", body: { filters: { origin: "SEA" }, limit: 100 } },
];

export const SLOW_QUERIES: { name: string; body: Body }[] = [
  { name: "sort distance desc", body: { sort: "distance desc", limit: 100, include_total: false } },
  { name: "q=Portland AND distance >= 1000 + total", body: { q: "Portland", filters: { distance: { gte: 1000 } }, limit: 100 } },
];

function latencies(samples: { ms: number; ok: boolean }[]): Latencies {
  const s = samples.map((x) => x.ms).sort((a, b) => a - b);
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN);
  return { n: s.length, median: at(0.5), p95: at(0.95), errors: samples.filter((x) => !x.ok).length };
}

/** Cheap clients alternate the two cheap queries (each starting on a different one) until `until`. */
async function cheapClients(o: MixedLoadOptions, until: () => boolean): Promise<Map<string, { ms: number; ok: boolean }[]>> {
  const out = new Map(CHEAP_QUERIES.map((q) => [q.name, [] as { ms: number; ok: boolean }[]]));
  await Promise.all(
    [0, 1].map(async (client) => {
      for (let i = client; !until(); i++) {
        const q = CHEAP_QUERIES[i % CHEAP_QUERIES.length];
        const res = await o.post("datastore_search", { resource_id: o.resourceId, ...q.body });
        out.get(q.name)!.push({ ms: res.ms, ok: res.status === 200 });
      }
    }),
  );
  return out;
}

export async function mixedLoad(o: MixedLoadOptions): Promise<MixedLoadResult> {
  const seconds = o.seconds ?? 10;
  const aloneSeconds = o.aloneSeconds ?? 5;
  // Warm up: the file cache, statements, and each slow query once.
  for (const q of [...CHEAP_QUERIES, ...SLOW_QUERIES]) await o.post("datastore_search", { resource_id: o.resourceId, ...q.body });
  let cheapAlone: Latencies | null = null;
  if (aloneSeconds > 0) {
    const end = Date.now() + aloneSeconds * 1000;
    cheapAlone = latencies([...(await cheapClients(o, () => Date.now() >= end)).values()].flat());
  }

  let slowRunning = true;
  const slowTimes = new Map(SLOW_QUERIES.map((q) => [q.name, [] as { ms: number; ok: boolean; status: number }[]]));
  const slow = Promise.all(
    SLOW_QUERIES.map(async (q) => {
      while (slowRunning) {
        const res = await o.post("datastore_search", { resource_id: o.resourceId, ...q.body });
        // Only searches that ended inside the measured window count towards throughput.
        if (slowRunning) slowTimes.get(q.name)!.push({ ms: res.ms, ok: res.status === 200, status: res.status });
      }
    }),
  );
  // Let both slow clients get going before the cheap pages are timed.
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  const cheap = await cheapClients(o, () => Date.now() >= end);
  slowRunning = false;
  const elapsed = (Date.now() - t0) / 1000;
  await slow;

  const slowAll = [...slowTimes.values()].flat();
  const completed = slowAll.filter((x) => x.ok).length;
  return {
    cheapAlone,
    cheap: { ...latencies([...cheap.values()].flat()), byQuery: Object.fromEntries([...cheap].map(([k, v]) => [k, latencies(v)])) },
    slow: {
      completed,
      perSecond: completed / elapsed,
      median: latencies(slowAll.filter((x) => x.ok)).median,
      timeouts: slowAll.filter((x) => x.status === 409).length,
      errors: slowAll.filter((x) => !x.ok).length,
      byQuery: Object.fromEntries([...slowTimes].map(([k, v]) => [k, latencies(v)])),
    },
    seconds: elapsed,
  };
}

/** The result as printed lines. */
export function formatMixedLoad(r: MixedLoadResult): string[] {
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const lines: string[] = [];
  if (r.cheapAlone) lines.push(`mixed load: cheap pages alone (2 clients): median ${f(r.cheapAlone.median)} ms, p95 ${f(r.cheapAlone.p95)} ms (n=${r.cheapAlone.n}, ${r.cheapAlone.errors} errors)`);
  lines.push(`mixed load: cheap pages beside 2 slow clients: median ${f(r.cheap.median)} ms, p95 ${f(r.cheap.p95)} ms (n=${r.cheap.n}, ${r.cheap.errors} errors)`);
  for (const [name, l] of Object.entries(r.cheap.byQuery)) lines.push(`  cheap ${name}: median ${f(l.median)} ms, p95 ${f(l.p95)} ms (n=${l.n})`);
  lines.push(
    `mixed load: slow searches: ${r.slow.perSecond.toFixed(2)}/s (${r.slow.completed} in ${r.seconds.toFixed(1)} s), median ${f(r.slow.median)} ms, ${r.slow.timeouts} timeouts (409), ${r.slow.errors} errors`,
  );
  for (const [name, l] of Object.entries(r.slow.byQuery)) lines.push(`  slow ${name}: ${l.n} done, median ${f(l.median)} ms`);
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "mixed-load": { type: "boolean" },
      url: { type: "string", default: "http://127.0.0.1:3000" },
      resource: { type: "string", default: "flights-3m" },
      seconds: { type: "string", default: "10" },
      "alone-seconds": { type: "string", default: "5" },
      token: { type: "string" },
    },
  });
  const base = new URL(values.url!);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const post: Post = (action, body) => {
    const payload = JSON.stringify(body);
    const t = process.hrtime.bigint();
    const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(payload) };
    if (values.token) headers.authorization = values.token;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: base.hostname, port: base.port, path: `/api/action/${action}`, method: "POST", agent, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - t) / 1e6 }));
      });
      req.on("error", reject);
      req.end(payload);
    });
  };
  const result = await mixedLoad({ post, resourceId: values.resource!, seconds: Number(values.seconds), aloneSeconds: Number(values["alone-seconds"]) });
  for (const line of formatMixedLoad(result)) console.log(line);
  agent.destroy();
}

if (process.argv.includes("--mixed-load")) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
