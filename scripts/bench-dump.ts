// The dump's formats on the 3M-row bench table (npm run bench builds data/bench/bench.db): a
// format's time (wall and CPU) and the process's peak RSS above its resting size, in-process
// through the dump route, one format and the CSV it is compared with a process (RSS never
// shrinks back), with the V8 flag `npm start` runs with (memory differs without it). On a copy:
//   cp data/bench/bench.db /tmp/bench.db
//   for f in csv,ndjson csv,geojson csv,parquet csv,xlsx; do NODE_OPTIONS=--max-semi-space-size=2 DATASTORE_DB=/tmp/bench.db BENCH_FORMATS=$f npx tsx scripts/bench-dump.ts; done
// XLSX stops at 1,048,575 rows, so every format is also timed on the first 1,000,000 rows.
import { loadRoutes } from "../lib/server/routes";

const RESOURCE = process.env.BENCH_RESOURCE ?? "flights-3m";
const FORMATS = (process.env.BENCH_FORMATS ?? "csv,ndjson,geojson,parquet,xlsx").split(",");
/** `all`, `1m` or both (the default): the whole table, its first 1,000,000 rows. */
const ROWS = (process.env.BENCH_ROWS ?? "all,1m").split(",");

async function run(format: string, limit?: number) {
  const routes = await loadRoutes(new URL("../app", import.meta.url).pathname);
  const path = `/datastore/dump/${RESOURCE}`;
  const match = routes(path)!;
  const qs = new URLSearchParams({ format, ...(limit ? { limit: String(limit) } : {}) });
  let peak = process.memoryUsage().rss;
  let atPeak = process.memoryUsage();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peak) [peak, atPeak] = [m.rss, m];
  }, 50);
  const start = performance.now();
  const cpu = process.cpuUsage();
  const res = await match.handler("GET")!(new Request(`http://localhost${path}?${qs}`), { params: Promise.resolve(match.params) });
  let bytes = 0;
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) bytes += piece.length;
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  // CPU time (all the process's threads) moves less than wall time on a shared, loaded machine
  return { status: res.status, ms, cpuMs: (used.user + used.system) / 1000, bytes, peak, atPeak };
}

async function main() {
  await run("csv", 10); // opens the engine and its read workers
  global.gc?.();
  await new Promise((r) => setTimeout(r, 2000));
  const resting = process.memoryUsage();
  const rest = resting.rss;
  const mb = (n: number) => (n / 2 ** 20).toFixed(0);
  // where the peak's memory was: V8's heap, and buffers outside it
  const parts = (m: NodeJS.MemoryUsage) => `heap ${mb(m.heapTotal)} (used ${mb(m.heapUsed)}), buffers ${mb(m.arrayBuffers)} MB`;
  console.log(`resting RSS ${mb(rest)} MB: ${parts(resting)}`);
  for (const limit of ROWS.map((r) => (r === "all" ? undefined : 1_000_000))) {
    let csv = { ms: 0, cpuMs: 0 };
    for (const format of FORMATS) {
      const r = await run(format, limit);
      if (format === "csv") csv = r;
      const ratio = (a: number, b: number) => (b ? ` (${(a / b).toFixed(2)}x csv)` : "");
      console.log(
        `${limit ? "1M rows" : "all rows"} ${format.padEnd(8)} ${r.status} ${(r.ms / 1000).toFixed(1)} s${ratio(r.ms, csv.ms)}, cpu ${(r.cpuMs / 1000).toFixed(1)} s${ratio(r.cpuMs, csv.cpuMs)}, ${mb(r.bytes)} MB, peak RSS +${mb(r.peak - rest)} MB (${parts(r.atPeak)})`,
      );
    }
  }
  process.exit(0);
}

void main();
