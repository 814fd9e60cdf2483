// The bench's "catalog" scenario (issue 28), `npm run bench -- --only catalog`:
//   - on each engine, two fresh stores, each behind its own real server: one with 10 resources,
//     one with BENCH_CATALOG_N (default 10,000) created through datastore_create, 4 at a time
//     over HTTP, two text fields and one record each, the rate of each thousand. On SQLite,
//     BENCH_CATALOG_SQLITE_CREATE=in-process creates them through the actions in this process
//     instead, before that store's server starts (the writer alone, one transaction a resource,
//     no read worker re-reading the schema after each), because over HTTP it takes hours. For each
//     store: resource_search's landing page request, a datastore_search of one table, a read
//     right after a create and right after a datastore_delete of one table; then the landing page's first list in Chromium (load to the
//     first card) of both stores, in turns in one browser, so the machine's load weighs on both;
//   - datastore_search_all for one word over the seven sample tables and the 3M-row flights
//     table (a copy of the bench database with the samples loaded), beside the same
//     datastore_search calls one after another, in-process through the actions, answers kept
//     by neither (no page cache; every table's version raised before each), each word asked
//     once of each, in turns.
// BENCH_CATALOG_ENGINES=sqlite,postgres chooses the engines; BENCH_CATALOG_SKIP_ALL=1 leaves out
// the search-all scenario; BENCH_CATALOG_BUILD=0 starts the server as last built.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import { openEngine } from "../lib/datastore/open";
import { loadSampleData } from "../lib/sample-data/seed";
import { pgUnavailableReason, startCluster } from "../lib/test/pg-cluster";
import { ensureBuilt, startServer, tempDir, type RunningServer } from "../lib/test/server";

