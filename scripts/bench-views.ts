// The bench's "views" scenario (issue 14): the Summary, a monthly line chart and a map of all
// rows of the 3M-row table, each over HTTP beside its floor: the same SQL the answer amounts to
// (the spread sample's read, or the sample's GROUP BY), run in-process with better-sqlite3 with
// nothing else. The exact GROUP BY over every row is shown too, as what the budget avoids. The
// map's "first points" is measured in Chromium: from opening the Map tab's URL to the first
// point drawn. Standalone, against a server already serving the bench database:
//   npx tsx scripts/bench-views.ts --url http://127.0.0.1:3999 [--db data/bench/bench.db] [--resource flights-3m]
import fs from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { attachAll } from "../lib/datastore/sqlite/groups";

type Body = Record<string, unknown>;
export type Post = (action: string, body: Body) => Promise<{ status: number; ms: number; json: () => unknown }>;

interface Stats {
  n: number;
  median: number;
  p95: number;
}

export interface ViewsResult {
  summary: { http: Stats; floor: Stats; partial: boolean; rows: number };
  monthlyLine: { http: Stats; floor: Stats; exactFloor: Stats; partial: boolean; rows: number; groups: number };
  mapGrid: { http: Stats; floor: Stats; partial: boolean; rows: number; cells: number };
  mapFirstPoints: Stats | null;
}

/** The fields the map reads on the bench table (the origin airport's coordinates). */
export const MAP_FIELDS = ["latitude", "longitude"] as const;

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, median: s[Math.floor(s.length / 2)] ?? NaN, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? NaN };
}

function time(fn: () => void, repeats: number): Stats {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = process.hrtime.bigint();
    fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return stats(ms);
}

async function timeHttp(post: Post, action: string, body: Body, repeats: number): Promise<{ stats: Stats; last: Record<string, unknown> }> {
  let last: Record<string, unknown> = {};
  const warm = await post(action, body);
  if (warm.status !== 200) throw new Error(`${action} answered ${warm.status}: ${JSON.stringify(warm.json()).slice(0, 300)}`);
  const ms: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const a = await post(action, body);
    ms.push(a.ms);
    last = (a.json() as { result: Record<string, unknown> }).result;
  }
  return { stats: stats(ms), last };
}

/** The in-process floors: the sampled rows' read and GROUP BYs, on the resource's own table. */
class Floors {
  private db: Database.Database;
  private table: string;

  private columns: Map<string, string>;

  private lo: number;
  private hi: number;

  constructor(file: string, resourceId: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    attachAll(this.db, file); // the resource's table is in its group file
    const row = this.db.prepare("SELECT table_name, fields FROM datastore_resources WHERE id = ?").get(resourceId) as { table_name: string; fields: string } | undefined;
    if (!row) throw new Error(`no resource ${resourceId} in ${file}`);
    this.table = `"${row.table_name.replace(/"/g, '""')}"`;
    // each field lives in a column cN (the catalog's field list says which)
    this.columns = new Map((JSON.parse(row.fields) as { id: string; column: string }[]).map((f) => [f.id, `"${f.column}"`]));
    [this.lo, this.hi] = this.db.prepare(`SELECT min(_id), max(_id) FROM ${this.table}`).raw().get() as [number, number];
  }

  /** `n` ids spread through the table, as spread-sample.ts picks them (one per equal stretch). */
  private ids(n: number): string {
    const step = (this.hi - this.lo + 1) / n;
    return JSON.stringify(Array.from({ length: n }, (_, i) => this.lo + Math.floor((i + 0.5) * step)));
  }

  column(field: string): string {
    const c = this.columns.get(field);
    if (!c) throw new Error(`no field ${field}`);
    return c;
  }

  sampleRead(n: number, repeats: number): Stats {
    const stmt = this.db.prepare(`SELECT * FROM ${this.table} AS t WHERE t._id IN (SELECT value FROM json_each(?))`).raw();
    const ids = this.ids(n);
    return time(() => stmt.all(ids), repeats);
  }

  /** The GROUP BY over a sample of `n` rows, or over every row (n = null). */
  groupBy(keySql: string, n: number | null, repeats: number): Stats {
    const where = n === null ? "" : "WHERE t._id IN (SELECT value FROM json_each(?))";
    const stmt = this.db.prepare(`SELECT ${keySql} AS k, count(*), min(_id) FROM ${this.table} AS t ${where} GROUP BY k`).raw();
    const ids = n === null ? "" : this.ids(n);
    return time(() => (n === null ? stmt.all() : stmt.all(ids)), repeats);
  }

  close() {
    this.db.close();
  }
}

