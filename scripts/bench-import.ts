// The import's floor for `npm run bench` (issue 13): raw SQLite doing the importer's work one
// step after another on rows already parsed — a plain insert, the FTS5 build, then one index
// build per field — shaped like a resource (schema.ts, fts-index.ts, fts-text.ts), beside the
// real importer timed as a user runs it. Every figure comes from the run that prints it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { FTS_TOKENIZER, ftsColumnExpr, registerFtsFunctions } from "../lib/datastore/sqlite/fts-text";
import { caster } from "../lib/datastore/sqlite/bulk-load";
import { sqliteType, type TypeName } from "../lib/datastore/types";
import { CsvParser } from "../lib/import/csv-parser";
import { TypeSampler } from "../lib/import/infer";

export interface ImportFloor {
  rows: number;
  /** Seconds per step, each with its own commit: insert, fts, then `index <field>` per index. */
  steps: Record<string, number>;
  seconds: number;
  /** CPU time of the steps (user + system): near `seconds` when the machine is quiet. */
  cpuSeconds: number;
  rowsPerSecond: number;
}

export interface TimedImport {
  command: string;
  rows: number;
  seconds: number;
  /** CPU time of the import's process, all its threads (user + system); null off Linux. */
  cpuSeconds: number | null;
  rowsPerSecond: number;
}

/** Rows parsed and cast as the importer stores them (types inferred from the first 10,000). */
interface Parsed {
  columns: string[];
  types: TypeName[];
  rows: number;
  /** Row-major stored values; repeated strings shared, so 3M rows fit in a few hundred MB. */
  values: unknown[];
}

async function parseCsv(file: string): Promise<Parsed> {
  const parser = new CsvParser(",");
  const records: string[][] = [];
  let columns: string[] | null = null;
  let types: TypeName[] | null = null;
  let casts: ((v: unknown) => unknown)[] = [];
  let shared: Map<string, string>[] = [];
  const values: unknown[] = [];
  let rows = 0;
  const take = () => {
    for (const r of records) {
      for (let i = 0; i < r.length; i++) {
        let v = r[i] === "" ? null : casts[i](r[i]);
        if (typeof v === "string") {
          const seen = shared[i].get(v);
          if (seen === undefined) shared[i].set(v, v);
          else v = seen;
        }
        values.push(v);
      }
      rows++;
    }
    records.length = 0;
  };
  for await (const chunk of fs.createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    parser.write(chunk as string, records);
    if (!types && records.length > 10_000) {
      columns = records.shift()!;
      const sampler = new TypeSampler(columns.length);
      for (const r of records.slice(0, 10_000)) sampler.add(r.map((v) => (v === "" ? null : v)));
      types = sampler.types();
      casts = types.map((type, i) => caster({ id: columns![i], type, column: `c${i + 1}` }));
      shared = columns.map(() => new Map());
    }
    if (types) take();
  }
  parser.end(records);
  if (!types || !columns) throw new Error(`${file}: fewer than 10,000 rows`);
  take();
  return { columns, types, rows, values };
}

/** Waits for the disk to take what earlier steps wrote, so it does not slow the next one. */
function settle(): void {
  spawnSync("sync", { stdio: "ignore" });
}

/** CPU seconds (user + system) of this process's children it has waited for, from /proc (Linux). */
function childrenCpu(): number | null {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[13]) + Number(f[14])) / 100; // cutime and cstime, in USER_HZ ticks
  } catch {
    return null;
  }
}

