// The bulk-load fast path behind the engine's bulkLoad (imports): rows go in with multi-row
// INSERTs from one prepared statement, and the full-text index is filled afterwards from the
// table with INSERT … SELECT in chunks, so no per-row FTS call crosses from JS. The caller
// holds one transaction around the whole load; values are cast by the same toStorage rules
// as every other write.
import type { Field } from "../engine";
import { DatastoreError } from "../errors";
import { CastError, toStorage, type Stored } from "../types";
import type { Conn, DB, Statement } from "./connection";
import { isUniqueViolation as isUnique } from "./errors";
import { ftsTable, indexRange } from "./fts-index";
import { quoteIdent as q } from "./sql";

export interface BulkColumn extends Field {
  column: string;
}

/** Bound parameters per multi-row INSERT: large enough to amortise the call, well under SQLite's limit. */
const PARAMS_PER_STATEMENT = 2000;

/** FTS5's automerge while bulk indexing, and its default. */
const LOAD_AUTOMERGE = 16;
const DEFAULT_AUTOMERGE = 4;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** A string starting `YYYY-MM-DD` that is a real day (years 100–9999), or false. */
function canonicalDate(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : DAYS[m - 1]);
}

/** A `YYYY-MM-DDTHH:MM:SS` that is a real moment, or false. */
function canonicalTimestamp(s: string): boolean {
  if (s.length !== 19 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const h = digits(s, 11, 2);
  const m = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  return h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 && canonicalDate(s);
}

/**
 * Casts for one column. A date or timestamp already in the stored form (what Parquet and
 * our own dumps hold) is checked in place, which costs a fraction of the general parser;
 * every other value goes through toStorage, so the accepted inputs are the same.
 */
export function caster(c: BulkColumn): (v: unknown) => Stored {
  const t = c.type;
  if (t === "timestamp") return (v) => (typeof v === "string" && canonicalTimestamp(v) ? v : toStorage(t, v));
  if (t === "date") return (v) => (typeof v === "string" && v.length === 10 && canonicalDate(v) ? v : toStorage(t, v));
  return (v) => toStorage(t, v);
}

export class BulkLoader {
  private readonly perStatement: number;
  private readonly multi: Statement | null;
  private readonly single: Statement;
  private readonly db: DB;
  private readonly buffer: Stored[];
  private readonly casts: ((v: unknown) => Stored)[];
  /** Rows appended get ids above this (AUTOINCREMENT never goes back). */
  private readonly firstId: number;
  private indexedTo: number;
  private added = 0;
  private indexed = 0;
  private finished = false;
  private merging: number | null = null;

  constructor(
    private readonly c: Conn,
    private readonly table: string,
    private readonly all: BulkColumn[],
    private readonly targets: BulkColumn[],
    private readonly onFinish: (added: number) => void,
  ) {
    const db = (this.db = c.db);
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
    this.firstId = db.prepare(`SELECT coalesce(max(_id), 0) FROM ${q(table)}`).pluck().get() as number;
    this.indexedTo = this.firstId;
  }

  append(rows: unknown[][]): void {
    if (this.finished) throw new Error("bulk load already finished");
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
    this.added += rows.length;
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
          records: [`duplicate key value violates unique constraint "${this.table}_pk"`],
          records_row: row,
        });
      }
    }
  }

  private castFailure(e: unknown, row: number, col: number): unknown {
    if (!(e instanceof CastError)) return e;
    return DatastoreError.validation({ records: [e.message], records_row: row, field: this.targets[col].id });
  }

  index(max: number): number {
    const remaining = this.added - this.indexed;
    if (remaining === 0 || this.all.length === 0) return 0;
    const fts = ftsTable(this.table);
    if (this.merging === null) {
      // Merge segments less eagerly while loading: a growing index is then merged in fewer, larger
      // steps instead of over and over; finish() restores it.
      const row = this.db.prepare(`SELECT v FROM ${q(`${fts}_config`)} WHERE k = 'automerge'`).pluck().get();
      this.merging = typeof row === "number" ? row : DEFAULT_AUTOMERGE;
      this.setAutomerge(LOAD_AUTOMERGE);
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

  private setAutomerge(n: number): void {
    // A literal: FTS5 wants an integer, and better-sqlite3 binds JS numbers as doubles.
    const fts = q(ftsTable(this.table));
    this.db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${Math.trunc(n)})`);
  }

  finish(): number {
    if (this.finished) return this.added;
    while (this.index(100_000) > 0);
    if (this.merging !== null) this.setAutomerge(this.merging);
    this.finished = true;
    this.onFinish(this.added);
    // Fresh planner statistics for a table that just grew by a bulk load.
    this.db.exec(`ANALYZE ${q(this.table)}`);
    return this.added;
  }
}
