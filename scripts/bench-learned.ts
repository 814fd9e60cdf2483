// The bench's "as imported" scenario for learned indexes: against a running server on a
// database imported without `--index` (nobody declared an index on `distance`), page through
// `sort: "distance desc"` until a page comes back fast, while a writer upserts small records
// into a scratch resource. Reports each page's time, the learned index's build time (from
// datastore_info) and the writes' latency: its maximum is the longest write stall the build
// caused. scripts/bench.ts calls benchLearned() and printLearned(); run alone:
//   node --import tsx scripts/bench-learned.ts <port> <admin token> <resource id>
import http from "node:http";

type Body = Record<string, unknown>;
type Answer = { status: number; ms: number; json: () => unknown };

export interface LearnedBenchOptions {
  /** Reads, as bench.ts's post() sends them (no token needed for a public resource). */
  post: (action: string, body: Body) => Promise<Answer>;
  resourceId: string;
  /** Where the server listens and an admin token: the writer needs write access. */
  port: number;
  token: string;
  /** The field sorted on (default distance), a page's rows (100), fast means under (10 ms). */
  field?: string;
  limit?: number;
  fastMs?: number;
  /** Pages tried at most (default 40), a pause between pages (250 ms), as a user pages. */
  maxPages?: number;
  pauseMs?: number;
}

export interface LearnedBenchResult {
  field: string;
  /** The field had an index before the run (a database reused from a run that learned it). */
  indexedBefore: string | null;
  pages: { offset: number; ms: number }[];
  /** 1-based number of the first fast page, or null if none came within maxPages. */
  firstFastPage: number | null;
  /** Median of five more pages after the first fast one. */
  fastMedianMs: number | null;
  learned: { build_ms: number; size: number; slow_reads: number } | null;
  writes: { count: number; errors: number; medianMs: number; p99Ms: number; maxMs: number; baselineMaxMs: number };
  readErrors: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

function quantile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
}

function authorizedPost(port: number, token: string, action: string, body: Body): Promise<Answer> {
  const payload = JSON.stringify(body);
  const t = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: `/api/action/${action}`,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), authorization: token },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - t) / 1e6, json: () => JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

type IndexInfo = { fields: string[]; reason: string; learned?: { build_ms: number; size: number; slow_reads: number } };

async function indexesOf(post: LearnedBenchOptions["post"], resourceId: string): Promise<IndexInfo[]> {
  const res = await post("datastore_info", { resource_id: resourceId });
  if (res.status !== 200) throw new Error(`datastore_info answered ${res.status}`);
  return (res.json() as { result: { indexes?: IndexInfo[] } }).result.indexes ?? [];
}

