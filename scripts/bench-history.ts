// The bench's "history" scenario (issue 27): its four goals on the 3M-row flights table, each
// beside the same work without history, on two copies of data/bench/bench.db (the shared file
// is never written): one with the resource's history off (history: false), one with it on.
//   - upserting 300,000 existing rows (10%, every tenth _id) in batches of 1,000 through
//     datastore_upsert: rows a second, history on against off (goal: at least 80%);
//   - the file after them (checkpointed): on against off (goal: at most 1.3x);
//   - searches at the current version (first page with its total; origin=SEA with its total):
//     medians on both copies (goal: within 5%);
//   - the same searches as_of the version before the upserts: median against the current one's
//     (goal: at most 2x).
// Kept answers off (DATASTORE_PAGE_CACHE_MB 0): every search is read.
// `npm run bench -- --only history` (or npx tsx scripts/bench-history.ts [--db FILE]).
// BENCH_HISTORY_ENGINE=postgres: the same on PostgreSQL, in a throwaway cluster with
// bench-postgres.ts's settings: the CSV imported once as that bench imports it (its indexes),
// then two databases copied from it (CREATE DATABASE … TEMPLATE), history off on one, on on the
// other; "file after" is each database's size. BENCH_HISTORY_BATCHES=N: N batches, not 300;
// BENCH_HISTORY_SEARCHES=0: no searches.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Conn } from "../lib/datastore/sqlite/connection";
import { attachAll, attachFor, groupsDir, storeBytes, syncStates } from "../lib/datastore/sqlite/groups";
import { StatementCache } from "../lib/datastore/sqlite/statement-cache";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { openEngine } from "../lib/datastore/open";
import { sql } from "../lib/test/pg-cluster";
import { loadedPostgres } from "./bench-postgres";

const RESOURCE = "flights-3m";
const BATCHES = Number(process.env.BENCH_HISTORY_BATCHES ?? 300);
const BATCH = 1000;
const RUNS = 9;
/** BENCH_HISTORY_SEARCHES=0: the upserts and sizes only. */
const SEARCHING = process.env.BENCH_HISTORY_SEARCHES !== "0";

const SEARCHES: { name: string; body: Record<string, unknown> }[] = [
  { name: "first page + total", body: { limit: 100 } },
  { name: "origin=SEA + total", body: { filters: { origin: "SEA" }, limit: 100 } },
  { name: "delay 60 to 120, page 5", body: { filters: { delay: { gte: 60, lte: 120 } }, limit: 100, offset: 400, include_total: false } },
  { name: "sort _id, page 50", body: { sort: "_id", limit: 100, offset: 4900, include_total: false } },
];

