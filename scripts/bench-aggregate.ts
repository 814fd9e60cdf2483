// The bench's "aggregate" scenario (issue 25): exact answers on the 3M-row flights table, each
// beside its floor, in one run so that the ratios hold on a loaded machine. Through the actions
// themselves (datastore_aggregate, datastore_summary: parameters, the engine on its read
// workers, the kept results), without HTTP; the floors are the plain statements run directly
// with better-sqlite3 on a connection of their own, on the same indexes.
//   - a cold exact aggregate: group by origin and month, count and average delay, delay > 30
//     (each run a question not asked before: another `limit`), beside the same GROUP BY;
//   - the same under a narrow filter, delay > 120 (an index picks the rows: sqlite/aggregate.ts);
//   - the same again (kept): the median of ten;
//   - after an upsert of one row: the next answer, which must count it (the row is then deleted);
//   - the summary of all 11 fields, exact, beside the plain statements that compute the same
//     figures (empties, distinct values, top values or min, max and bins) one after another.
// `npm run bench -- --only aggregate` (or npx tsx scripts/bench-aggregate.ts [--db FILE]).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { attachAll } from "../lib/datastore/sqlite/groups";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import { openEngine } from "../lib/datastore/open";

const RESOURCE = "flights-3m";

interface Figures {
  aggregate: { floor: number[]; cold: number[]; floorCpu: number[]; coldCpu: number[]; again: number; afterUpsert: number; counted: boolean; coldOverFloor: number; coldOverFloorCpu: number };
  /** The same under a narrow filter (`delay > 120`, 1.4% of the rows), which its index picks. */
  narrow: { floor: number[]; cold: number[]; coldOverFloor: number };
  summary: { floor: number; floorStatements: number; ours: number; again: number; oursOverFloor: number; exact: boolean };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time, and the CPU time of this process (its read workers included): on a machine
 *  other work loads, the CPU a read takes is what its wall time would be alone. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; cpuMs: number; out: T }> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const out = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, out };
}

/** The summary's figures as plain statements, one after another (what the answer amounts to). */
function summaryFloor(raw: Database.Database, table: string, fields: { id: string; type: string; column: string }[]): { ms: number; statements: number } {
  let statements = 0;
  const run = (sql: string, ...params: unknown[]) => {
    statements++;
    return raw.prepare(sql).raw().all(...params) as unknown[][];
  };
  const t = performance.now();
  for (const f of fields) {
    const c = `"${f.column}"`;
    const text = f.type === "text";
    run(`SELECT count(*) FROM "${table}" WHERE ${c} IS NULL${text ? ` OR ${c} = ''` : ""}`);
    run(`SELECT count(DISTINCT ${c}) FROM "${table}" WHERE ${c} IS NOT NULL${text ? ` AND ${c} <> ''` : ""}`);
    if (text) {
      run(`SELECT ${c}, count(*) AS n FROM "${table}" WHERE ${c} IS NOT NULL AND ${c} <> '' GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10`);
      continue;
    }
    const pos = f.type === "timestamp" || f.type === "date" ? `unixepoch(${c})` : c;
    const [[lo, hi]] = run(`SELECT min(${pos}), max(${pos}) FROM "${table}"`) as [[number | null, number | null]];
    if (lo === null || hi === null) continue;
    run(`SELECT floor((${pos} - ?) / ?), count(*) FROM "${table}" WHERE ${c} IS NOT NULL GROUP BY 1`, lo, Math.max((hi - lo) / 20, 1e-9));
  }
  return { ms: performance.now() - t, statements };
}

