// The bench's "aggregate" scenario (issue 25): exact answers on the 3M-row flights table, each
// beside its floor, in one run so that the ratios hold on a loaded machine. Through the actions
// themselves (datastore_aggregate, datastore_summary: parameters, the engine on its read
// workers, the kept results), without HTTP; the floors are the plain statements run directly
// with better-sqlite3 (or `pg`) on a connection of their own, on the same indexes.
//   - a cold exact aggregate: group by origin and month, count and average delay, delay > 30
//     (each run a question not asked before: another `limit`), beside the same GROUP BY;
//   - the same under a narrow filter, delay > 120 (an index picks the rows: sqlite/aggregate.ts);
//   - the same again (kept): the median of ten;
//   - after an upsert of one row: the next answer, which must count it (the row is then deleted);
//   - the summary of all 11 fields, exact, beside the plain statements that compute the same
//     figures (empties, distinct values, top values or min, max and bins) one after another.
// `npm run bench -- --only aggregate` (or npx tsx scripts/bench-aggregate.ts [--db FILE]).
// BENCH_AGGREGATE_ENGINE=postgres: the same on PostgreSQL (postgresSide: the CSV imported once
// into a throwaway cluster with bench-postgres.ts's settings, or a store already holding it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { attachAll } from "../lib/datastore/sqlite/groups";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { openEngine } from "../lib/datastore/open";
import { loadedPostgres } from "./bench-postgres";

const RESOURCE = "flights-3m";
type Engine = "sqlite" | "postgres";

