// `npm run bench`: the 3M-row benchmark. Builds (once, cached under data/bench/) a CSV of
// vega-datasets' flights-3m.parquet joined with airports.csv, imports it with the real
// importer, starts the real server, runs a fixed query mix over HTTP with concurrent clients,
// runs the same SQL in-process through better-sqlite3 for the floor (the plain statements, no
// caches), measures best-first pages cold and warm against the raw `ORDER BY rank` floor, walks
// the table by next_page (first and last pages beside their floors), and
// prints (and writes as JSON) median and p95 per query, the margin over the floor, throughput,
// server memory, import rate, index build times and file size. Every figure comes from this run.
// `--engine postgres` runs the PostgreSQL engine's scenarios instead (bench-postgres.ts);
// `--only aggregate` only the exact aggregate and summary beside their floors (bench-aggregate.ts),
// `--only fts-language` a 100k-row full-text index built in each language (bench-fts-language.ts),
// `--only catalog` creating 10,000 resources, the landing page and datastore_search_all (bench-catalog.ts),
// `--only history` upserts, file size and searches with and without history (bench-history.ts),
// `--only upload` runs only the upload scenario (bench-upload.ts), `--only flood` one anonymous
// client's 200 requests a second beside another's cheap pages (bench-flood.ts), `--only start` launches
// of `npm start` until their first answers (bench-startup.mjs), `--only import` only the
// import beside its floor (bench-import.ts); `--compare DIR` this
// checkout's server beside another checkout's, taking turns (bench-compare.ts).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import Database from "better-sqlite3";
import type { Resource } from "../lib/datastore/engine";
import { ErrorBag } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";
import type { SqliteEngine } from "../lib/datastore/sqlite/engine";
import { registerFtsFunctions } from "../lib/datastore/sqlite/fts-text";
import { attachAll } from "../lib/datastore/sqlite/groups";
import { bindSearch, parseSearchParams } from "../lib/datastore/search-query";
import { NO_QUOTAS } from "../lib/test/no-quotas";
import { freePort, startArgs } from "../lib/test/server";
import { formatImportComparison, importOnly, measureImportFloor, timedImport } from "./bench-import";
import { benchLearned, printLearned } from "./bench-learned";
import { formatMixedLoad, mixedLoad } from "./bench-mixed";
import { aggregateOnly } from "./bench-aggregate";
import { benchUpload, formatUpload } from "./bench-upload";
import { benchViews, formatViews } from "./bench-views";

const DIR = path.resolve("data/bench");
const CSV = path.join(DIR, "flights-3m-airports.csv");
const DB = path.join(DIR, "bench.db");
const META = path.join(DIR, "build.json");
const RESULTS = path.join(DIR, "results.json");
const DATA = path.resolve("node_modules/vega-datasets/data");
const RESOURCE = "flights-3m";
// The origin airport's coordinates close each row, for the Map tab's figures (bench-views.ts).
const CSV_HEADER = "date,delay,distance,origin,origin_name,origin_city,destination,destination_name,destination_city,latitude,longitude";
let PORT = Number(process.env.BENCH_PORT ?? 0);
const TOKEN = "bench-admin-token";
// Declared for the query mix. origin alone: within one value its rows are in _id order, so a
// filtered first page reads 100 entries instead of sorting all the SEA rows (docs/performance.md,
// "Indexes"); destination+origin answers destination filters and counts both filters from the
// index alone; delay for the sort.
const INDEXES = [["origin"], ["destination", "origin"], ["delay"]];

type Body = Record<string, unknown>;

// ------------------------------------------------------------------------------ data set

async function buildCsv(): Promise<void> {
  const airports = new Map<string, { name: string; city: string; latitude: string; longitude: string }>();
  for (const a of parse(fs.readFileSync(path.join(DATA, "airports.csv"), "utf8"), { columns: true }) as Record<string, string>[]) {
    airports.set(a.iata, { name: a.name, city: a.city, latitude: a.latitude, longitude: a.longitude });
  }
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const file = await asyncBufferFromFile(path.join(DATA, "flights-3m.parquet"));
  const meta = await parquetMetadataAsync(file);
  const out = fs.createWriteStream(`${CSV}.tmp`);
  out.write(`${CSV_HEADER}\n`);
  let start = 0;
  for (const group of meta.row_groups) {
    const end = start + Number(group.num_rows);
    let rows: unknown[][] = [];
    await parquetRead({ file, metadata: meta, compressors, rowStart: start, rowEnd: end, onComplete: (r) => (rows = r as unknown[][]) });
    let chunk = "";
    for (const [date, delay, distance, origin, destination] of rows) {
      const o = airports.get(String(origin));
      const d = airports.get(String(destination));
      const iso = (date instanceof Date ? date : new Date(Number(date) / 1000)).toISOString().slice(0, 19);
      chunk += `${iso},${delay},${distance},${origin},${quote(o?.name ?? "")},${quote(o?.city ?? "")},${destination},${quote(d?.name ?? "")},${quote(d?.city ?? "")},${o?.latitude ?? ""},${o?.longitude ?? ""}\n`;
    }
    if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
    start = end;
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  fs.renameSync(`${CSV}.tmp`, CSV);
}

interface BuildMeta {
  rows: number;
  csvBytes: number;
  importSeconds: number;
  importRowsPerSecond: number;
  indexSeconds: Record<string, number>;
  analyzeSeconds: number;
  dbBytes: number;
}

function firstLine(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(4096);
    return buf.toString("utf8", 0, fs.readSync(fd, buf, 0, buf.length, 0)).split("\n")[0];
  } finally {
    fs.closeSync(fd);
  }
}