export async function benchAggregate(dbFile: string): Promise<Figures> {
  // No index learned from these reads: the bench table keeps the indexes every scenario measures on.
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  // Whole-table answers on a loaded machine may take longer than the 10 s default: the figures
  // are wanted, not a 409.
  process.env.DATASTORE_QUERY_TIMEOUT_MS ??= "600000";
  const engine = await openEngine({ file: dbFile });
  const ctx: ActionContext = { engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
  const act = (name: string, params: Record<string, unknown>) => ACTIONS[name].run(ctx, params) as Promise<Record<string, unknown>>;
  const raw = new Database(dbFile, { readonly: true, fileMustExist: true });
  attachAll(raw, dbFile); // the resource's table is in its group file
  try {
    // The table and its columns, as the catalog keeps them.
    const row = raw.prepare("SELECT table_name, fields FROM datastore_resources WHERE id = ?").get(RESOURCE) as { table_name: string; fields: string } | undefined;
    if (!row) throw new Error(`${dbFile} holds no resource ${RESOURCE}: run npm run bench once`);
    const r = { table: row.table_name, fields: JSON.parse(row.fields) as { id: string; type: string; column: string }[] };
    const col = (id: string) => `"${r.fields.find((f) => f.id === id)!.column}"`;
    // The month as ours groups it (sqlite/aggregate.ts PERIOD_SQL), so that the floor is the same GROUP BY.
    const floorSql = `SELECT ${col("origin")}, substr(${col("date")}, 1, 7), count(*), avg(${col("delay")}) FROM "${r.table}" WHERE ${col("delay")} > ? GROUP BY 1, 2`;
    const ask = (limit: number, delayAbove = 30) => ({
      resource_id: RESOURCE,
      group_by: ["origin", { field: "date", period: "month" }],
      metrics: [{ fn: "count" }, { fn: "avg", field: "delay" }],
      filters: { delay: { gt: delayAbove } },
      limit,
    });

    console.log("aggregate: floor and cold, alternating…");
    // Alternating, so that both see the same load.
    const [floor, cold, floorCpu, coldCpu]: number[][] = [[], [], [], []];
    for (let i = 0; i < 3; i++) {
      const f = await timed(() => raw.prepare(floorSql).all(30));
      const o = await timed(() => act("datastore_aggregate", ask(1000 + i)));
      floor.push(f.ms);
      floorCpu.push(f.cpuMs);
      cold.push(o.ms);
      coldCpu.push(o.cpuMs);
    }
    const narrow = { floor: [] as number[], cold: [] as number[] };
    for (let i = 0; i < 3; i++) {
      narrow.floor.push((await timed(() => raw.prepare(floorSql).all(120))).ms);
      narrow.cold.push((await timed(() => act("datastore_aggregate", ask(2000 + i, 120)))).ms);
    }
    const again: number[] = [];
    for (let i = 0; i < 10; i++) again.push((await timed(() => act("datastore_aggregate", ask(1000)))).ms);

    // One row more (origin "ZZZ"), counted by the next answer; then deleted again.
    await act("datastore_upsert", { resource_id: RESOURCE, method: "insert", records: [{ date: "2008-12-31T23:59:00", delay: 45, origin: "ZZZ", destination: "ATL" }] });
    const after = await timed(() => act("datastore_aggregate", ask(1000)));
    const groups = after.out.groups as { key: unknown[]; values: { count: number } }[];
    const counted = groups.some((g) => g.key[0] === "ZZZ" && g.values.count === 1) || (after.out.others as { count: number }).count > 0;
    // records_delete: it refuses to run without filters (datastore_delete would drop the table).
    await act("datastore_records_delete", { resource_id: RESOURCE, filters: { origin: "ZZZ" } });

    console.log("summary: the floor's statements, then ours…");
    const summaryFloors = summaryFloor(raw, r.table, r.fields);
    const ours = await timed(() => act("datastore_summary", { resource_id: RESOURCE }));
    const summaryAgain = await timed(() => act("datastore_summary", { resource_id: RESOURCE }));
    return {
      aggregate: { floor, cold, floorCpu, coldCpu, again: median(again), afterUpsert: after.ms, counted, coldOverFloor: median(cold) / median(floor), coldOverFloorCpu: median(coldCpu) / median(floorCpu) },
      narrow: { ...narrow, coldOverFloor: median(narrow.cold) / median(narrow.floor) },
      summary: {
        floor: summaryFloors.ms,
        floorStatements: summaryFloors.statements,
        ours: ours.ms,
        again: summaryAgain.ms,
        oursOverFloor: ours.ms / summaryFloors.ms,
        exact: ours.out.partial === false,
      },
    };
  } finally {
    raw.close();
    await engine.close();
  }
}

export function formatAggregate(f: Figures): string[] {
  const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
  const a = f.aggregate;
  const s = f.summary;
  return [
    "exact aggregate (origin × month, count and avg delay, delay > 30), in process through the action:",
    `  cold      ${a.cold.map(ms).join(", ")}   floor (the plain GROUP BY) ${a.floor.map(ms).join(", ")}   cold/floor ${a.coldOverFloor.toFixed(2)} (goal ≤ 0.3)`,
    `  CPU time  cold ${a.coldCpu.map(ms).join(", ")}   floor ${a.floorCpu.map(ms).join(", ")}   cold/floor ${a.coldOverFloorCpu.toFixed(2)}`,
    `  narrow    delay > 120: cold ${f.narrow.cold.map(ms).join(", ")}   floor ${f.narrow.floor.map(ms).join(", ")}   cold/floor ${f.narrow.coldOverFloor.toFixed(2)}`,
    `  again     ${ms(a.again)} (median of 10; goal < 10 ms)`,
    `  after an upsert of one row: ${ms(a.afterUpsert)}, the row counted: ${a.counted}`,
    `summary of all fields, exact (${s.exact}): ${ms(s.ours)}, again ${ms(s.again)}; floor (${s.floorStatements} plain statements one after another) ${ms(s.floor)}; ours/floor ${s.oursOverFloor.toFixed(2)} (goal < 0.5)`,
  ];
}

/** `npm run bench -- --only aggregate`: this scenario alone, stored beside the last full run's figures. */
export async function aggregateOnly(dbFile: string, results: string): Promise<void> {
  const figures = await benchAggregate(dbFile);
  for (const line of formatAggregate(figures)) console.log(line);
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  fs.writeFileSync(results, JSON.stringify({ ...previous, aggregate: figures }, null, 2));
  console.log(`\nJSON: ${results} (key "aggregate")`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const i = process.argv.indexOf("--db");
  const db = i >= 0 ? process.argv[i + 1] : "data/bench/bench.db";
  void benchAggregate(db).then((f) => {
    for (const line of formatAggregate(f)) console.log(line);
  });
}
