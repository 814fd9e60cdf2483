// The bulk-load fast path behind the engine's bulkLoad (imports): rows go in with multi-row
// INSERTs from one prepared statement, and the full-text index is filled afterwards from the
// table with INSERT … SELECT in large steps, so no per-row FTS call crosses from JS. The caller
// holds one transaction around the whole load; values are cast by the same toStorage rules
// as every other write. Off the main thread (offThread): a worker writes the rows into part
// files (bulk-sink.ts), and each part is copied in whole here while the worker writes the
// next; its full text is indexed here too, or, into an empty resource, on a thread of its own
// (fts-build.ts) whose index is adopted at the end.
import fs from "node:fs";
import path from "node:path";
import type { BulkLoad, Field, SealedPart } from "../engine";
import { DatastoreError } from "../errors";
import { isStoredDate, isStoredTimestamp } from "../stored-dates";
import { CastError, toStorage, type Stored } from "../types";
import type { Conn, DB, Statement } from "./connection";
import { isUniqueViolation as isUnique, toDatastoreError } from "./errors";
import { FtsBuild } from "./fts-build";
import { LOAD_FTS, adoptFts, ftsOptionsSet, ftsSettings, ftsTable, indexRange, setFtsSettings, type FtsSettings } from "./fts-index";
import { quoteIdent as q } from "./sql";

export interface BulkColumn extends Field {
  column: string;
}

/** Bound parameters per multi-row INSERT: large enough to amortise the call, well under SQLite's limit. */
const PARAMS_PER_STATEMENT = 2000;

/** Parts an off-thread load may attach: SQLite attaches at most 10 databases at once, the
 *  full-text thread's index takes one, and the resource's group one (the engine's transaction
 *  keeps only its resources' groups attached: groups.ts attachFor). */
export const MAX_PARTS = 8;
/** The table a part holds its rows in (bulk-sink.ts). */
export const PART_TABLE = "part";

/**
 * Casts for one column. A date or timestamp already in the stored form (what Parquet and
 * our own dumps hold) is checked in place, which costs a fraction of the general parser;
 * every other value goes through toStorage, so the accepted inputs are the same.
 */
export function caster(c: BulkColumn): (v: unknown) => Stored {
  const t = c.type;
  if (t === "timestamp") return (v) => (typeof v === "string" && isStoredTimestamp(v) ? v : toStorage(t, v));
  if (t === "date") return (v) => (typeof v === "string" && isStoredDate(v) ? v : toStorage(t, v));
  return (v) => toStorage(t, v);
}

/** Casts rows and inserts them with multi-row statements, on the main thread or in a worker's sink. */
export class RowInserter {
  private readonly perStatement: number;
  private readonly multi: Statement | null;
  private readonly single: Statement;
  private readonly buffer: Stored[];
  private readonly casts: ((v: unknown) => Stored)[];

  constructor(
    db: DB,
    /** The table inserted into, and the resource's table its key is named after. */
    table: string,
    private readonly keyOf: string,
    private readonly targets: BulkColumn[],
  ) {
    const n = targets.length;
    const cols = `(${targets.map((c) => q(c.column)).join(", ")})`;
    const one = `(${targets.map(() => "?").join(", ")})`;
    this.perStatement = n === 0 ? 1 : Math.max(1, Math.floor(PARAMS_PER_STATEMENT / n));
    this.single = db.prepare(n ? `INSERT INTO ${q(table)} ${cols} VALUES ${one}` : `INSERT INTO ${q(table)} DEFAULT VALUES`);
    this.multi =
      n && this.perStatement > 1
        ? db.prepare(`INSERT INTO ${q(table)} ${cols} VALUES ${new Array(this.perStatement).fill(one).join(", ")}`)
        : null;
    this.buffer = new Array(this.perStatement * n);
    this.casts = targets.map(caster);
  }

  append(rows: unknown[][]): void {
    const n = this.targets.length;
    const casts = this.casts;
    let start = 0;
    if (this.multi) {
      const per = this.perStatement;
      const buf = this.buffer;
      for (; start + per <= rows.length; start += per) {
        let row = start;
        let col = 0;
        try {
          let k = 0;
          for (; row < start + per; row++) {
            const values = rows[row];
            for (col = 0; col < n; col++) buf[k++] = casts[col](values[col]);
          }
        } catch (e) {
          throw this.castFailure(e, row, col);
        }
        try {
          this.multi.run(buf);
        } catch (e) {
          if (!isUnique(e)) throw e;
          // The statement failed as a whole: find the offending row one by one.
          this.insertEach(rows, start, start + per);
        }
      }
    }
    this.insertEach(rows, start, rows.length);
  }