async function buildDb(): Promise<BuildMeta> {
  for (const f of [DB, `${DB}-wal`, `${DB}-shm`]) fs.rmSync(f, { force: true });
  const env = { ...process.env, DATASTORE_DB: DB, DATASTORE_SAMPLE_DATA: "0" };
  const t0 = process.hrtime.bigint();
  const res = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/import.ts", CSV, "--name", "US flights (3M) with airports", "--resource-id", RESOURCE, "--quiet", "--no-auto-index"],
    { env, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (res.status !== 0) throw new Error("import failed");
  const importSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const engine = await openEngine({ file: DB, readWorkers: 0 });
  const rows = (await engine.getResource(RESOURCE))!.rowCount;
  // Index build times, one index at a time (the rule in docs/performance.md "Indexes" picks these fields).
  const indexSeconds: Record<string, number> = {};
  const done: string[][] = [];
  for (const fields of INDEXES) {
    const t = process.hrtime.bigint();
    done.push(fields);
    await engine.setIndexes(RESOURCE, done);
    indexSeconds[fields.join("+")] = Number(process.hrtime.bigint() - t) / 1e9;
  }
  const ta = process.hrtime.bigint();
  await engine.analyze();
  const analyzeSeconds = Number(process.hrtime.bigint() - ta) / 1e9;
  await engine.close();
  const meta: BuildMeta = {
    rows,
    csvBytes: fs.statSync(CSV).size,
    importSeconds,
    importRowsPerSecond: Math.round(rows / importSeconds),
    indexSeconds,
    analyzeSeconds,
    dbBytes: fs.statSync(DB).size,
  };
  fs.writeFileSync(META, JSON.stringify(meta, null, 2));
  return meta;
}

// -------------------------------------------------------------------------------- server

/** The server as `npm start` runs it, or `next start` serving the same build alone. */
/** A server on `db`. Learning indexes is off unless asked: the cached database stays as built,
 *  so every run measures the same indexes (the "as imported" scenario learns on a copy). */
function startServer(via: "npm start" | "next start" = "npm start", db = DB, learn = false): ChildProcess {
  const ensure = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
  if (ensure.status !== 0) throw new Error("build failed");
  const command = via === "next start" ? ["node_modules/next/dist/bin/next", "start"] : startArgs();
  return spawn(process.execPath, [...command, "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...NO_QUOTAS, ...process.env, DATASTORE_DB: db, DATASTORE_ADAPTIVE_INDEXES: learn ? "1" : "0", DATASTORE_SAMPLE_DATA: "0", DATASTORE_ADMIN_TOKEN: TOKEN, PORT: String(PORT) },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

type Answer = { status: number; ms: number; bytes: number; json: () => unknown };

/** One request; a keep-alive socket the server closed while idle is retried (a few times). */
async function post(action: string, body: Body): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postOnce(action, body);
    } catch (e) {
      if ((e as { code?: string }).code !== "ECONNRESET" || attempt === 3) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function postOnce(action: string, body: Body): Promise<Answer> {
  const payload = JSON.stringify(body);
  const t = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORT, path: `/api/action/${action}`, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const buf = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - t) / 1e6, bytes: buf.length, json: () => JSON.parse(buf.toString("utf8")) });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await post("datastore_search", { resource_id: RESOURCE, limit: 1 })).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

function rssMb(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

// -------------------------------------------------------------------------------- queries

interface Query {
  name: string;
  action?: string;
  body: Body;
  indexed?: boolean; // part of the throughput mix
}

const QUERIES: Query[] = [
  { name: "first page", body: { limit: 100, include_total: false }, indexed: true },
  { name: "first page + total", body: { limit: 100 }, indexed: true },
  { name: "origin=SEA + total", body: { filters: { origin: "SEA" }, limit: 100 }, indexed: true },
  { name: "origin in 3 AND dest + total", body: { filters: { origin: ["SEA", "PDX", "SFO"], destination: "LAX" }, limit: 100 }, indexed: true },
  { name: "q=Portland + total", body: { q: "Portland", limit: 100 }, indexed: true },
  { name: "q + filter + total", body: { q: "Portland", filters: { destination: "SFO" }, limit: 100 } },
  { name: "q=Portland rank order", body: { q: "Portland", limit: 100, include_total: false } },
  { name: "sort delay desc", body: { sort: "delay desc", limit: 100, include_total: false } },
  { name: "offset=1000000", body: { offset: 1000000, limit: 100, include_total: false } },
  { name: "limit=32000", body: { limit: 32000, include_total: false } },
  { name: "distinct origin", body: { fields: "origin", distinct: true, limit: 100, include_total: false } },
  { name: "value counts origin", action: "datastore_value_counts", body: { field: "origin", limit: 10 } },
  // CKAN 2.12 filters: a range on the indexed delay, with its total.
  { name: "delay 60 to 120 + total", body: { filters: { delay: { gte: 60, lte: 120 } }, limit: 100 } },
];

/**
 * A next_page walk over the whole table, as a CKAN 2.12 client pages (`include_next_page`, the
 * returned `next_page` merged into `filters`, no total), 1,000 rows a page: the time of the
 * first and the last ten pages over HTTP, each beside its floor, and the whole walk's rate.
 */
async function keysetWalk(floor: Floor) {
  const body = { limit: 1000, include_total: false, include_next_page: true };
  const pages: { ms: number; filters: Body }[] = [];
  let filters: Body = {};
  let rows = 0;
  const t0 = Date.now();
  for (;;) {
    const res = await post("datastore_search", { resource_id: RESOURCE, ...body, filters });
    const result = (res.json() as { result: { records: unknown[]; next_page?: Body } }).result;
    pages.push({ ms: res.ms, filters });
    rows += result.records.length;
    if (!result.next_page || result.records.length === 0) break;
    filters = result.next_page;
  }
  const seconds = (Date.now() - t0) / 1000;
  const full = pages.filter((_, i) => i < pages.length - 1); // the last page may be short
  const first = full.slice(0, 10);
  const last = full.slice(-10);
  const floorOf = async (ps: typeof first) => stats((await Promise.all(ps.map((p) => floor.times({ name: "walk", body: { ...body, filters: p.filters } }, 3)))).flat()).median;
  return {
    pages: pages.length,
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    first: stats(first.map((p) => p.ms)).median,
    last: stats(last.map((p) => p.ms)).median,
    firstFloor: await floorOf(first),
    lastFloor: await floorOf(last),
  };
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: at(0.5), p95: at(0.95) };
}

/** Runs `body` from `clients` concurrent loops until `count` requests or `seconds` are done. */
async function load(queries: Query[], clients: number, opts: { count?: number; seconds?: number }) {
  const latencies = new Map<string, number[]>(queries.map((q) => [q.name, []]));
  let sent = 0;
  let errors = 0;
  const until = Date.now() + (opts.seconds ?? 60) * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until && (opts.count === undefined || sent < opts.count)) {
        const q = queries[sent++ % queries.length];
        const res = await post(q.action ?? "datastore_search", { resource_id: RESOURCE, ...q.body });
        if (res.status !== 200) errors++;
        latencies.get(q.name)!.push(res.ms);
      }
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  const total = [...latencies.values()].reduce((n, l) => n + l.length, 0);
  return { latencies, errors, rps: total / seconds };
}