interface Figures {
  engine: Engine;
  load: number[];
  aggregate: { floor: number[]; cold: number[]; floorCpu: number[]; coldCpu: number[]; again: number; afterUpsert: number; counted: boolean; coldOverFloor: number; coldOverFloorCpu: number };
  /** The same under a narrow filter (`delay > 120`, 1.4% of the rows), which its index picks. */
  narrow: { floor: number[]; cold: number[]; coldOverFloor: number };
  summary: { floor: number; floorStatements: number; ours: number; again: number; oursOverFloor: number; floorCpu: number; oursCpu: number; exact: boolean };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One engine's store for the bench: the engine on it, the floors as plain statements on a
 *  connection of their own, and the CPU time the work costs. */
interface Side {
  engine: DatastoreEngine;
  /** The plain GROUP BY of the aggregate under `delay > above`, grouping by the same expressions. */
  floor(above: number): Promise<unknown>;
  /** The summary's figures as plain statements, one after another. */
  summaryFloor(): Promise<{ statements: number }>;
  /** CPU ms used so far: this process (its read workers included) and, on PostgreSQL, the
   *  server's processes (its parallel workers included, once ended). On a machine other work
   *  loads, the CPU a read takes is what its wall time would be alone. */
  cpuMs(): number;
  close(): Promise<void>;
}

const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function timed<T>(side: Side, fn: () => Promise<T> | T): Promise<{ ms: number; cpuMs: number; out: T }> {
  const t = performance.now();
  const cpu = side.cpuMs();
  const out = await fn();
  return { ms: performance.now() - t, cpuMs: side.cpuMs() - cpu, out };
}

interface Field {
  id: string;
  type: string;
  column: string;
}

/** The summary's figures as plain statements, in each engine's dialect: empties, distinct
 *  values, then the top values (text) or min, max and 20 bins (numbers, times). */
async function summaryStatements(fields: Field[], table: string, run: (sql: string) => Promise<unknown[][]>, epoch: (c: string) => string): Promise<number> {
  let statements = 0;
  const counted = (sql: string) => {
    statements++;
    return run(sql);
  };
  for (const f of fields) {
    const c = `"${f.column}"`;
    const text = f.type === "text";
    await counted(`SELECT count(*) FROM "${table}" WHERE ${c} IS NULL${text ? ` OR ${c} = ''` : ""}`);
    await counted(`SELECT count(DISTINCT ${c}) FROM "${table}" WHERE ${c} IS NOT NULL${text ? ` AND ${c} <> ''` : ""}`);
    if (text) {
      await counted(`SELECT ${c}, count(*) AS n FROM "${table}" WHERE ${c} IS NOT NULL AND ${c} <> '' GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10`);
      continue;
    }
    const pos = f.type === "timestamp" || f.type === "date" ? epoch(c) : c;
    const [[lo, hi]] = (await counted(`SELECT min(${pos}), max(${pos}) FROM "${table}"`)) as [[number | null, number | null]];
    if (lo === null || hi === null) continue;
    const step = Math.max((Number(hi) - Number(lo)) / 20, 1e-9);
    await counted(`SELECT floor((${pos} - ${Number(lo)}) / ${step}), count(*) FROM "${table}" WHERE ${c} IS NOT NULL GROUP BY 1`);
  }
  return statements;
}

/** The SQLite bench database: the floors with better-sqlite3 on a connection of their own. */
async function sqliteSide(dbFile: string): Promise<Side> {
  const engine = await openEngine({ file: dbFile });
  const raw = new Database(dbFile, { readonly: true, fileMustExist: true });
  attachAll(raw, dbFile); // the resource's table is in its group file
  const row = raw.prepare("SELECT table_name, fields FROM datastore_resources WHERE id = ?").get(RESOURCE) as { table_name: string; fields: string } | undefined;
  if (!row) throw new Error(`${dbFile} holds no resource ${RESOURCE}: run npm run bench once`);
  const fields = JSON.parse(row.fields) as Field[];
  const col = (id: string) => `"${fields.find((f) => f.id === id)!.column}"`;
  // The month as ours groups it (sqlite/aggregate.ts PERIOD_SQL), so that the floor is the same GROUP BY.
  const floorSql = `SELECT ${col("origin")}, substr(${col("date")}, 1, 7), count(*), avg(${col("delay")}) FROM "${row.table_name}" WHERE ${col("delay")} > ? GROUP BY 1, 2`;
  return {
    engine,
    floor: async (above) => raw.prepare(floorSql).all(above),
    summaryFloor: async () => ({ statements: await summaryStatements(fields, row.table_name, async (sql) => raw.prepare(sql).raw().all() as unknown[][], (c) => `unixepoch(${c})`) }),
    cpuMs: processCpuMs,
    close: async () => {
      raw.close();
      await engine.close();
    },
  };
}

/** CPU ms of a PostgreSQL server on this machine: the postmaster's own and its ended children's
 *  (parallel workers' included), and its live children's; undefined when it is not local. */
function serverCpuMs(postmaster: number): number | undefined {
  const ticks = (pid: number, children: boolean) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // utime, stime, cutime, cstime: fields 14-17, counted here from field 3 (after the name)
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    } catch {
      return 0; // ended meanwhile: its time is in the postmaster's children's
    }
  };
  if (!fs.existsSync(`/proc/${postmaster}`)) return undefined;
  const kids = fs.readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  // USER_HZ is 100 on Linux.
  return ((ticks(postmaster, true) + kids.reduce((n, k) => n + ticks(k, false), 0)) * 1000) / 100;
}

/**
 * The bench table on PostgreSQL: the store DATASTORE_DATABASE_URL / DATASTORE_PG_SCHEMA names
 * when it already holds the resource (as it is), else the CSV imported into a throwaway cluster
 * as bench-postgres.ts imports it (its settings, indexes and VACUUM ANALYZE). The floors with
 * `pg` on a connection of their own.
 */