  private insertEach(rows: unknown[][], from: number, to: number): void {
    const n = this.targets.length;
    const values: Stored[] = new Array(n);
    for (let row = from; row < to; row++) {
      let col = 0;
      try {
        for (; col < n; col++) values[col] = this.casts[col](rows[row][col]);
      } catch (e) {
        throw this.castFailure(e, row, col);
      }
      try {
        this.single.run(values);
      } catch (e) {
        if (!isUnique(e)) throw e;
        throw DatastoreError.validation({
          records: [`duplicate key value violates unique constraint "${this.keyOf}_pk"`],
          records_row: row,
        });
      }
    }
  }

  private castFailure(e: unknown, row: number, col: number): unknown {
    if (!(e instanceof CastError)) return e;
    return DatastoreError.validation({ records: [e.message], records_row: row, field: this.targets[col].id });
  }
}

/** What an off-thread load's worker needs to write parts of `table` (bulk-sink.ts). */
export type SqliteSinkSpec = {
  engine: "sqlite";
  /** Where the parts go: a directory of this load's own. */
  dir: string;
  /** The resource table's CREATE TABLE: a part has the same columns, so it copies in whole. */
  tableSql: string;
  table: string;
  targets: BulkColumn[];
  /** The part rows take ids after this, as the table's AUTOINCREMENT would give them. */
  firstId: number;
};

/** A part as the worker's sink seals it. */
export interface SqlitePart extends SealedPart {
  file: string;
  /** Ids firstId < _id <= firstId + rows. */
  firstId: number;
}

/** The directory parts of loads into `dbFile` go to: `<db>.import-<pid>-<random>`, beside it. */
function partsPrefix(dbFile: string): string {
  return `${dbFile}.import-${process.pid}-`;
}