/** The engine's plain statements for a query (no ranked lists, no plan caches), run by
 *  better-sqlite3 on a connection of the bench's own: the floor. Value counts time the
 *  engine's own bounded count in this process. */
class Floor {
  private raw = new Database(DB, { readonly: true, fileMustExist: true });
  private constructor(
    private engine: SqliteEngine,
    private r: Resource,
  ) {
    this.raw.function("ds_deadline", () => 1); // the engine's time-budget check: never trips here
    registerFtsFunctions(this.raw); // ranking reads rows back through the full-text view
    attachAll(this.raw, DB); // the resource's table is in its group file
  }

  static async open(): Promise<Floor> {
    const engine = (await openEngine({ file: DB, readWorkers: 0 })) as SqliteEngine;
    return new Floor(engine, (await engine.getResource(RESOURCE))!);
  }

  private bound(body: Body) {
    return bindSearch(this.r, parseSearchParams({ resource_id: RESOURCE, ...body }, new ErrorBag())).query;
  }

  async times(query: Query, repeats: number): Promise<number[]> {
    const times: number[] = [];
    if (query.action === "datastore_value_counts") {
      const bound = this.bound({});
      for (let i = 0; i < repeats; i++) {
        const t = process.hrtime.bigint();
        await this.engine.valueCounts(this.r, String(query.body.field), bound, 10);
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      return times;
    }
    const prepared = this.engine.searchStatements(this.r, this.bound(query.body)).map((s) => ({ stmt: this.raw.prepare(s.sql).raw(true), params: s.params }));
    for (let i = 0; i < repeats; i++) {
      const t = process.hrtime.bigint();
      for (const p of prepared) p.stmt.all(...p.params);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return times;
  }

  /** How many rows a full-text word matches (the index's own count). */
  matches(word: string): number {
    const [stmt] = this.engine.searchStatements(this.r, { ...this.bound({ q: word, limit: 0 }), includeTotal: true }).slice(-1);
    return this.raw.prepare(stmt.sql).pluck().get(...stmt.params) as number;
  }

  async close(): Promise<void> {
    this.raw.close();
    await this.engine.close();
  }
}

/** Words of the airport names and cities, each matching at least 50,000 rows: one per cold
 *  measurement, so each cold page is a word the server has not been asked before. */
const RANK_WORDS = ["Denver", "Houston", "Phoenix", "Vegas", "Detroit", "Minneapolis", "Francisco", "Seattle", "Orlando", "Boston", "Charlotte", "Baltimore", "Newark", "Salt", "Nashville", "Atlanta"];

/**
 * Best-first pages (q, no sort: rank order) over HTTP: cold (a word not asked before), then
 * warm (the same again), at offset 0 and 5,000, beside the raw `ORDER BY rank` floor of the
 * same page. Words alternate between the two offsets, so every cold page is a new word.
 */
async function bestFirst(floor: Floor) {
  const words = RANK_WORDS.filter((w) => floor.matches(w) >= 50_000).slice(0, 12);
  const out: Record<string, { cold: number[]; warm: number[]; floor: number[]; matches: number[] }> = {};
  for (const [i, word] of words.entries()) {
    const offset = i % 2 === 0 ? 0 : 5000;
    const body = { q: word, limit: 100, offset, include_total: false };
    const slot = (out[`offset ${offset}`] ??= { cold: [], warm: [], floor: [], matches: [] });
    slot.matches.push(floor.matches(word));
    slot.cold.push((await post("datastore_search", { resource_id: RESOURCE, ...body })).ms);
    for (let k = 0; k < 5; k++) slot.warm.push((await post("datastore_search", { resource_id: RESOURCE, ...body })).ms);
    slot.floor.push(...(await floor.times({ name: word, body }, 3)));
  }
  return Object.entries(out).map(([at, v]) => ({
    at,
    words: v.cold.length,
    minMatches: Math.min(...v.matches),
    cold: stats(v.cold).median,
    warm: stats(v.warm).median,
    warmP95: stats(v.warm).p95,
    floor: stats(v.floor).median,
    coldOverFloor: stats(v.cold).median / stats(v.floor).median,
  }));
}

/**
 * Issue 13's "as imported" scenario (scripts/bench-learned.ts): slow `sort: distance desc`
 * pages until the engine has learned an index, on a copy of the database (a learned index
 * stays in its file), with its own server.
 */
async function asImported() {
  const copy = path.join(DIR, "learned.db");
  const files = (base: string) => [base, `${base}-wal`, `${base}-shm`];
  for (const [from, to] of files(DB).map((f, i) => [f, files(copy)[i]])) if (fs.existsSync(from) && !to.endsWith("-shm")) fs.copyFileSync(from, to);
  const mainPort = PORT;
  PORT = await freePort();
  const server = startServer("npm start", copy, true);
  try {
    await waitReady();
    return await benchLearned({ post, resourceId: RESOURCE, port: PORT, token: TOKEN });
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    PORT = mainPort;
    for (const f of files(copy)) fs.rmSync(f, { force: true });
  }
}

/** Runs `fn` with requests going to the bare server (scripts/bare-server.ts) on its own port. */
async function viaBareServer<T>(queries: Query[], fn: () => Promise<T>): Promise<T> {
  const mainPort = PORT;
  PORT = await freePort();
  const bodies = JSON.stringify(queries.map((q) => q.body));
  const bare = spawn(process.execPath, ["--import", "tsx", "scripts/bare-server.ts", DB, String(PORT), RESOURCE, bodies], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      bare.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      bare.on("exit", (code) => reject(new Error(`the bare server exited with ${code}`)));
    });
    await load(queries, 4, { seconds: 2 }); // warm up
    return await fn();
  } finally {
    bare.kill("SIGTERM");
    PORT = mainPort;
  }
}