export async function benchLearned(opts: LearnedBenchOptions): Promise<LearnedBenchResult> {
  const { post, resourceId, port, token } = opts;
  const field = opts.field ?? "distance";
  const limit = opts.limit ?? 100;
  const fastMs = opts.fastMs ?? 10;
  const maxPages = opts.maxPages ?? 40;
  const pauseMs = opts.pauseMs ?? 250;
  const write = (action: string, body: Body) => authorizedPost(port, token, action, body);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const before = (await indexesOf(post, resourceId)).find((ix) => ix.fields[0] === field);
  // A fixed id: each run re-creates the same scratch table (datastore_delete keeps the resource).
  const scratch = await write("datastore_create", {
    resource_id: "bench-learned-writes",
    force: true,
    fields: [{ id: "k", type: "int4" }, { id: "v", type: "text" }],
    primary_key: "k",
  });
  if (scratch.status !== 200) throw new Error(`datastore_create answered ${scratch.status}`);
  const scratchId = (scratch.json() as { result: { resource_id: string } }).result.resource_id;

  // The writer: one small upsert at a time, 5 ms apart, from a second before the first page.
  const writes: { at: number; ms: number }[] = [];
  let writeErrors = 0;
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const at = Date.now();
      const res = await write("datastore_upsert", { resource_id: scratchId, method: "upsert", records: [{ k: i % 100, v: `v${i}` }] });
      if (res.status !== 200) writeErrors++;
      writes.push({ at, ms: res.ms });
      await sleep(5);
    }
  })();
  await sleep(1000);
  const pagesFrom = Date.now();

  const pages: { offset: number; ms: number }[] = [];
  let readErrors = 0;
  let firstFastPage: number | null = null;
  const page = async (offset: number) => {
    const res = await post("datastore_search", { resource_id: resourceId, sort: `${field} desc`, limit, offset, include_total: false });
    if (res.status !== 200) readErrors++;
    return res.ms;
  };
  for (let i = 0; i < maxPages && firstFastPage === null; i++) {
    const offset = i * limit;
    const ms = await page(offset);
    pages.push({ offset, ms });
    if (ms < fastMs) firstFastPage = i + 1;
    else await sleep(pauseMs);
  }
  const more: number[] = [];
  if (firstFastPage !== null) for (let i = 0; i < 5; i++) more.push(await page((pages.length + i) * limit));
  await sleep(1000);
  stop = true;
  await writer;

  const learned = (await indexesOf(post, resourceId)).find((ix) => ix.fields[0] === field && ix.reason === "learned")?.learned ?? null;
  await write("datastore_delete", { resource_id: scratchId, force: true });
  const baseline = writes.filter((w) => w.at < pagesFrom).map((w) => w.ms);
  const all = writes.map((w) => w.ms);
  return {
    field,
    indexedBefore: before ? before.reason : null,
    pages,
    firstFastPage,
    fastMedianMs: more.length ? median(more) : null,
    learned: learned && { build_ms: learned.build_ms, size: learned.size, slow_reads: learned.slow_reads },
    writes: {
      count: all.length,
      errors: writeErrors,
      medianMs: median(all),
      p99Ms: quantile(all, 0.99),
      maxMs: Math.max(...all),
      baselineMaxMs: Math.max(...baseline),
    },
    readErrors,
  };
}

export function printLearned(r: LearnedBenchResult): void {
  console.log(`\nas imported: sort "${r.field} desc", 100-row pages until one is fast (no index declared on ${r.field})`);
  if (r.indexedBefore) console.log(`  note: ${r.field} already had an index (${r.indexedBefore}) before this run: use a fresh import`);
  console.log(`  pages (ms): ${r.pages.map((p) => p.ms.toFixed(1)).join(", ")}`);
  console.log(
    r.firstFastPage === null
      ? `  no page under 10 ms within ${r.pages.length} pages`
      : `  page ${r.firstFastPage} was the first fast one; then median ${r.fastMedianMs?.toFixed(1)} ms`,
  );
  if (r.learned) console.log(`  learned index: built in ${r.learned.build_ms} ms after ${r.learned.slow_reads} slow reads, ${(r.learned.size / 1e6).toFixed(1)} MB`);
  const w = r.writes;
  console.log(
    `  writes beside it (1-record upserts into another resource): ${w.count}, ${w.errors} failed; median ${w.medianMs.toFixed(1)} ms, p99 ${w.p99Ms.toFixed(0)} ms, longest (the write stall) ${w.maxMs.toFixed(0)} ms; longest before the pages ${w.baselineMaxMs.toFixed(0)} ms`,
  );
  if (r.readErrors) console.log(`  ${r.readErrors} reads failed`);
}

// Run alone against a server already started (see the header).
if (process.argv[1]?.endsWith("bench-learned.ts")) {
  const [port, token, resourceId] = process.argv.slice(2);
  if (!port || !token || !resourceId) {
    console.error("usage: node --import tsx scripts/bench-learned.ts <port> <admin token> <resource id>");
    process.exit(2);
  }
  const post = (action: string, body: Body) => authorizedPost(Number(port), token, action, body);
  benchLearned({ post, resourceId, port: Number(port), token })
    .then((r) => {
      printLearned(r);
      console.log(JSON.stringify(r));
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