async function postgresSide(dbFile: string): Promise<Side> {
  let url = process.env.DATASTORE_DATABASE_URL?.trim() ?? "";
  let schema = process.env.DATASTORE_PG_SCHEMA?.trim() || "datastore";
  let stop = async () => {};
  const holds = async () => {
    if (!url) return false;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'datastore_resources'", [schema])).rowCount !== 0 && (await c.query(`SELECT 1 FROM "${schema}".datastore_resources WHERE id = $1`, [RESOURCE])).rowCount !== 0;
    } finally {
      await c.end();
    }
  };
  if (!(await holds())) {
    const loaded = await loadedPostgres({ dir: path.dirname(dbFile), csv: path.join(path.dirname(dbFile), "flights-3m-airports.csv"), sqliteDb: dbFile, resource: RESOURCE, queries: [], indexes: [["origin"], ["destination", "origin"], ["delay"]] });
    ({ DATASTORE_DATABASE_URL: url, DATASTORE_PG_SCHEMA: schema } = loaded.env);
    stop = loaded.stop;
  }
  const raw = new pg.Client({ connectionString: url, options: `-c search_path="${schema}"` });
  let engine: DatastoreEngine | undefined;
  try {
    await raw.connect();
    await raw.query("SET statement_timeout = 0");
    const { rows } = await raw.query<{ table_name: string; fields: string; pid: number }>("SELECT table_name, fields::text AS fields, pg_backend_pid() AS pid FROM datastore_resources WHERE id = $1", [RESOURCE]);
    const table = rows[0].table_name;
    const fields = JSON.parse(rows[0].fields) as Field[];
    const postmaster = Number(fs.readFileSync(`/proc/${rows[0].pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1] ?? NaN);
    const col = (id: string) => `"${fields.find((f) => f.id === id)!.column}"`;
    // The month as ours groups it (postgres/aggregate.ts PERIOD_SQL).
    const floorSql = `SELECT ${col("origin")}, date_trunc('month', ${col("date")}::timestamp)::date, count(*), avg(${col("delay")}) FROM "${table}" WHERE ${col("delay")} > $1 GROUP BY 1, 2`;
    engine = await openEngine({ databaseUrl: url, schema });
    const opened = engine;
    return {
      engine,
      floor: (above) => raw.query(floorSql, [above]),
      summaryFloor: async () => ({ statements: await summaryStatements(fields, table, async (sql) => (await raw.query<unknown[]>({ text: sql, rowMode: "array" })).rows, (c) => `extract(epoch from ${c})`) }),
      cpuMs: () => processCpuMs() + (Number.isFinite(postmaster) ? (serverCpuMs(postmaster) ?? NaN) : NaN),
      close: async () => {
        await raw.end();
        await opened.close();
        await stop();
      },
    };
  } catch (e) {
    await raw.end().catch(() => {});
    await engine?.close();
    await stop();
    throw e;
  }
}

export async function benchAggregate(dbFile: string, engineName: Engine = process.env.BENCH_AGGREGATE_ENGINE === "postgres" ? "postgres" : "sqlite"): Promise<Figures> {
  // No index learned from these reads: the bench table keeps the indexes every scenario measures on.
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  // Whole-table answers on a loaded machine may take longer than the 10 s default: the figures
  // are wanted, not a 409.
  process.env.DATASTORE_QUERY_TIMEOUT_MS ??= "600000";
  const side = engineName === "postgres" ? await postgresSide(dbFile) : await sqliteSide(dbFile);
  const ctx: ActionContext = { engine: side.engine, tokens: new TokenStore(side.engine.tokens), user: { scope: "admin", name: "bench" } };
  const act = (name: string, params: Record<string, unknown>) => ACTIONS[name].run(ctx, params) as Promise<Record<string, unknown>>;
  const load = [os.loadavg()[0]];
  try {
    const ask = (limit: number, delayAbove = 30) => ({
      resource_id: RESOURCE,
      group_by: ["origin", { field: "date", period: "month" }],
      metrics: [{ fn: "count" }, { fn: "avg", field: "delay" }],
      filters: { delay: { gt: delayAbove } },
      limit,
    });

    console.log(`${engineName}: aggregate: floor and cold, alternating…`);
    // Alternating, so that both see the same load.
    const [floor, cold, floorCpu, coldCpu]: number[][] = [[], [], [], []];
    for (let i = 0; i < 3; i++) {
      const f = await timed(side, () => side.floor(30));
      const o = await timed(side, () => act("datastore_aggregate", ask(1000 + i)));
      floor.push(f.ms);
      floorCpu.push(f.cpuMs);
      cold.push(o.ms);
      coldCpu.push(o.cpuMs);
    }
    const narrow = { floor: [] as number[], cold: [] as number[] };
    for (let i = 0; i < 3; i++) {
      narrow.floor.push((await timed(side, () => side.floor(120))).ms);
      narrow.cold.push((await timed(side, () => act("datastore_aggregate", ask(2000 + i, 120)))).ms);
    }
    const again: number[] = [];
    for (let i = 0; i < 10; i++) again.push((await timed(side, () => act("datastore_aggregate", ask(1000)))).ms);

    // One row more (origin "ZZZ"), counted by the next answer; then deleted again.
    await act("datastore_upsert", { resource_id: RESOURCE, method: "insert", records: [{ date: "2008-12-31T23:59:00", delay: 45, origin: "ZZZ", destination: "ATL" }] });
    const after = await timed(side, () => act("datastore_aggregate", ask(1000)));
    const groups = after.out.groups as { key: unknown[]; values: { count: number } }[];
    const counted = groups.some((g) => g.key[0] === "ZZZ" && g.values.count === 1) || (after.out.others as { count: number }).count > 0;
    // records_delete: it refuses to run without filters (datastore_delete would drop the table).
    await act("datastore_records_delete", { resource_id: RESOURCE, filters: { origin: "ZZZ" } });
    load.push(os.loadavg()[0]);

    console.log(`${engineName}: summary: the floor's statements, then ours…`);
    const summaryFloor = await timed(side, () => side.summaryFloor());
    const ours = await timed(side, () => act("datastore_summary", { resource_id: RESOURCE }));
    const summaryAgain = await timed(side, () => act("datastore_summary", { resource_id: RESOURCE }));
    load.push(os.loadavg()[0]);
    return {
      engine: engineName,
      load,
      aggregate: { floor, cold, floorCpu, coldCpu, again: median(again), afterUpsert: after.ms, counted, coldOverFloor: median(cold) / median(floor), coldOverFloorCpu: median(coldCpu) / median(floorCpu) },
      narrow: { ...narrow, coldOverFloor: median(narrow.cold) / median(narrow.floor) },
      summary: {
        floor: summaryFloor.ms,
        floorStatements: summaryFloor.out.statements,
        ours: ours.ms,
        again: summaryAgain.ms,
        oursOverFloor: ours.ms / summaryFloor.ms,
        floorCpu: summaryFloor.cpuMs,
        oursCpu: ours.cpuMs,
        exact: ours.out.partial === false,
      },
    };
  } finally {
    await side.close();
  }
}

export function formatAggregate(f: Figures): string[] {
  const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
  const a = f.aggregate;
  const s = f.summary;
  return [
    `${f.engine}, load average ${f.load.map((x) => x.toFixed(1)).join(", ")}`,
    "exact aggregate (origin × month, count and avg delay, delay > 30), in process through the action:",
    `  cold      ${a.cold.map(ms).join(", ")}   floor (the plain GROUP BY) ${a.floor.map(ms).join(", ")}   cold/floor ${a.coldOverFloor.toFixed(2)} (goal ≤ 0.3)`,
    `  CPU time${f.engine === "postgres" ? " (this process and the server's)" : ""}  cold ${a.coldCpu.map(ms).join(", ")}   floor ${a.floorCpu.map(ms).join(", ")}   cold/floor ${a.coldOverFloorCpu.toFixed(2)}`,
    `  narrow    delay > 120: cold ${f.narrow.cold.map(ms).join(", ")}   floor ${f.narrow.floor.map(ms).join(", ")}   cold/floor ${f.narrow.coldOverFloor.toFixed(2)}`,
    `  again     ${ms(a.again)} (median of 10; goal < 10 ms)`,
    `  after an upsert of one row: ${ms(a.afterUpsert)}, the row counted: ${a.counted}`,
    `summary of all fields, exact (${s.exact}): ${ms(s.ours)}, again ${ms(s.again)}; floor (${s.floorStatements} plain statements one after another) ${ms(s.floor)}; ours/floor ${s.oursOverFloor.toFixed(2)} (goal < 0.5); CPU ${ms(s.oursCpu)} against ${ms(s.floorCpu)}, ${(s.oursCpu / s.floorCpu).toFixed(2)}`,
  ];
}

/** `npm run bench -- --only aggregate`: this scenario alone, stored beside the last full run's figures. */
export async function aggregateOnly(dbFile: string, results: string): Promise<void> {
  const figures = await benchAggregate(dbFile);
  for (const line of formatAggregate(figures)) console.log(line);
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  const key = figures.engine === "postgres" ? "aggregatePostgres" : "aggregate";
  fs.writeFileSync(results, JSON.stringify({ ...previous, [key]: figures }, null, 2));
  console.log(`\nJSON: ${results} (key "${key}")`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const i = process.argv.indexOf("--db");
  const db = i >= 0 ? process.argv[i + 1] : "data/bench/bench.db";
  void benchAggregate(db).then((f) => {
    for (const line of formatAggregate(f)) console.log(line);
  });
}