function summary(run: Awaited<ReturnType<typeof load>>) {
  return { requestsPerSecond: run.rps, errors: run.errors, medianMs: Object.fromEntries([...run.latencies].map(([q, t]) => [q, stats(t).median])) };
}

// ---------------------------------------------------------------------------------- main

/**
 * The explorer in Chromium (Debian's, else Playwright's): ms from navigation start to the first
 * table cell of a view of the 3M-row resource, each time in a new context (nothing cached), and
 * the value-count request behind a filter's suggestions. Null when no browser can start.
 */
async function explorerTimes(): Promise<{ firstRows: ReturnType<typeof stats>; suggestions: ReturnType<typeof stats> } | null> {
  const { chromium } = await import("@playwright/test");
  const executablePath = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  let browser;
  try {
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  } catch (e) {
    console.error(`explorer timing skipped: no browser (${(e as Error).message.split("\n")[0]})`);
    return null;
  }
  try {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${PORT}/?resource_id=${RESOURCE}`, { waitUntil: "commit" });
      await page.locator("tbody td").first().waitFor({ state: "visible", timeout: 30_000 });
      const ms = await page.evaluate(() => performance.now());
      if (i > 0) times.push(ms); // the first warms the server's file cache
      await context.close();
    }
    const suggestions: number[] = [];
    for (let i = 0; i < 6; i++) {
      suggestions.push((await post("datastore_value_counts", { resource_id: RESOURCE, field: "origin_city", limit: 10 })).ms);
    }
    return { firstRows: stats(times), suggestions: stats(suggestions) };
  } finally {
    await browser.close();
  }
}

/**
 * `npm run bench -- --serve`: serving alone, in rounds that take turns with the bare server
 * (scripts/bare-server.ts), so both see the same machine: the 5-query mix at 4 clients and at
 * 1, each query's median, and cheap first pages beside slow requests (p95), every round.
 */
async function serveOnly() {
  const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
  if (!PORT) PORT = await freePort();
  const server = startServer();
  const mix = QUERIES.filter((q) => q.indexed);
  const slowQueries: Query[] = [
    { name: "slow: unindexed count", body: { filters: { distance: 1000 }, limit: 1 } },
    { name: "slow: limit 32000", body: { limit: 32000, include_total: false } },
  ];
  const f = (n: number) => n.toFixed(1).padStart(7);
  try {
    await waitReady();
    // Warm up: each read worker ranks the full-text words once, which takes seconds.
    await load(mix, 4, { seconds: 10 });
    for (let round = 1; round <= rounds; round++) {
      const ours = { four: await load(mix, 4, { seconds: 8 }), one: await load(mix, 1, { seconds: 4 }) };
      const bare = await viaBareServer([...mix], async () => ({ four: await load(mix, 4, { seconds: 8 }), one: await load(mix, 1, { seconds: 4 }) }));
      let slowRunning = true;
      const slow = (async () => {
        while (slowRunning) for (const q of slowQueries) await post("datastore_search", { resource_id: RESOURCE, ...q.body });
      })();
      const beside = stats([...(await load([QUERIES[0]], 3, { seconds: 4 })).latencies.values()][0]);
      slowRunning = false;
      await slow;
      console.log(`round ${round}: 4 clients ours ${ours.four.rps.toFixed(0)} req/s, bare ${bare.four.rps.toFixed(0)} (${(ours.four.rps / bare.four.rps).toFixed(2)}×); 1 client ours ${ours.one.rps.toFixed(0)}, bare ${bare.one.rps.toFixed(0)} (${(ours.one.rps / bare.one.rps).toFixed(2)}×); first page beside slow requests p95 ${beside.p95.toFixed(1)} ms (median ${beside.median.toFixed(1)}, ${beside.n})`);
      for (const [q, times] of ours.four.latencies) console.log(`    ${q.padEnd(30)} median at 4 clients: ours ${f(stats(times).median)}  bare ${f(stats(bare.four.latencies.get(q) ?? []).median)}   at 1: ours ${f(stats(ours.one.latencies.get(q) ?? []).median)}  bare ${f(stats(bare.one.latencies.get(q) ?? []).median)}`);
    }
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
  }
}

/** `npm run bench -- --views`: only the Summary, chart and map figures (bench-views.ts). */
async function viewsOnly() {
  if (!PORT) PORT = await freePort();
  const server = startServer();
  try {
    await waitReady();
    const views = await benchViews({ post, baseUrl: `http://127.0.0.1:${PORT}`, dbFile: DB, resourceId: RESOURCE });
    for (const line of formatViews(views)) console.log(line);
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
  }
}