async function mapFirstPoints(baseUrl: string, resourceId: string): Promise<Stats | null> {
  const { chromium } = await import("@playwright/test");
  const executablePath = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  let browser;
  try {
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  } catch (e) {
    console.error(`map timing skipped: no browser (${(e as Error).message.split("\n")[0]})`);
    return null;
  }
  try {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // the page notes when the first point appears: Playwright's own waiting polls, at
      // intervals that would round the figure up
      await page.addInitScript(() => {
        const w = window as unknown as { firstPoint?: number };
        new MutationObserver((_, observer) => {
          if (document.querySelector("[data-map-points] circle")) {
            w.firstPoint = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${baseUrl}/?resource_id=${resourceId}&view=map`, { waitUntil: "commit" });
      await page.locator("[data-map-points] circle").first().waitFor({ state: "attached", timeout: 30_000 });
      const ms = await page.evaluate(() => (window as unknown as { firstPoint: number }).firstPoint);
      if (i > 0) times.push(ms); // the first warms the server's file cache
      await context.close();
    }
    return stats(times);
  } finally {
    await browser.close();
  }
}

export async function benchViews(opts: { post: Post; baseUrl: string; dbFile: string; resourceId: string; repeats?: number }): Promise<ViewsResult> {
  const { post, resourceId } = opts;
  const repeats = opts.repeats ?? 15;
  const summary = await timeHttp(post, "datastore_summary", { resource_id: resourceId }, repeats);
  const line = await timeHttp(post, "datastore_aggregate", { resource_id: resourceId, group_by: "date", period: "month" }, repeats);
  const grid = await timeHttp(post, "datastore_aggregate", { resource_id: resourceId, group_by: [...MAP_FIELDS], bin: 1, limit: 5000 }, repeats);

  const floors = new Floors(opts.dbFile, resourceId);
  // the floors read as many rows as the answers were computed over
  const rowsOf = (r: Record<string, unknown>) => (r.partial ? Number(r.rows) : null);
  const date = floors.column("date");
  const [lat, lon] = MAP_FIELDS.map((f) => floors.column(f));
  const result: ViewsResult = {
    summary: { http: summary.stats, floor: floors.sampleRead(rowsOf(summary.last) ?? 10_000, repeats), partial: Boolean(summary.last.partial), rows: Number(summary.last.rows) },
    monthlyLine: {
      http: line.stats,
      floor: floors.groupBy(`substr(${date}, 1, 7)`, rowsOf(line.last), repeats),
      exactFloor: floors.groupBy(`substr(${date}, 1, 7)`, null, 2),
      partial: Boolean(line.last.partial),
      rows: Number(line.last.rows),
      groups: (line.last.groups as unknown[]).length,
    },
    mapGrid: {
      http: grid.stats,
      floor: floors.groupBy(`floor(${lat}) || ',' || floor(${lon})`, rowsOf(grid.last), repeats),
      partial: Boolean(grid.last.partial),
      rows: Number(grid.last.rows),
      cells: (grid.last.groups as unknown[]).length,
    },
    mapFirstPoints: await mapFirstPoints(opts.baseUrl, resourceId),
  };
  floors.close();
  return result;
}

export function formatViews(v: ViewsResult): string[] {
  const ms = (s: Stats) => `median ${s.median.toFixed(1)} ms (p95 ${s.p95.toFixed(1)})`;
  const sampled = (partial: boolean, rows: number) => `${partial ? "partial: a spread sample" : "exact"} of ${rows.toLocaleString("en-US")} rows`;
  return [
    `\nviews over all rows (issue 14), ${v.summary.http.n} requests each, HTTP beside the floor (the same SQL in-process):`,
    `  Summary:              ${ms(v.summary.http)}; floor ${ms(v.summary.floor)} (${sampled(v.summary.partial, v.summary.rows)})`,
    `  monthly line chart:   ${ms(v.monthlyLine.http)}; floor ${ms(v.monthlyLine.floor)} (${sampled(v.monthlyLine.partial, v.monthlyLine.rows)}, ${v.monthlyLine.groups} months); exact GROUP BY over every row ${v.monthlyLine.exactFloor.median.toFixed(0)} ms`,
    `  map grid (1° cells):  ${ms(v.mapGrid.http)}; floor ${ms(v.mapGrid.floor)} (${sampled(v.mapGrid.partial, v.mapGrid.rows)}, ${v.mapGrid.cells} cells)`,
    v.mapFirstPoints
      ? `  map, first points drawn in Chromium after opening the Map tab's URL: median ${v.mapFirstPoints.median.toFixed(0)} ms (p95 ${v.mapFirstPoints.p95.toFixed(0)}, ${v.mapFirstPoints.n} fresh profiles)`
      : "  map in Chromium: skipped (no browser)",
  ];
}

async function cli() {
  const { values } = parseArgs({ options: { url: { type: "string" }, db: { type: "string" }, resource: { type: "string" } } });
  if (!values.url) throw new Error("--url http://127.0.0.1:PORT is required");
  const base = values.url.replace(/\/$/, "");
  const post: Post = async (action, body) => {
    const t = process.hrtime.bigint();
    const res = await fetch(`${base}/api/action/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, ms: Number(process.hrtime.bigint() - t) / 1e6, json: () => JSON.parse(text) };
  };
  const result = await benchViews({ post, baseUrl: base, dbFile: values.db ?? "data/bench/bench.db", resourceId: values.resource ?? "flights-3m" });
  for (const line of formatViews(result)) console.log(line);
}

if (process.argv[1]?.endsWith("bench-views.ts")) {
  cli().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