const TOKEN = "bench-catalog-token";
const AT_ONCE = 4;
const WORDS = ["Portland", "Seattle", "Denver", "Chicago", "Boston"];
const LANDING_LOADS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function post(server: RunningServer, action: string, body: unknown): Promise<{ ms: number; result: Record<string, unknown> }> {
  const t = performance.now();
  const res = await fetch(`${server.url}/api/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: TOKEN },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; result: Record<string, unknown>; error?: unknown };
  if (!json.success) throw new Error(`${action}: ${res.status} ${JSON.stringify(json.error)}`);
  return { ms: performance.now() - t, result: json.result };
}

function createParams(i: number) {
  return {
    resource: { name: `Bench resource ${String(i).padStart(5, "0")}`, description: `Catalog bench resource number ${i}` },
    fields: [{ id: "a", type: "text" }, { id: "b", type: "text" }],
    records: [{ a: `alpha ${i}`, b: "beta" }],
  };
}

/** Creates resources `from` to `to` - 1 over HTTP, AT_ONCE at a time; returns their ids in order. */
async function createMany(server: RunningServer, from: number, to: number, onThousand?: (done: number) => void): Promise<string[]> {
  const ids: string[] = [];
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const { result } = await post(server, "datastore_create", createParams(i));
      ids[i - from] = result.resource_id as string;
      if ((i + 1) % 1000 === 0) onThousand?.(i + 1);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return ids;
}

/** Creates resources `from` to `to` - 1 through the actions in this process, one after another,
 *  on the SQLite file a server will then open; returns their ids in order. */
async function createInProcess(file: string, from: number, to: number, onThousand?: (done: number) => void): Promise<string[]> {
  const engine = await openEngine({ file, readWorkers: 0 });
  try {
    const ctx: ActionContext = { engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
    const ids: string[] = [];
    for (let i = from; i < to; i++) {
      const result = (await ACTIONS.datastore_create.run(ctx, createParams(i))) as Record<string, unknown>;
      ids.push(result.resource_id as string);
      if ((i + 1) % 1000 === 0) onThousand?.(i + 1);
    }
    return ids;
  } finally {
    await engine.close();
  }
}

/** The landing page's first list in Chromium, from navigation to the first resource card shown,
 *  for each server, taking turns in one browser: medians of LANDING_LOADS after one load each. */
async function landingMs(servers: RunningServer[]): Promise<number[]> {
  const executablePath = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p));
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const times = servers.map(() => [] as number[]);
    for (let i = 0; i <= LANDING_LOADS; i++) {
      for (const [k, server] of servers.entries()) {
        const page = await browser.newPage();
        const t = performance.now();
        await page.goto(server.url);
        await page.getByRole("button", { name: /Bench resource/ }).first().waitFor({ timeout: 60_000 });
        // the first load also fills the browser's cache
        if (i > 0) times[k].push(performance.now() - t);
        await page.close();
      }
    }
    return times.map(median);
  } finally {
    await browser.close();
  }
}

interface AtSize {
  resources: number;
  landingMs: number;
  resourceSearchMs: number;
  readMs: number;
  readMaxMs: number;
  /** A read right after a create, and right after a drop (medians of 3): on SQLite a read worker
   *  parses the schema that changed at its next read. */
  readAfterCreateMs: number;
  readAfterDropMs: number;
  dropMs: number;
  /** Requests that failed (a read past the query timeout). */
  failed: number;
}

async function atSize(server: RunningServer, ids: string[], victims: string[]): Promise<Omit<AtSize, "landingMs">> {
  let failed = 0;
  // A read past the query timeout answers 409: counted, with the time it took, not fatal.
  const timed = async (action: string, body: unknown) => {
    const t = performance.now();
    try {
      return (await post(server, action, body)).ms;
    } catch {
      failed++;
      return performance.now() - t;
    }
  };
  const search: number[] = [];
  for (let i = 0; i < 15; i++) search.push(await timed("resource_search", { has_table: true, limit: 24, offset: 0, order_by: "name" }));
  const read: number[] = [];
  for (let i = 0; i < 15; i++) read.push(await timed("datastore_search", { resource_id: ids[i % ids.length], limit: 10 }));
  const afterCreate: number[] = [];
  for (let i = 0; i < 3; i++) {
    await post(server, "datastore_create", createParams(900_000 + i));
    // a page not asked before: none kept (../lib/datastore/page-cache.ts)
    afterCreate.push(await timed("datastore_search", { resource_id: ids[i % ids.length], limit: 20 + i }));
  }
  const drop: number[] = [];
  const afterDrop: number[] = [];
  for (const [i, id] of victims.entries()) {
    drop.push(await timed("datastore_delete", { resource_id: id }));
    afterDrop.push(await timed("datastore_search", { resource_id: ids[i % ids.length], limit: 30 + i }));
  }
  const count = (await post(server, "resource_search", { limit: 1 })).result.count as number;
  return {
    resources: count,
    resourceSearchMs: median(search),
    readMs: median(read),
    readMaxMs: Math.max(...read),
    readAfterCreateMs: median(afterCreate),
    readAfterDropMs: median(afterDrop),
    dropMs: median(drop),
    failed,
  };
}

/** Waits for a server to answer, for longer than startServer does: on SQLite the writer first
 *  reads the whole schema, which takes minutes with thousands of resources. */
async function answering(server: RunningServer, limitMs = 15 * 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let gone = false;
  void server.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited before it was ready:\n${server.output()}`);
    try {
      const res = await fetch(`${server.url}/api/action/resource_search`, { signal: AbortSignal.timeout(limitMs) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer within ${limitMs / 1000} s:\n${server.output()}`);
}

interface CreateFigures {
  engine: string;
  /** How the large catalog was created: over HTTP, 4 at a time, or through the actions in-process. */
  created: "http" | "in-process";
  n: number;
  perThousand: number[]; // resources a second, each thousand
  /** In-process creates only: this process's CPU per create, each thousand (ms), which the
   *  machine's load changes less than the rate. */
  cpuMsPerCreate: number[];
  /** The large store's server, from start to answering: the writer reads the whole schema. */
  largeStartMs: number;
  lastOverFirst: number;
  small: AtSize;
  large: AtSize;
  landingRatio: number;
  seconds: number;
}

async function createScenario(engine: "sqlite" | "postgres", n: number): Promise<CreateFigures> {
  const dir = tempDir("bench-catalog-");
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  const env: Record<string, string> = { DATASTORE_ADAPTIVE_INDEXES: "0" };
  if (engine === "postgres") {
    const reason = pgUnavailableReason();
    if (reason) throw new Error(`postgres: ${reason}`);
    cluster = await startCluster();
    env.DATASTORE_DATABASE_URL = cluster.url();
  }
  const created = engine === "sqlite" && process.env.BENCH_CATALOG_SQLITE_CREATE === "in-process" ? "in-process" : "http";
  const servers: RunningServer[] = [];
  try {
    const started = performance.now();
    // two stores (two files; on PostgreSQL two schemas of one cluster): 10 to measure and 3 to drop at that size
    const small = await startServer({ dbFile: path.join(dir, "small.db"), env, adminToken: TOKEN });
    servers.push(small);
    const first = await createMany(small, 0, 13);
    const smallFigures = await atSize(small, first.slice(0, 10), first.slice(10));
    const perThousand: number[] = [];
    const cpuMsPerCreate: number[] = [];
    let mark = performance.now();
    let cpuMark = process.cpuUsage();
    const log = (done: number) => {
      const now = performance.now();
      perThousand.push(Math.round((1000 / ((now - mark) / 1000)) * 10) / 10);
      mark = now;
      const cpu = process.cpuUsage(cpuMark);
      cpuMark = process.cpuUsage();
      if (created === "in-process") cpuMsPerCreate.push(Math.round((cpu.user + cpu.system) / 1000 / 1000 * 100) / 100);
      const cpuText = created === "in-process" ? `, ${cpuMsPerCreate.at(-1)} ms CPU a create` : "";
      console.log(`  ${engine}: ${done} resources, ${perThousand.at(-1)}/s over the last thousand${cpuText}`);
    };
    const largeFile = path.join(dir, "large.db");
    let rest: string[] = [];
    if (created === "in-process") {
      mark = performance.now();
      cpuMark = process.cpuUsage();
      rest = await createInProcess(largeFile, 0, n + 3, log);
    }
    const startedAt = performance.now();
    const large = await startServer({ dbFile: largeFile, env, adminToken: TOKEN, waitReady: created === "http" });
    servers.push(large);
    if (created === "in-process") await answering(large);
    const largeStartMs = Math.round(performance.now() - startedAt);
    if (created === "http") {
      mark = performance.now();
      rest = await createMany(large, 0, n + 3, log);
    }
    const largeFigures = await atSize(large, rest.slice(0, 10), rest.slice(-3));
    const [smallLanding, largeLanding] = await landingMs([small, large]);
    const last = perThousand.at(-1) ?? NaN;
    return {
      engine,
      created,
      n,
      perThousand,
      cpuMsPerCreate,
      largeStartMs,
      lastOverFirst: Math.round((last / perThousand[0]) * 100) / 100,
      small: { ...smallFigures, landingMs: smallLanding },
      large: { ...largeFigures, landingMs: largeLanding },
      landingRatio: Math.round((largeLanding / smallLanding) * 100) / 100,
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    for (const server of servers) await server.stop();
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface SearchAllFigures {
  tables: number;
  words: string[];
  oneByOneMs: number[];
  searchAllMs: number[];
  ratio: number;
  matchesAgree: boolean;
}

async function searchAllScenario(benchDb: string): Promise<SearchAllFigures> {
  const copy = path.join(path.dirname(benchDb), "catalog-scratch.db");
  for (const f of ["", "-wal", "-shm"]) fs.rmSync(copy + f, { force: true });
  fs.copyFileSync(benchDb, copy);
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  process.env.DATASTORE_QUERY_TIMEOUT_MS ??= "600000";
  const engine = await openEngine({ file: copy, pageCacheBytes: 0 });
  try {
    const ctx: ActionContext = { engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
    if ((await engine.listResources()).length < 8) await loadSampleData(engine, ctx.tokens);
    const act = (name: string, params: Record<string, unknown>) => ACTIONS[name].run(ctx, params) as Promise<Record<string, unknown>>;
    const tables = (await engine.listResources()).filter((r) => r.active);
    const ids = tables.map((r) => r.id);
    // Every table's version raised (its first field's info written as it is): no total counted
    // before is used again (counts are kept per version), as for a question asked the first time.
    const fresh = async () => {
      for (const r of tables) await engine.alterFields(r.id, [], [r.fields[0]], []);
    };
    const oneByOne: number[] = [];
    const all: number[] = [];
    let agree = true;
    const sequential = async (q: string) => {
      await fresh();
      const t = performance.now();
      const totals = new Map<string, number>();
      for (const id of ids) {
        const r = await act("datastore_search", { resource_id: id, q, limit: 3 });
        if ((r.total as number) > 0) totals.set(id, r.total as number);
      }
      oneByOne.push(performance.now() - t);
      return totals;
    };
    const together = async (q: string, kept = true) => {
      await fresh();
      const t = performance.now();
      const r = (await act("datastore_search_all", { q, limit: 3, budget_ms: 60_000 })) as { results: { resource_id: string; total: number }[] };
      if (kept) all.push(performance.now() - t);
      return new Map(r.results.map((x) => [x.resource_id, x.total]));
    };
    await together("warmup", false); // opens every table's statements once
    for (const [i, q] of WORDS.entries()) {
      // in turns, so that neither always reads what the other left in the caches
      const [a, b] = i % 2 === 0 ? [await sequential(q), await together(q)] : [await together(q), await sequential(q)];
      agree &&= JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
    }
    return { tables: ids.length, words: WORDS, oneByOneMs: oneByOne.map(Math.round), searchAllMs: all.map(Math.round), ratio: Math.round((median(all) / median(oneByOne)) * 100) / 100, matchesAgree: agree };
  } finally {
    await engine.close();
    for (const f of ["", "-wal", "-shm"]) fs.rmSync(copy + f, { force: true });
  }
}

export async function catalogOnly(benchDb: string, results: string): Promise<void> {
  const n = Number(process.env.BENCH_CATALOG_N ?? 10_000);
  const engines = (process.env.BENCH_CATALOG_ENGINES ?? "sqlite,postgres").split(",").filter(Boolean) as ("sqlite" | "postgres")[];
  // BENCH_CATALOG_BUILD=0: the server as last built (other suites may hold the build lock for long)
  if (engines.length && process.env.BENCH_CATALOG_BUILD !== "0") await ensureBuilt();
  const figures: Record<string, unknown> = {};
  if (process.env.BENCH_CATALOG_SKIP_ALL !== "1") {
    console.log("datastore_search_all over the samples and the 3M-row table…");
    const s = await searchAllScenario(benchDb);
    figures.searchAll = s;
    console.log(`  ${s.tables} tables, medians: one by one ${median(s.oneByOneMs)} ms, datastore_search_all ${median(s.searchAllMs)} ms: ${s.ratio}x (goal <= 0.7x); same matches: ${s.matchesAgree}`);
  }
  for (const engine of engines) {
    console.log(`Creating ${n} resources on ${engine}…`);
    const f = await createScenario(engine, n);
    figures[engine] = f;
    console.log(`  ${engine} (${f.created}): per thousand ${f.perThousand.join(", ")}/s; last/first ${f.lastOverFirst} (goal >= 0.5)`);
    if (f.cpuMsPerCreate.length) console.log(`  CPU a create, per thousand: ${f.cpuMsPerCreate.join(", ")} ms`);
    console.log(`  the large store's server started in ${f.largeStartMs} ms`);
    for (const [label, s] of [["10", f.small], [String(f.large.resources), f.large]] as const) {
      console.log(`  ${label} resources: landing page ${Math.round(s.landingMs)} ms, resource_search ${s.resourceSearchMs.toFixed(1)} ms, read ${s.readMs.toFixed(1)} ms (slowest ${Math.round(s.readMaxMs)}; after a create ${Math.round(s.readAfterCreateMs)}, after a drop ${Math.round(s.readAfterDropMs)}), drop ${s.dropMs.toFixed(1)} ms, ${s.failed} failed`);
    }
    console.log(`  landing page ${f.landingRatio}x (goal <= 1.5x; both stores in turns, medians of ${LANDING_LOADS})`);
  }
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  fs.writeFileSync(results, JSON.stringify({ ...previous, catalog: figures }, null, 2));
  console.log(`\nJSON: ${results} (key "catalog")`);
}
