// Writes records one at a time with prepared statements (insert, update, upsert by `_id` or the
// primary key) and deletes rows by filters, keeping the full-text index in step in the same
// transaction. A batch's changes reach the index together once its rows are written (indexBatch).
import type { Filter, WriteAuthor, WriteMethod } from "../engine";
import { DatastoreError } from "../errors";
import { CastError, toStorage, type Stored } from "../types";
import { mustGet, touch, type Internal, type StoredField } from "./catalog";
import type { Conn, Statement } from "./connection";
import { isUniqueViolation } from "./errors";
import { ftsSource } from "./sql";
import { ftsTable } from "./fts-index";
import { ensureHistoryTables, ImageKeeper, keepsHistory, logVersion, nextVersion } from "./history";
import { isPlainObject } from "../validate";
import { allOf } from "../where";
import { Where } from "./where";
import { duplicateKey, keyNotFound, mustBeObject, noExtraKeys, noUnknownFields, rowKey } from "../write-rules";
import { quoteIdent as q } from "./sql";

/** Writes `records` as one version (history.ts); the caller holds the transaction. */
export function writeRecords(c: Conn, id: string, records: Record<string, unknown>[], method: WriteMethod, author?: WriteAuthor): void {
  if (records.length === 0) return;
  const r = mustGet(c, id);
  // Inserts keep no images: the log's largest `_id` tells a version's new rows (history.ts).
  const keeper = method !== "insert" && keepsHistory(c, id) ? new ImageKeeper(c, r, ensureHistoryTables(c, r), nextVersion(r)) : null;
  const writer = new RowWriter(c, r, keeper);
  keeper?.keepFirst(writer.named(records));
  let added = 0;
  records.forEach((record, i) => {
    try {
      added += writer.write(record, method, i);
    } catch (e) {
      if (e instanceof CastError) throw DatastoreError.validation({ records: [e.message], records_row: i });
      // CKAN answers a duplicate on INSERT or UPDATE under `records`, naming the row.
      if (isUniqueViolation(e)) throw duplicateKey(r.id, i);
      throw e;
    }
  });
  writer.indexBatch();
  touch(c, id, added);
  logVersion(c, r, "write", author);
}

/** Deletes the rows matching every filter (all rows without filters) as one version, their
 *  images kept when the resource keeps history; returns how many. */
export function deleteRows(c: Conn, id: string, filters: Filter[], author?: WriteAuthor): number {
  const r = mustGet(c, id);
  const where = new Where(r);
  for (const f of filters) where.filter(f);
  const fts = ftsTable(r.table);
  const hasFts = r.columns.size > 0;
  let deleted: number;
  if (keepsHistory(c, id)) new ImageKeeper(c, r, ensureHistoryTables(c, r), nextVersion(r)).beforeDelete(where.parts.length ? where.sql() : "", where.params);
  if (where.parts.length === 0) {
    if (hasFts) c.db.exec(`INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('delete-all')`);
    deleted = c.db.prepare(`DELETE FROM ${q(r.table)}`).run().changes;
  } else {
    const cond = where.sql();
    if (hasFts) c.db.prepare(`DELETE FROM ${q(fts)} WHERE rowid IN (SELECT _id FROM ${q(r.table)} AS t WHERE ${cond})`).run(...where.params);
    deleted = c.db.prepare(`DELETE FROM ${q(r.table)} AS t WHERE ${cond}`).run(...where.params).changes;
  }
  touch(c, id, -deleted);
  if (deleted > 0) logVersion(c, r, "delete", author);
  return deleted;
}

class RowWriter {
  private fields: StoredField[];
  private fts: string;
  /** Rows this batch wrote, to index once it ends. */
  private changed = new Set<number>();
  /** Of those, the ones indexed before it: the text each was indexed with, read before its
   *  first change (FTS5 must be told the words it removes). */
  private indexedAs = new Map<number, unknown[]>();

  constructor(
    private c: Conn,
    private r: Internal,
    /** Keeps a row's image before an update, or null (history off, or inserts only). */
    private keeper: ImageKeeper | null,
  ) {
    this.fields = [...r.columns.values()];
    this.fts = ftsTable(r.table);
  }

  private cast(record: Record<string, unknown>, f: StoredField): Stored {
    return toStorage(f.type, record[f.id]);
  }

  /** The row's text as the index reads it (the view): integers as such, so that bound again
   *  each is the same value and spells the same words. */
  private indexText(id: number): unknown[] {
    // Prepared once per batch: a lookup by its long text would cost per row.
    this.readText ??= this.c.db.prepare(`SELECT ${this.fields.map((f) => q(f.column)).join(", ")} FROM ${q(ftsSource(this.r.table))} WHERE _id = ?`).raw(true).safeIntegers(true);
    return this.readText.get(id) as unknown[];
  }