/** Removes part directories of imports whose process is gone (killed before cleaning up). */
function removeStaleParts(dbFile: string): void {
  const dir = path.dirname(dbFile);
  const mine = `${path.basename(dbFile)}.import-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(mine)) continue;
    const pid = Number(name.slice(mine.length).split("-")[0]);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // its import is still running
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ESRCH") continue;
    }
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function unlink(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // A system that keeps open files (Windows): release() removes it with the directory.
  }
}

export class BulkLoader {
  private readonly db: DB;
  private readonly rows: RowInserter;
  /** Rows appended get ids above this (AUTOINCREMENT never goes back). */
  private readonly firstId: number;
  private indexedTo: number;
  private added = 0;
  private indexed = 0;
  private finished = false;
  /** The FTS5 settings to restore after loading, once indexing has changed them. */
  private ftsBefore: FtsSettings | null = null;
  private parts: { dir: string; attached: string[] } | null = null;
  /** The full-text index built on a thread of its own, for a load into an empty resource. */
  private ftsBuild: FtsBuild | null = null;

  constructor(
    private readonly c: Conn,
    private readonly table: string,
    /** The schema the table lives in (groups.ts schemaOf). */
    private readonly schema: string,
    /** The resource's full-text language, which the off-thread index reads its text in. */
    private readonly language: string,
    private readonly all: BulkColumn[],
    private readonly targets: BulkColumn[],
    private readonly onFinish: (added: number) => void,
  ) {
    const db = (this.db = c.db);
    this.rows = new RowInserter(db, table, table, targets);
    // The table's AUTOINCREMENT counter too: rows removed from the end keep their ids taken.
    this.firstId = db
      .prepare(`SELECT max(coalesce((SELECT seq FROM ${schema}.sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(_id) FROM ${q(table)}), 0))`)
      .pluck()
      .get(table) as number;
    this.indexedTo = this.firstId;
  }

  append(rows: unknown[][]): void {
    if (this.finished) throw new Error("bulk load already finished");
    this.rows.append(rows);
    this.added += rows.length;
  }

  index(max: number): number {
    const remaining = this.added - this.indexed;
    if (remaining === 0 || this.all.length === 0 || this.ftsBuild) return 0;
    if (this.ftsBefore === null) {
      this.ftsBefore = ftsSettings(this.db, this.table);
      setFtsSettings(this.db, this.table, { ...LOAD_FTS });
    }
    // Appended ids are contiguous in practice; a range over _id keeps each chunk a rowid seek.
    const upTo = this.indexedTo + max;
    const changes = indexRange(this.c, this.table, this.all, this.indexedTo, upTo);
    this.indexedTo = upTo;
    this.indexed += changes;
    if (changes === 0 && this.indexed < this.added) {
      // Ids skipped ahead (not expected inside one transaction): index the rest at once.
      this.indexed += indexRange(this.c, this.table, this.all, this.indexedTo);
      this.indexedTo = Number.MAX_SAFE_INTEGER;
    }
    return this.added - this.indexed;
  }

  /** Whether a worker may write the rows: parts need a directory beside a database file. */
  get canOffThread(): boolean {
    return !this.db.memory && this.db.name !== "" && this.db.name !== ":memory:";
  }

  /** Opens the load to a worker (engine.ts OffThreadLoad): its parts go to a directory of their own. */
  offThread(): SqliteSinkSpec {
    const file = this.db.name;
    if (!this.canOffThread || this.finished || this.added > 0) throw new Error("this load cannot go off-thread");
    if (!this.parts) {
      removeStaleParts(file);
      this.parts = { dir: fs.mkdtempSync(partsPrefix(file)), attached: [] };
      const schemaSql = this.db.prepare(`SELECT sql FROM ${this.schema}.sqlite_schema WHERE name = ?`).pluck();
      const empty = this.db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM ${q(this.table)})`).pluck().get() === 1;
      if (empty && this.all.length > 0) {
        this.ftsBuild = new FtsBuild({
          file: path.join(this.parts.dir, "fts.db"),
          table: this.table,
          ftsSql: schemaSql.get(ftsTable(this.table)) as string,
          fields: this.all,
          language: this.language,
          partTable: PART_TABLE,
          options: ftsOptionsSet(this.db, this.table),
          settings: ftsSettings(this.db, this.table),
        });
      }
    }
    const tableSql = this.db.prepare(`SELECT sql FROM ${this.schema}.sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(this.table) as string;
    return { engine: "sqlite", dir: this.parts.dir, tableSql, table: this.table, targets: this.targets, firstId: this.firstId };
  }

  /**
   * Adds a sealed part: attached, its rows copied in whole (SQLite's transfer of a table with
   * the same columns, without decoding a row), and full-text indexed, here or on the
   * full-text thread. The part's file is unlinked once every thread reading it has it open
   * (here at once, or by the full-text thread): its pages stay readable until the part is
   * detached, and a killed import leaves no part behind.
   */
  take(part: SqlitePart): number {
    if (!this.parts || this.finished) throw new Error("no off-thread load to take a part into");
    if (this.parts.attached.length >= MAX_PARTS) throw new Error(`a load takes at most ${MAX_PARTS} parts`);
    if (part.firstId !== this.firstId + this.added) throw new Error(`part ids start after ${part.firstId}, expected ${this.firstId + this.added}`);
    const alias = `part${this.parts.attached.length + 1}`;
    this.attach(part.file, alias);
    // The full-text thread opens the part when it gets to it, and then removes it.
    if (this.ftsBuild) this.ftsBuild.add(part.file);
    else unlink(part.file);
    const copied = this.db.prepare(`INSERT INTO ${q(this.table)} SELECT * FROM ${alias}.${q(PART_TABLE)}`).run().changes;
    if (copied !== part.rows) throw new Error(`part ${part.file}: ${copied} rows copied, ${part.rows} written`);
    this.added += part.rows;
    this.index(part.rows);
    return part.rows;
  }

  private attach(file: string, alias: string): void {
    this.db.prepare(`ATTACH ? AS ${alias}`).run(file);
    this.parts!.attached.push(alias);
  }

  /** Detaches the parts and removes their directory; outside the transaction (SQLite detaches
   *  nothing inside one), and safe to call more than once. */
  async release(): Promise<void> {
    if (!this.parts) return;
    const build = this.ftsBuild;
    this.ftsBuild = null;
    await build?.stop();
    for (const alias of this.parts.attached.splice(0)) {
      try {
        this.db.exec(`DETACH ${alias}`);
      } catch (e) {
        console.error(`datastore: could not detach ${alias}`, e);
      }
    }
    fs.rmSync(this.parts.dir, { recursive: true, force: true });
  }

  async finish(): Promise<number> {
    if (this.finished) return this.added;
    while (this.index(100_000) > 0);
    if (this.ftsBefore !== null) setFtsSettings(this.db, this.table, { ...this.ftsBefore });
    this.finished = true;
    this.onFinish(this.added);
    // Fresh planner statistics for a table that just grew by a bulk load (while the full-text
    // thread, if any, indexes the last part).
    this.db.exec(`ANALYZE ${q(this.table)}`);
    if (this.ftsBuild) {
      const indexed = await this.ftsBuild.finish();
      if (indexed !== this.added) throw new Error(`the full-text thread indexed ${indexed} rows of ${this.added}`);
      this.attach(path.join(this.parts!.dir, "fts.db"), "fts_build");
      adoptFts(this.db, this.table, "fts_build", this.schema);
    }
    return this.added;
  }
}

/** A loader as the engine hands it out: promises, and SQLite's failures in the datastore's words. */
export function bulkLoadHandle(loader: BulkLoader): BulkLoad {
  const guard =
    <A extends unknown[], T>(fn: (...args: A) => T | Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await fn(...args);
      } catch (e) {
        throw toDatastoreError(e);
      }
    };
  const handle: BulkLoad = {
    append: guard((rows) => loader.append(rows)),
    index: guard((max) => loader.index(max)),
    finish: guard(() => loader.finish()),
  };
  if (loader.canOffThread) {
    handle.offThread = () => ({
      sink: loader.offThread(),
      take: guard((part) => loader.take(part as SqlitePart)),
      release: guard(() => loader.release()),
    });
  }
  return handle;
}
