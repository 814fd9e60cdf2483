// `npm run loadtest -- [--seconds 60] [--readers 8] [--writers 4] [--resources 4] [--batch 50]`:
// a bounded load test on loopback. Starts the built server on a temporary database, seeds a few
// resources, then for the given time runs concurrent readers (searches, full text, filters,
// sorts, deep pages, value counts, info, dumps) and writers (upserts of new and existing rows
// into several resources), while sampling the server's memory. Afterwards it checks that every
// acknowledged write is in the database with its last acknowledged value, and prints the figures.
// Exits 1 on any error, lost write or growing memory.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { openEngine } from "../lib/datastore/open";
import { ensureBuilt, rssMb, startServer, tempDir } from "../lib/test/server";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    readers: { type: "string", default: "8" },
    writers: { type: "string", default: "4" },
    resources: { type: "string", default: "4" },
    batch: { type: "string", default: "50" },
    seed: { type: "string", default: "40000" },
    warmup: { type: "string", default: "15" },
    "new-rows": { type: "string", default: "0.25" },
  },
});
const SECONDS = Number(values.seconds);
const READERS = Number(values.readers);
const WRITERS = Number(values.writers);
const RESOURCES = Number(values.resources);
const BATCH = Number(values.batch);
const SEED_ROWS = Number(values.seed);
const WARMUP = Number(values.warmup);
const NEW_ROWS = Number(values["new-rows"]);
const ADMIN = "loadtest-admin-token";

let base = "";
const agent = new http.Agent({ keepAlive: true, maxSockets: READERS + WRITERS + 4 });

interface Answer {
  status: number;
  ms: number;
  text: string;
}

function request(method: "GET" | "POST", p: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const url = new URL(p, base);
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        timeout: 30_000,
        headers: { authorization: ADMIN, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", () => resolve({ status: -1, ms: performance.now() - t, text: "response error" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ status: -1, ms: performance.now() - t, text: e.message }));
    req.end(payload);
  });
}

const post = (action: string, body: unknown) => request("POST", `/api/action/${action}`, body);

// --------------------------------------------------------------------------------- figures

/** Requests that end before this are the warm-up: their errors count, their timings do not. */
let measureFrom = 0;

class Tally {
  ms: number[] = [];
  errors: string[] = [];
  add(a: Answer, ok = a.status === 200) {
    if (Date.now() >= measureFrom) this.ms.push(a.ms);
    if (!ok) this.errors.push(`${a.status} ${a.text.slice(0, 200)}`);
  }
  pct(p: number): number {
    const s = [...this.ms].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
  }
}

const reads = new Map<string, Tally>();
const writes = new Tally();
const tally = (name: string) => reads.get(name) ?? reads.set(name, new Tally()).get(name)!;

// ---------------------------------------------------------------------------------- clients

interface Resource {
  id: string;
  /** key → last acknowledged value of `v` */
  acked: Map<number, string>;
  /** keys whose last write got no clear answer (not expected with zero errors) */
  uncertain: Set<number>;
}

let stopAt = 0;
const running = () => Date.now() < stopAt;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
let ackedRecords = 0;
let ackedMeasured = 0;