  private readText?: Statement;

  /** Before a row changes: its words, unless this batch already changed it (or inserted it). */
  private changing(id: number): void {
    if (this.changed.has(id)) return;
    if (this.fields.length) this.indexedAs.set(id, this.indexText(id));
    this.changed.add(id);
  }

  /**
   * Takes the batch's rows out of the index and puts them back as they now are, in `_id` order,
   * one row at a time. FTS5 keeps a transaction's changes in memory and writes them as a new
   * segment at commit, but also before any statement that opens a statement journal (xSavepoint:
   * an INSERT … SELECT, such as the history images) and whenever a row comes before the last one
   * it was given; each segment written adds merge work on the whole index. Done row by row
   * between the writes, a batch wrote a segment or two per row; done here, one.
   */
  indexBatch(): void {
    if (this.fields.length === 0 || this.changed.size === 0) return;
    const cols = this.fields.map((f) => q(f.column)).join(", ");
    const marks = this.fields.map(() => ", ?").join("");
    const fts = q(this.fts);
    const remove = this.c.cache.get(`INSERT INTO ${fts} (${fts}, rowid, ${cols}) VALUES ('delete', ?${marks})`);
    const add = this.c.cache.get(`INSERT INTO ${fts} (rowid, ${cols}) VALUES (?${marks})`);
    for (const id of [...this.changed].sort((a, b) => a - b)) {
      const old = this.indexedAs.get(id);
      if (old) remove.run(id, ...old);
      add.run(id, ...this.indexText(id));
    }
    this.changed.clear();
    this.indexedAs.clear();
  }

  private insert(record: Record<string, unknown>): void {
    const values = this.fields.map((f) => this.cast(record, f));
    const cols = this.fields.map((f) => q(f.column));
    const sql = cols.length
      ? `INSERT INTO ${q(this.r.table)} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`
      : `INSERT INTO ${q(this.r.table)} DEFAULT VALUES`;
    this.changed.add(Number(this.c.cache.get(sql).run(...values).lastInsertRowid));
  }

  /**
   * The rows that exist before the batch and that its records name to update (by `_id`, or by
   * the primary key's values; a record with no field to set changes nothing), each once. A row
   * a key names before the batch is one it updates: if an earlier record moves the key away,
   * that record updated it. Records that cannot be read are left to write() to report.
   */
  named(records: Record<string, unknown>[]): number[] {
    const ids = new Set<number>();
    for (const record of records) {
      if (!isPlainObject(record) || !this.fields.some((f) => f.id in record)) continue;
      try {
        // By `_id`: ImageKeeper.keepFirst reads only the rows that exist.
        const id = record._id !== undefined && record._id !== null ? (toStorage("int8", record._id) as number) : this.findKey(record);
        if (id !== undefined) ids.add(id);
      } catch {
        // write() reports it, and the batch is rolled back
      }
    }
    return [...ids];
  }

  /** Returns the number of rows added (0 for an update). */
  write(record: Record<string, unknown>, method: WriteMethod, row: number): number {
    mustBeObject(record, row);
    if (method === "insert") {
      noExtraKeys(this.r, record, row);
      this.insert(record);
      return 1;
    }
    noUnknownFields(this.r, record);
    const id = this.findKey(record);
    if (id === undefined) {
      if (method === "update") throw keyNotFound(this.r, record);
      this.insert(record);
      return 1;
    }
    const present = this.fields.filter((f) => f.id in record);
    if (present.length) {
      const values = present.map((f) => this.cast(record, f));
      this.changing(id);
      this.keeper?.beforeUpdate(id);
      this.c.cache.get(`UPDATE ${q(this.r.table)} SET ${present.map((f) => `${q(f.column)} = ?`).join(", ")} WHERE _id = ?`).run(...values, id);
    }
    return 0;
  }

  private findKey(record: Record<string, unknown>): number | undefined {
    const by = rowKey(this.r, record);
    if ("id" in by) {
      return this.c.cache.get(`SELECT _id FROM ${q(this.r.table)} WHERE _id = ?`, "pluck").get(toStorage("int8", by.id)) as number | undefined;
    }
    const cols = by.key.map((k) => this.r.columns.get(k)!);
    return this.c.cache
      .get(`SELECT _id FROM ${q(this.r.table)} WHERE ${allOf(cols.map((col) => `${q(col.column)} IS ?`))}`, "pluck")
      .get(...cols.map((col) => this.cast(record, col))) as number | undefined;
  }
}