/** The upload scenario (bench-upload.ts): `npm run import` of the CSV with its defaults, then
 *  the same file through the upload endpoint of a fresh API server. */
async function uploadScenario() {
  const cli = timedImport(CSV, path.join(DIR, "import-plain-scratch.db"), []);
  for (const f of ["", "-wal", "-shm"]) fs.rmSync(path.join(DIR, `import-plain-scratch.db${f}`), { force: true });
  return benchUpload(CSV, path.join(DIR, "upload-scratch"), cli);
}

/** `npm run bench -- --only upload`: that scenario alone, stored beside the last full run's figures. */
async function uploadOnly() {
  const upload = await uploadScenario();
  for (const line of formatUpload(upload)) console.log(line);
  const previous = fs.existsSync(RESULTS) ? (JSON.parse(fs.readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  fs.writeFileSync(RESULTS, JSON.stringify({ ...previous, upload }, null, 2));
  console.log(`
JSON: ${RESULTS} (key "upload")`);
}

async function main() {
  fs.mkdirSync(DIR, { recursive: true });
  // The flood needs no 3M-row table: a small one of its own (bench-flood.ts).
  if (process.argv.includes("--only") && process.argv[process.argv.indexOf("--only") + 1] === "flood") {
    const { benchFlood } = await import("./bench-flood");
    return benchFlood(path.join(DIR, "flood"), RESULTS);
  }
  // Nor does start-up: launches of `npm start` on a database of the sample data (bench-startup.mjs).
  if (process.argv.includes("--only") && process.argv[process.argv.indexOf("--only") + 1] === "start") {
    const args = process.argv.slice(2).filter((a, i, all) => a !== "--only" && all[i - 1] !== "--only");
    const run = spawnSync(process.execPath, ["scripts/bench-startup.mjs", ...args], { stdio: "inherit" });
    process.exitCode = run.status ?? 1;
    return;
  }
  // Nor does a full-text index in each language: a table made up of its own (bench-fts-language.ts).
  if (process.argv.includes("--only") && process.argv[process.argv.indexOf("--only") + 1] === "fts-language") {
    return (await import("./bench-fts-language")).ftsLanguageOnly(RESULTS);
  }
  // a CSV (and so a database) from before the coordinates were added is built again
  const current = fs.existsSync(CSV) && firstLine(CSV) === CSV_HEADER;
  if (!current) {
    console.log("Building the joined CSV from flights-3m.parquet + airports.csv (once)…");
    await buildCsv();
  }
  const only = process.argv.indexOf("--only");
  if (only >= 0) {
    if (process.argv[only + 1] === "import") return importOnly(CSV, path.join(DIR, "import-scratch.db"), RESULTS);
    if (process.argv[only + 1] === "aggregate") return aggregateOnly(DB, RESULTS);
    if (process.argv[only + 1] === "catalog") return (await import("./bench-catalog")).catalogOnly(DB, RESULTS);
    if (process.argv[only + 1] === "history") return (await import("./bench-history")).historyOnly(DB, RESULTS);
    if (process.argv[only + 1] !== "upload") throw new Error(`--only: "${process.argv[only + 1]}" is not a scenario run alone (upload, import, aggregate, catalog)`);
    return uploadOnly();
  }
  let meta: BuildMeta;
  if (current && fs.existsSync(META) && fs.existsSync(DB) && !process.argv.includes("--rebuild")) {
    meta = JSON.parse(fs.readFileSync(META, "utf8"));
    console.log(`Using the cached database ${DB} (rebuild with: npm run bench -- --rebuild)`);
  } else {
    console.log("Importing 3M rows with the importer (once)…");
    meta = await buildDb();
  }

  // `--engine postgres`: the same scenarios on PostgreSQL, beside its floors (bench-postgres.ts).
  const at = process.argv.findIndex((a) => a === "--engine" || a.startsWith("--engine="));
  const engine = at < 0 ? "sqlite" : process.argv[at].includes("=") ? process.argv[at].split("=")[1] : process.argv[at + 1];
  const compare = process.argv.indexOf("--compare");
  if (compare >= 0) {
    if (engine !== "sqlite" && engine !== "postgres") throw new Error(`--engine: "${engine}" is not an engine (sqlite, postgres)`);
    const { benchCompare } = await import("./bench-compare");
    return benchCompare({ dir: DIR, csv: CSV, sqliteDb: DB, resource: RESOURCE, queries: QUERIES, indexes: INDEXES, other: process.argv[compare + 1], engine });
  }
  if (engine === "postgres") {
    const { benchPostgres } = await import("./bench-postgres");
    return benchPostgres({ dir: DIR, csv: CSV, sqliteDb: DB, resource: RESOURCE, queries: QUERIES, indexes: INDEXES });
  }
  if (engine !== "sqlite") throw new Error(`--engine: "${engine}" is not an engine (sqlite, postgres)`);

  if (process.argv.includes("--views")) return viewsOnly();
  if (process.argv.includes("--serve")) return serveOnly();

  // Issue 13's import: `npm run import` with two indexes beside raw SQLite doing the same work
  // one step after another, into a scratch file, ours first (the floor holds every parsed row).
  const scratch = path.join(DIR, "import-scratch.db");
  const importOurs = timedImport(CSV, scratch, ["--index", "origin,delay", "--no-auto-index"]);
  const importFloor = await measureImportFloor(CSV, scratch, ["origin", "delay"]);
  const upload = await uploadScenario();

  if (!PORT) PORT = await freePort();
  const server = startServer();
  server.on("exit", (code) => {
    if (code !== null && code !== 0) console.error(`the server exited with ${code}`);
  });
  const memory = { maxRss: 0 };
  let sampler: NodeJS.Timeout | undefined;
  try {
    await waitReady();
    sampler = setInterval(() => {
      try {
        memory.maxRss = Math.max(memory.maxRss, rssMb(server.pid!).rss);
      } catch {
        /* exited */
      }
    }, 50);

    const rows: Record<string, unknown>[] = [];
    const floor = await Floor.open();
    let ranked: Awaited<ReturnType<typeof bestFirst>>;
    let walk: Awaited<ReturnType<typeof keysetWalk>>;
    try {
      for (const q of QUERIES) {
        const repeats = q.name === "limit=32000" ? 15 : 40;
        await load([q], 1, { count: 3 }); // warm up
        const http = stats([...(await load([q], 2, { count: repeats })).latencies.values()][0]);
        const base = stats(await floor.times(q, repeats));
        rows.push({ query: q.name, median: http.median, p95: http.p95, floorMedian: base.median, floorP95: base.p95, margin: http.median - base.median });
      }
      ranked = await bestFirst(floor);
      walk = await keysetWalk(floor);
    } finally {
      await floor.close();
    }

    const mix = QUERIES.filter((q) => q.indexed);
    const throughput = await load(mix, 8, { seconds: 10 });
    // The same without full text, whose ranked lists and counts dominate the mix otherwise.
    const plainMix = mix.filter((q) => !("q" in q.body));
    const plainThroughput = await load(plainMix, 8, { seconds: 10 });

    // The same mixes at 4 clients, here and on the bare server (scripts/bare-server.ts): one
    // thread answering the same bodies with the engine's plain statements and nothing else.
    const ours4 = { mix: await load(mix, 4, { seconds: 10 }), plain: await load(plainMix, 4, { seconds: 10 }) };
    const bare4 = await viaBareServer([...mix], async () => ({ mix: await load(mix, 4, { seconds: 10 }), plain: await load(plainMix, 4, { seconds: 10 }) }));

    // A slow request (a count over an unindexed field, and a 32000-row page) next to first pages.
    const slowQueries: Query[] = [
      { name: "slow: unindexed count", body: { filters: { distance: 1000 }, limit: 1 } },
      { name: "slow: limit 32000", body: { limit: 32000, include_total: false } },
    ];
    let slowRunning = true;
    const slow = (async () => {
      const times: number[] = [];
      while (slowRunning) for (const q of slowQueries) times.push((await post("datastore_search", { resource_id: RESOURCE, ...q.body })).ms);
      return times;
    })();
    const beside = await load([QUERIES[0]], 3, { seconds: 5 });
    slowRunning = false;
    const slowTimes = await slow;

    // Issue 13's mixed load: cheap pages beside two clients running slow searches.
    const mixed = await mixedLoad({ post, resourceId: RESOURCE, seconds: 10, aloneSeconds: 5 });

    const explorer = await explorerTimes();
    const views = await benchViews({ post, baseUrl: `http://127.0.0.1:${PORT}`, dbFile: DB, resourceId: RESOURCE });

    // The same mix through `next start` (Next's router in front of the same route handlers),
    // on its own port, with its memory sampled the same way.
    const mainPort = PORT;
    PORT = await freePort();
    const viaNext = startServer("next start");
    const nextMemory = { maxRss: 0 };
    const nextSampler = setInterval(() => {
      try {
        nextMemory.maxRss = Math.max(nextMemory.maxRss, rssMb(viaNext.pid!).rss);
      } catch {
        /* exited */
      }
    }, 50);
    let nextThroughput: Awaited<ReturnType<typeof load>>;
    try {
      await waitReady();
      await load(mix, 8, { seconds: 3 }); // warm up, as the first server was by the queries above
      nextThroughput = await load(mix, 8, { seconds: 10 });
    } finally {
      clearInterval(nextSampler);
      viaNext.kill("SIGTERM");
      PORT = mainPort;
    }

    const learned = await asImported();

    const result = {
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      build: { ...meta, dbToCsv: meta.dbBytes / meta.csvBytes },
      queries: rows,
      bestFirst: ranked,
      keysetWalk: walk,
      throughput: { queries: mix.map((q) => q.name), clients: 8, requestsPerSecond: throughput.rps, errors: throughput.errors },
      throughputViaNextStart: { requestsPerSecond: nextThroughput.rps, errors: nextThroughput.errors, maxRssMb: nextMemory.maxRss },
      throughputWithoutFullText: { queries: plainMix.map((q) => q.name), clients: 8, requestsPerSecond: plainThroughput.rps, errors: plainThroughput.errors },
      againstBareServer: {
        clients: 4,
        ours: { mix: summary(ours4.mix), withoutFullText: summary(ours4.plain) },
        bare: { mix: summary(bare4.mix), withoutFullText: summary(bare4.plain) },
      },
      isolation: { firstPage: stats([...beside.latencies.values()][0]), slowRequests: stats(slowTimes) },
      mixedLoad: mixed,
      asImported: learned,
      importWithIndexes: { ours: importOurs, floor: importFloor },
      upload,
      serverMemoryMb: { maxRss: memory.maxRss, peak: rssMb(server.pid!).hwm },
      explorer,
      views,
    };
    fs.writeFileSync(RESULTS, JSON.stringify(result, null, 2));

    const f = (n: unknown) => (typeof n === "number" ? n.toFixed(1).padStart(8) : String(n).padStart(8));
    console.log(`\n3M-row benchmark — ${meta.rows.toLocaleString("en-US")} rows, ${result.machine.cpus} cores, ${process.version}`);
    console.log(`${"query".padEnd(30)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"floor".padStart(8)} ${"floor95".padStart(8)} ${"margin".padStart(8)}  (ms)`);
    for (const r of rows) console.log(`${String(r.query).padEnd(30)} ${f(r.median)} ${f(r.p95)} ${f(r.floorMedian)} ${f(r.floorP95)} ${f(r.margin)}`);
    console.log(`\nbest-first pages (q, rank order, 100 rows), median ms over HTTP; floor: the raw ORDER BY rank in-process`);
    for (const b of ranked) {
      console.log(`  ${b.at.padEnd(12)} cold ${f(b.cold)}  warm ${f(b.warm)} (p95 ${b.warmP95.toFixed(1)})  floor ${f(b.floor)}  cold/floor ${b.coldOverFloor.toFixed(2)}  (${b.words} words, each ≥ ${b.minMatches.toLocaleString("en-US")} matches)`);
    }
    console.log(
      `\nnext_page walk, 1,000 rows a page, no total: ${walk.pages} pages, ${walk.rows.toLocaleString("en-US")} rows in ${walk.seconds.toFixed(1)} s (${Math.round(walk.rowsPerSecond).toLocaleString("en-US")} rows/s); ` +
        `first pages ${walk.first.toFixed(1)} ms (floor ${walk.firstFloor.toFixed(1)}), last pages ${walk.last.toFixed(1)} ms (floor ${walk.lastFloor.toFixed(1)}), last/first ${(walk.last / walk.first).toFixed(2)}`,
    );
    console.log(`\nthroughput, 5 indexed queries, 8 clients: ${throughput.rps.toFixed(0)} req/s (${throughput.errors} errors)`);
    console.log(`throughput, the 4 of them without full text, 8 clients: ${plainThroughput.rps.toFixed(0)} req/s (${plainThroughput.errors} errors)`);
    console.log(`throughput, the 5-query mix through next start, 8 clients: ${nextThroughput.rps.toFixed(0)} req/s (${nextThroughput.errors} errors); its max RSS ${nextMemory.maxRss.toFixed(0)} MB`);
    console.log(`\n4 clients, ours against a bare node:http server on one thread (the same statements, nothing else), req/s and median ms per query:`);
    for (const [name, o, b] of [["the 5-query mix", ours4.mix, bare4.mix], ["the 4 without full text", ours4.plain, bare4.plain]] as const) {
      console.log(`  ${name}: ours ${o.rps.toFixed(0)} req/s, bare ${b.rps.toFixed(0)} req/s (${(o.rps / b.rps).toFixed(2)}×)`);
      for (const [q, times] of o.latencies) console.log(`    ${q.padEnd(30)} ours ${f(stats(times).median)}  bare ${f(stats(b.latencies.get(q) ?? []).median)}`);
    }
    console.log(`first page beside slow requests: median ${result.isolation.firstPage.median.toFixed(1)} ms, p95 ${result.isolation.firstPage.p95.toFixed(1)} ms (${result.isolation.firstPage.n} requests; slow ones: median ${result.isolation.slowRequests.median.toFixed(0)} ms)`);
    for (const line of formatMixedLoad(mixed)) console.log(line);
    printLearned(learned);
    console.log(`server memory: max RSS ${memory.maxRss.toFixed(0)} MB (peak ${result.serverMemoryMb.peak.toFixed(0)} MB)`);
    if (explorer) {
      console.log(`explorer: first rows ${explorer.firstRows.median.toFixed(0)} ms after opening the view (median of ${explorer.firstRows.n}, p95 ${explorer.firstRows.p95.toFixed(0)}; a fresh browser profile each time); value suggestions ${explorer.suggestions.median.toFixed(0)} ms`);
    }
    for (const line of formatViews(views)) console.log(line);
    console.log(formatImportComparison(importFloor, importOurs));
    for (const line of formatUpload(upload)) console.log(line);
    console.log(`import: ${meta.importRowsPerSecond.toLocaleString("en-US")} rows/s (${meta.importSeconds.toFixed(1)} s incl. full-text index)`);
    console.log(`indexes: ${Object.entries(meta.indexSeconds).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(", ")}; ANALYZE ${meta.analyzeSeconds.toFixed(1)} s`);
    console.log(`size: database ${(meta.dbBytes / 1e6).toFixed(0)} MB, CSV ${(meta.csvBytes / 1e6).toFixed(0)} MB, ratio ${result.build.dbToCsv.toFixed(2)}`);
    console.log(`\nJSON: ${RESULTS}`);
  } finally {
    if (sampler) clearInterval(sampler);
    server.kill("SIGTERM");
    agent.destroy();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