function seconds(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

/**
 * Raw SQLite on `dbFile` (replaced): the CSV is parsed and cast first (not timed), then each
 * step runs and commits before the next. The connection is SQLite's defaults (page cache,
 * temp store, no helper threads) in the datastore's journal mode (WAL, synchronous=NORMAL).
 */
export async function measureImportFloor(csv: string, dbFile: string, indexFields: string[]): Promise<ImportFloor> {
  const p = await parseCsv(csv);
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  settle();
  const db = new Database(dbFile);
  try {
    registerFtsFunctions(db);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    const n = p.columns.length;
    const cols = p.columns.map((_, i) => `c${i + 1}`);
    db.exec(`CREATE TABLE t (_id INTEGER PRIMARY KEY AUTOINCREMENT, ${cols.map((c, i) => `${c} ${sqliteType(p.types[i])}`).join(", ")})`);
    db.exec(`CREATE VIEW t_text AS SELECT _id, ${cols.map((c, i) => `${ftsColumnExpr(c, p.types[i])} AS ${c}`).join(", ")} FROM t`);
    db.exec(
      `CREATE VIRTUAL TABLE t_fts USING fts5(${cols.join(", ")}, content='t_text', content_rowid='_id', detail=column, tokenize='${FTS_TOKENIZER}')`,
    );
    // The statement shape of the importer's own bulk insert: as many rows as fit 2,000 parameters.
    const per = Math.max(1, Math.floor(2000 / n));
    const tuple = `(${cols.map(() => "?").join(", ")})`;
    const many = db.prepare(`INSERT INTO t (${cols.join(", ")}) VALUES ${new Array(per).fill(tuple).join(", ")}`);
    const one = db.prepare(`INSERT INTO t (${cols.join(", ")}) VALUES ${tuple}`);
    const steps: Record<string, number> = {};
    const cpu = process.cpuUsage();
    steps.insert = seconds(() => {
      db.exec("BEGIN");
      const buf = new Array(per * n);
      let r = 0;
      for (; r + per <= p.rows; r += per) {
        for (let k = 0, at = r * n; k < per * n; k++) buf[k] = p.values[at + k];
        many.run(buf);
      }
      for (; r < p.rows; r++) one.run(p.values.slice(r * n, r * n + n));
      db.exec("COMMIT");
    });
    steps.fts = seconds(() => db.exec("INSERT INTO t_fts (t_fts) VALUES ('rebuild')"));
    for (const field of indexFields) {
      const at = p.columns.indexOf(field);
      if (at < 0) throw new Error(`${field} is not a column of ${csv}`);
      steps[`index ${field}`] = seconds(() => db.exec(`CREATE INDEX t_ix_${cols[at]} ON t (${cols[at]})`));
    }
    const total = Object.values(steps).reduce((a, b) => a + b, 0);
    const used = process.cpuUsage(cpu);
    return { rows: p.rows, steps, seconds: total, cpuSeconds: (used.user + used.system) / 1e6, rowsPerSecond: Math.round(p.rows / total) };
  } finally {
    db.close();
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  }
}

/**
 * `npm run import` as a user runs it, into a new `dbFile` (replaced, and left for the caller),
 * timed from start to exit. Run it before measureImportFloor in one process: the floor holds
 * every parsed row in memory, and collecting it slows an import run after it
 * (docs/performance.md, "Import").
 */
export function timedImport(csv: string, dbFile: string, args: string[]): TimedImport {
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  settle();
  const argv = ["--import", "tsx", "scripts/import.ts", csv, "--quiet", ...args];
  const cpuBefore = childrenCpu();
  const t = process.hrtime.bigint();
  const res = spawnSync(process.execPath, argv, {
    env: { ...process.env, DATASTORE_DB: dbFile, DATASTORE_SAMPLE_DATA: "0" },
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  const elapsed = Number(process.hrtime.bigint() - t) / 1e9;
  const cpuAfter = childrenCpu();
  if (res.status !== 0) throw new Error(`import failed (${res.status})`);
  const rows = Number(/Imported ([\d,]+) rows?/.exec(res.stdout)?.[1].replace(/,/g, "") ?? NaN);
  return { command: `npm run import -- ${path.relative(process.cwd(), csv)} ${args.join(" ")}`, rows, seconds: elapsed, cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, rowsPerSecond: Math.round(rows / elapsed) };
}

/** The two side by side, as the bench prints them. */
export function formatImportComparison(floor: ImportFloor, ours: TimedImport): string {
  const steps = Object.entries(floor.steps)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(", ");
  const verdict = ours.seconds < floor.seconds ? "faster than" : "slower than";
  // CPU beside wall time: on a loaded machine the wall times stretch, the CPU times much less.
  const oursCpu = ours.cpuSeconds === null ? "" : `, CPU ${ours.cpuSeconds.toFixed(1)} s (${(ours.cpuSeconds / floor.cpuSeconds).toFixed(2)}× the floor's)`;
  return [
    `import floor (raw SQLite, one step after another): ${floor.seconds.toFixed(1)} s, CPU ${floor.cpuSeconds.toFixed(1)} s, ${floor.rowsPerSecond.toLocaleString("en-US")} rows/s (${steps})`,
    `import (${ours.command}): ${ours.seconds.toFixed(1)} s${oursCpu}, ${ours.rowsPerSecond.toLocaleString("en-US")} rows/s, ${verdict} the floor by ${Math.abs(floor.seconds - ours.seconds).toFixed(1)} s (${(ours.seconds / floor.seconds).toFixed(2)}× its time)`,
    `load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(", ")}`,
  ].join("\n");
}

/** The bench's import comparison: ours first (the floor holds every parsed row), then the floor. */
export async function compareImport(csv: string, dbFile: string, fields: string[]): Promise<{ ours: TimedImport; floor: ImportFloor }> {
  const ours = timedImport(csv, dbFile, ["--index", fields.join(","), "--no-auto-index"]);
  const floor = await measureImportFloor(csv, dbFile, fields);
  return { ours, floor };
}

/** `npm run bench -- --only import`: the comparison alone, stored beside the last full run's figures. */
export async function importOnly(csv: string, dbFile: string, results: string): Promise<void> {
  const { ours, floor } = await compareImport(csv, dbFile, ["origin", "delay"]);
  console.log(formatImportComparison(floor, ours));
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  fs.writeFileSync(results, JSON.stringify({ ...previous, importWithIndexes: { ours, floor, ratio: ours.seconds / floor.seconds } }, null, 2));
  console.log(`\nJSON: ${results} (key "importWithIndexes")`);
}

// `npx tsx scripts/bench-import.ts [CSV] [--index a,b] [--db FILE]`: the comparison alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const csv = path.resolve(args[0] && !args[0].startsWith("--") ? args[0] : "data/bench/flights-3m-airports.csv");
  const fields = opt("--index", "origin,delay").split(",");
  const db = path.resolve(opt("--db", "data/bench/import-scratch.db"));
  void compareImport(csv, db, fields).then(({ ours, floor }) => console.log(formatImportComparison(floor, ours)));
}