interface Side {
  upsertMs: number;
  rowsPerSecond: number;
  bytes: number;
  search: Record<string, number>;
  asOf?: Record<string, number>;
  history?: unknown;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function context(engine: DatastoreEngine): ActionContext {
  return { engine: engine.forClient("bench", { tokenId: null, tokenName: "bench" }), tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
}

/** One search's time, ms. */
async function timedSearch(ctx: ActionContext, body: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  await ACTIONS.datastore_search.run(ctx, { resource_id: RESOURCE, ...body });
  return performance.now() - t;
}

/** The store's bytes: its file and its group files (lib/datastore/sqlite/groups.ts), each
 *  checkpointed first. */
function fileBytes(file: string): number {
  const db = new Database(file);
  attachAll(db, file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return storeBytes(file);
}

/** A copy of the bench table migrated to this build's schema (once: a migration may rebuild
 *  its full-text index), which each side copies again. */
async function migratedCopy(source: string): Promise<string> {
  const base = path.join(os.tmpdir(), "bench-history-base.db");
  const stamp = `${base}.from`;
  const from = `${source} ${fs.statSync(source).mtimeMs}`;
  if (fs.existsSync(base) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === from) return base;
  fs.copyFileSync(source, base);
  await (await openEngine({ file: base })).close();
  fileBytes(base);
  fs.writeFileSync(stamp, from);
  return base;
}

/** The two copies a run compares: each opened as an engine, its size, and their removal. */
interface Copies {
  open(k: "off" | "on"): Promise<DatastoreEngine>;
  bytes(k: "off" | "on"): Promise<number>;
  remove(): Promise<void>;
}

function sqliteCopies(base: string): Copies {
  const files = { off: copyWith(base, false), on: copyWith(base, true) };
  return {
    open: (k) => openEngine({ file: files[k], pageCacheBytes: 0 }),
    bytes: async (k) => fileBytes(files[k]),
    remove: async () => {
      for (const file of Object.values(files)) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    },
  };
}

/** The bench table in a throwaway PostgreSQL cluster, copied into a database per side. */
async function postgresCopies(csv: string, sqliteDb: string): Promise<Copies> {
  const loaded = await loadedPostgres({ dir: path.dirname(csv), csv, sqliteDb, resource: RESOURCE, queries: [], indexes: [["origin"], ["destination", "origin"], ["delay"]] });
  try {
    if (!loaded.superUrl) throw new Error("BENCH_HISTORY_ENGINE=postgres runs in a throwaway cluster: unset DATASTORE_DATABASE_URL");
    const url = new URL(loaded.env.DATASTORE_DATABASE_URL);
    const schema = loaded.env.DATASTORE_PG_SCHEMA;
    const urls = { off: "", on: "" };
    for (const k of ["off", "on"] as const) {
      const db = `history_${k}`;
      await sql(loaded.superUrl, `CREATE DATABASE ${db} TEMPLATE ${url.pathname.slice(1)} OWNER ${url.username}`);
      urls[k] = Object.assign(new URL(url), { pathname: `/${db}` }).toString();
      await sql(urls[k], `UPDATE "${schema}".datastore_resources SET history = ${k === "on"}, history_from = version WHERE id = '${RESOURCE}'`);
    }
    await sql(loaded.superUrl, "CHECKPOINT");
    return {
      open: (k) => openEngine({ databaseUrl: urls[k], schema, pageCacheBytes: 0 }),
      bytes: async (k) => Number((await sql(urls[k], "SELECT pg_database_size(current_database()) AS n"))[0].rows[0].n),
      remove: () => loaded.stop(),
    };
  } catch (e) {
    await loaded.stop();
    throw e;
  }
}

/** A copy with the resource's history on or off, as datastore_create would have set it. */
function copyWith(base: string, history: boolean): string {
  const file = path.join(os.tmpdir(), `bench-history-${history ? "on" : "off"}.db`);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  fs.rmSync(groupsDir(file), { recursive: true, force: true });
  fs.copyFileSync(base, file);
  if (fs.existsSync(groupsDir(base))) fs.cpSync(groupsDir(base), groupsDir(file), { recursive: true });
  const raw = new Database(file);
  // The resource's group keeps a copy of its catalog row, which the reads go by: written too.
  const c: Conn = { db: raw, cache: new StatementCache(raw), limits: { queryTimeoutMs: 0, countBudgetMs: 0 } };
  attachFor(c, [RESOURCE]);
  raw.transaction(() => {
    raw.prepare("UPDATE datastore_resources SET history = ?, history_from = version WHERE id = ?").run(history ? 1 : 0, RESOURCE);
    syncStates(c);
  })();
  raw.close();
  return file;
}

/**
 * Both sides side by side, so that a machine other work loads weighs on both alike: each batch
 * of upserts on one copy then on the other, and each search's runs taken in turn on each.
 */
async function bothSides(copies: Copies): Promise<{ off: Side; on: Side }> {
  let engines = { off: await copies.open("off"), on: await copies.open("on") };
  let ctx = { off: context(engines.off), on: context(engines.on) };
  const before = (await engines.on.historyState((await engines.on.getResource(RESOURCE))!)).version;
  const ms = { off: 0, on: 0 };
  for (let b = 0; b < BATCHES; b++) {
    const records = Array.from({ length: BATCH }, (_, i) => {
      const id = (b * BATCH + i) * 10 + 1;
      return { _id: id, delay: (id % 97) - 20 };
    });
    for (const k of b % 2 ? (["on", "off"] as const) : (["off", "on"] as const)) {
      const t = performance.now();
      await ACTIONS.datastore_upsert.run(ctx[k], { resource_id: RESOURCE, records });
      ms[k] += performance.now() - t;
    }
  }
  await engines.off.close();
  await engines.on.close();
  const out = {
    off: { upsertMs: ms.off, rowsPerSecond: (BATCHES * BATCH) / (ms.off / 1000), bytes: await copies.bytes("off"), search: {} as Record<string, number> },
    on: { upsertMs: ms.on, rowsPerSecond: (BATCHES * BATCH) / (ms.on / 1000), bytes: await copies.bytes("on"), search: {} as Record<string, number>, asOf: {} as Record<string, number> },
  };
  engines = { off: await copies.open("off"), on: await copies.open("on") };
  ctx = { off: context(engines.off), on: context(engines.on) };
  // Every search a few times on both copies first: each read worker's first reads open its
  // connection and fill its caches, and a page with its total uses two workers.
  for (let i = 0; i < (SEARCHING ? 3 : 0); i++) {
    for (const s of SEARCHES) {
      for (const k of ["off", "on"] as const) await timedSearch(ctx[k], s.body);
      await timedSearch(ctx.on, { ...s.body, as_of: before });
    }
  }
  for (const s of SEARCHING ? SEARCHES : []) {
    const times = { off: [] as number[], on: [] as number[], asOf: [] as number[] };
    for (let i = 0; i <= RUNS; i++) {
      const off = await timedSearch(ctx.off, s.body);
      const on = await timedSearch(ctx.on, s.body);
      const past = await timedSearch(ctx.on, { ...s.body, as_of: before });
      if (i === 0) continue; // the first warms the caches
      times.off.push(off);
      times.on.push(on);
      times.asOf.push(past);
    }
    out.off.search[s.name] = median(times.off);
    out.on.search[s.name] = median(times.on);
    out.on.asOf[s.name] = median(times.asOf);
  }
  const history = ((await ACTIONS.datastore_info.run(ctx.on, { resource_id: RESOURCE })) as { meta: { history: unknown } }).meta.history;
  await engines.off.close();
  await engines.on.close();
  await copies.remove();
  return { off: out.off, on: { ...out.on, history } };
}

export function formatHistory(f: { off: Side; on: Side; batches: number }): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const lines = [
    `upsert ${(f.batches * BATCH).toLocaleString("en")} rows (batches of ${BATCH}): history off ${f.off.rowsPerSecond.toFixed(0)} rows/s, on ${f.on.rowsPerSecond.toFixed(0)} rows/s = ${pct(f.on.rowsPerSecond / f.off.rowsPerSecond)} (goal >= 80%)`,
    `file after: off ${(f.off.bytes / 2 ** 20).toFixed(0)} MB, on ${(f.on.bytes / 2 ** 20).toFixed(0)} MB = ${(f.on.bytes / f.off.bytes).toFixed(2)}x (goal <= 1.3x)`,
  ];
  for (const name of Object.keys(f.on.search)) {
    const off = f.off.search[name];
    const on = f.on.search[name];
    const past = f.on.asOf![name];
    lines.push(`${name}: current ${on.toFixed(1)} ms vs ${off.toFixed(1)} ms without history (${on >= off ? "+" : ""}${pct(on / off - 1)}, goal within 5%); as_of before ${past.toFixed(1)} ms = ${(past / on).toFixed(2)}x current (goal <= 2x)`);
  }
  lines.push(`history kept: ${JSON.stringify(f.on.history)}`);
  return lines;
}

export async function historyOnly(dbFile: string, results: string): Promise<void> {
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  process.env.DATASTORE_QUERY_TIMEOUT_MS ??= "600000";
  const engine = process.env.BENCH_HISTORY_ENGINE === "postgres" ? "postgres" : "sqlite";
  const copies = engine === "postgres" ? await postgresCopies(path.join(path.dirname(dbFile), "flights-3m-airports.csv"), dbFile) : sqliteCopies(await migratedCopy(dbFile));
  const { off, on } = await bothSides(copies);
  const figures = { engine, off, on, batches: BATCHES, batch: BATCH, cpus: os.availableParallelism(), load: os.loadavg() };
  for (const line of formatHistory(figures)) console.log(line);
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  const key = engine === "postgres" ? "historyPostgres" : "history";
  fs.writeFileSync(results, JSON.stringify({ ...previous, [key]: figures }, null, 2));
  console.log(`\nJSON: ${results} (key "${key}")`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const i = process.argv.indexOf("--db");
  const db = i >= 0 ? process.argv[i + 1] : "data/bench/bench.db";
  void historyOnly(db, path.join(os.tmpdir(), "bench-history.json"));
}