async function writer(w: number, resources: Resource[]) {
  let seq = 0;
  const mine: Map<string, number[]> = new Map(resources.map((r) => [r.id, []]));
  while (running()) {
    const r = resources[(w + seq) % resources.length];
    const keys = mine.get(r.id)!;
    const records: Record<string, unknown>[] = [];
    const used = new Set<number>();
    for (let i = 0; i < BATCH; i++) {
      // By default one row in four is new; the others update a row this writer wrote before.
      const k = keys.length > BATCH && Math.random() >= NEW_ROWS ? pick(keys) : (w + 1) * 1_000_000_000 + seq * BATCH + i;
      if (used.has(k)) continue;
      used.add(k);
      records.push({ k, writer: `w${w}`, v: `w${w}-${seq}-${i} ${Math.random().toString(36).slice(2)}`, n: Math.round(Math.random() * 1e6) / 100, t: new Date().toISOString().slice(0, 19) });
    }
    seq++;
    const a = await post("datastore_upsert", { resource_id: r.id, records, method: "upsert" });
    writes.add(a);
    for (const rec of records) {
      const k = rec.k as number;
      if (a.status === 200) {
        if (!r.acked.has(k)) keys.push(k);
        r.acked.set(k, rec.v as string);
        r.uncertain.delete(k);
        ackedRecords++;
        if (Date.now() >= measureFrom) ackedMeasured++;
      } else r.uncertain.add(k);
    }
  }
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

async function reader(resources: Resource[]) {
  while (running()) {
    const r = pick(resources).id;
    const kind = Math.floor(Math.random() * 10);
    let a: Answer;
    let name: string;
    if (kind < 3) [name, a] = ["search page", await post("datastore_search", { resource_id: r, limit: 100, offset: Math.floor(Math.random() * 5000) })];
    else if (kind < 5) [name, a] = ["search q", await post("datastore_search", { resource_id: r, q: pick(WORDS), limit: 50 })];
    else if (kind < 6) [name, a] = ["search filter+sort", await post("datastore_search", { resource_id: r, filters: { writer: pick(["seed", "w0", "w1"]) }, sort: "n desc", limit: 50 })];
    else if (kind < 7) [name, a] = ["search GET", await request("GET", `/api/action/datastore_search?resource_id=${r}&limit=20&q=${pick(WORDS)}&sort=k%20desc`)];
    else if (kind < 8) [name, a] = ["value counts", await post("datastore_value_counts", { resource_id: r, field: "writer" })];
    else if (kind < 9) [name, a] = ["info + resource_search", await (Math.random() < 0.5 ? post("datastore_info", { id: r }) : post("resource_search", { query: "name:load" }))];
    else [name, a] = ["dump 1000 rows", await request("GET", `/datastore/dump/${r}?limit=1000&format=${pick(["csv", "json"])}`)];
    tally(name).add(a);
  }
}

// -------------------------------------------------------------------------------------- run

interface Sample {
  t: number;
  mb: number;
  anon: number;
  file: number;
}

function slope(samples: { t: number; mb: number }[]): number {
  // Least squares, MB per minute.
  const n = samples.length;
  const mt = samples.reduce((s, x) => s + x.t, 0) / n;
  const mm = samples.reduce((s, x) => s + x.mb, 0) / n;
  const num = samples.reduce((s, x) => s + (x.t - mt) * (x.mb - mm), 0);
  const den = samples.reduce((s, x) => s + (x.t - mt) ** 2, 0);
  return den ? (num / den) * 60_000 : 0;
}

async function main() {
  await ensureBuilt();
  const dbFile = path.join(tempDir("datastore-loadtest-"), "load.db");
  const server = await startServer({ dbFile, adminToken: ADMIN });
  base = server.url;
  console.log(`loadtest: ${server.url} (pid ${server.pid}, ${dbFile}); ${SECONDS} s, ${READERS} readers, ${WRITERS} writers, ${RESOURCES} resources, ${BATCH} records per upsert`);

  const resources: Resource[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const res = await post("datastore_create", {
      resource: { name: `load ${i}` },
      fields: [
        { id: "k", type: "bigint" },
        { id: "writer", type: "text" },
        { id: "v", type: "text" },
        { id: "n", type: "numeric" },
        { id: "t", type: "timestamp" },
      ],
      primary_key: "k",
      indexes: "writer",
    });
    const id = JSON.parse(res.text).result.resource_id as string;
    const r: Resource = { id, acked: new Map(), uncertain: new Set() };
    for (let from = 0; from < SEED_ROWS; from += 5000) {
      const records = Array.from({ length: Math.min(5000, SEED_ROWS - from) }, (_, j) => ({
        k: from + j,
        writer: "seed",
        v: `${WORDS[(from + j) % WORDS.length]} ${WORDS[(from + j * 7) % WORDS.length]} seed ${from + j}`,
        n: (from + j) % 1000,
        t: "2024-01-01T00:00:00",
      }));
      const a = await post("datastore_upsert", { resource_id: id, records, method: "insert" });
      if (a.status !== 200) throw new Error(`seeding failed: ${a.text.slice(0, 300)}`);
      for (const rec of records) r.acked.set(rec.k, rec.v);
    }
    resources.push(r);
  }

  // The same load runs WARMUP seconds before the measured SECONDS, so caches and JIT are warm.
  const memory: Sample[] = [];
  const started = Date.now() + WARMUP * 1000;
  const sample = () => memory.push({ t: Date.now() - started, mb: rssMb(server.pid), anon: rssMb(server.pid, "RssAnon"), file: rssMb(server.pid, "RssFile") });
  const beforeLoad = { mb: rssMb(server.pid), anon: rssMb(server.pid, "RssAnon") };
  measureFrom = started;
  stopAt = started + SECONDS * 1000;
  let sampler: NodeJS.Timeout | undefined;
  setTimeout(() => {
    sample();
    sampler = setInterval(sample, 1000);
  }, WARMUP * 1000);
  let lastReport = started;
  const progress = setInterval(() => {
    if (Date.now() - lastReport < 10_000) return;
    lastReport = Date.now();
    const reqs = writes.ms.length + [...reads.values()].reduce((s, t) => s + t.ms.length, 0);
    const at = Date.now() < started ? "warm-up" : `${((Date.now() - started) / 1000).toFixed(0)} s`;
    console.log(`  ${at}: ${reqs} requests, ${ackedRecords} records written, server RSS ${rssMb(server.pid).toFixed(0)} MB`);
  }, 1000);
  await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w, resources)), ...Array.from({ length: READERS }, () => reader(resources))]);
  const elapsed = (Date.now() - started) / 1000;
  const dbMb = ["", "-wal"].reduce((sum, suffix) => sum + (fs.statSync(dbFile + suffix, { throwIfNoEntry: false })?.size ?? 0), 0) / 1e6;
  clearInterval(sampler);
  clearInterval(progress);

  // Every acknowledged write, with its last acknowledged value, read back through an engine of
  // this process's own (no HTTP, no server cache).
  const engine = await openEngine({ file: dbFile, readWorkers: 0 });
  let checked = 0;
  let missing = 0;
  let wrong = 0;
  let countMismatch = 0;
  for (const r of resources) {
    const { rows, catalog } = await storedRows(engine, r.id);
    for (const [k, v] of r.acked) {
      if (r.uncertain.has(k)) continue;
      checked++;
      if (!rows.has(k)) missing++;
      else if (rows.get(k) !== v) wrong++;
    }
    if (catalog !== rows.size) countMismatch++;
  }
  const integrity = await engine
    .check("quick")
    .then(() => engine.scan("quick"))
    .then(
      () => "ok",
      (e: Error) => e.message,
    );
  await engine.close();
  const endRss = rssMb(server.pid);
  await server.stop();
  fs.rmSync(path.dirname(dbFile), { recursive: true, force: true });

  const readTotal = [...reads.values()].reduce((s, t) => s + t.ms.length, 0);
  const readErrors = [...reads.values()].flatMap((t) => t.errors);
  const errors = [...writes.errors, ...readErrors];
  // Anonymous memory (heaps, SQLite's page caches) saws up and down by tens of MB with garbage
  // collection, so single samples or a fitted slope mislead: compare the medians of the first
  // and the last third of the measured minute.
  const warm = memory.filter((m) => m.t >= (SECONDS * 1000) / 2);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const third = (i: number) => memory.filter((m) => m.t >= (i * SECONDS * 1000) / 3 && m.t < ((i + 1) * SECONDS * 1000) / 3).map((m) => m.anon);
  const [firstThird, lastThird] = [median(third(0)), median(third(2))];
  const anonSlope = memory.length > 5 ? slope(memory.map((m) => ({ t: m.t, mb: m.anon }))) : 0;
  const peak = Math.max(...memory.map((m) => m.mb));
  const fmt = (n: number) => n.toFixed(1);

  console.log(`\nloadtest: ${elapsed.toFixed(1)} s on loopback, ${READERS} readers + ${WRITERS} writers over ${RESOURCES} resources`);
  console.log(`  (after ${WARMUP} s of warm-up under the same load, not counted; ${SEED_ROWS * RESOURCES} seed rows; database now ${fmt(dbMb)} MB)`);
  console.log(`  requests: ${readTotal + writes.ms.length} (${fmt((readTotal + writes.ms.length) / elapsed)}/s); reads ${readTotal} (${fmt(readTotal / elapsed)}/s), upserts ${writes.ms.length} (${fmt(writes.ms.length / elapsed)}/s, ${fmt(ackedMeasured / elapsed)} records/s)`);
  console.log(`  upsert latency ms: p50 ${fmt(writes.pct(0.5))}, p95 ${fmt(writes.pct(0.95))}, p99 ${fmt(writes.pct(0.99))}`);
  for (const [name, t] of reads) console.log(`  ${name.padEnd(22)} ${String(t.ms.length).padStart(6)} reqs, p50 ${fmt(t.pct(0.5))} ms, p95 ${fmt(t.pct(0.95))} ms, p99 ${fmt(t.pct(0.99))} ms`);
  console.log(`  errors: ${errors.length}${errors.length ? ` (first: ${errors.slice(0, 3).join(" | ")})` : ""}`);
  console.log(`  acknowledged writes checked: ${checked} rows (${ackedRecords} acknowledged upserted records); missing ${missing}, wrong value ${wrong}, row counts off ${countMismatch}, uncertain ${resources.reduce((s, r) => s + r.uncertain.size, 0)}; integrity check ${integrity}`);
  console.log(
    `  server RSS MB: before the load ${fmt(beforeLoad.mb)}, after warm-up ${fmt(memory[0]?.mb ?? NaN)}, half-way ${fmt(warm[0]?.mb ?? NaN)}, end ${fmt(endRss)}, peak ${fmt(peak)}; anonymous part: median ${fmt(firstThird)} MB in the first third, ${fmt(lastThird)} MB in the last (fitted slope ${fmt(anonSlope)} MB/min)`,
  );
  const every10 = memory.filter((_, i) => i % 10 === 0);
  console.log(`  RSS every 10 s (anonymous + file-backed, the mapped database): ${every10.map((m) => `${fmt(m.anon)}+${fmt(m.file)}`).join(", ")}`);
  const failed = errors.length > 0 || missing > 0 || wrong > 0 || countMismatch > 0 || integrity !== "ok";
  // "Flat": the last third's median within 50 MB (or 20%) of the first's. File-backed pages
  // follow the database file, which the writers grow.
  const growing = lastThird - firstThird > Math.max(50, 0.2 * firstThird);
  if (growing) console.log("  memory keeps growing after warm-up");
  process.exit(failed || growing ? 1 : 0);
}

/** A resource's rows as k → v, and the row count its catalog entry claims. */
async function storedRows(engine: DatastoreEngine, id: string): Promise<{ rows: Map<number, string>; catalog: number }> {
  const r = await engine.getResource(id);
  const rows = new Map<number, string>();
  if (!r) return { rows, catalog: 0 };
  const query = { filters: [], fts: [], columns: ["k", "v"], sort: [], distinct: false, limit: -1, offset: 0, includeTotal: false };
  for await (const chunk of engine.iterate(r, query)) for (const [k, v] of chunk) rows.set(Number(k), v as string);
  return { rows, catalog: r.rowCount };
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
