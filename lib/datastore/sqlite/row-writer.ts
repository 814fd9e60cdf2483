// Writes records one at a time with prepared statements (insert, update, upsert by `_id` or the
// primary key) and deletes rows by filters, keeping the full-text index in step in the same
// transaction: a row leaves the index while it still holds the values it was indexed with.
import type { Filter, WriteAuthor, WriteMethod } from "../engine";
import { DatastoreError } from "../errors";
import { CastError, toStorage, type Stored } from "../types";
import { mustGet, touch, type Internal, type StoredField } from "./catalog";
import type { Conn } from "./connection";
import { isUniqueViolation } from "./errors";
import { ftsSource } from "./sql";
import { ftsTable } from "./fts-index";
import { ensureHistoryTables, ImageKeeper, keepsHistory, logVersion, nextVersion } from "./history";
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

  /** Indexes the row as stored (the index must match its view exactly). */
  private indexRow(id: number | bigint): void {
    if (this.fields.length === 0) return;
    const cols = this.fields.map((f) => q(f.column)).join(", ");
    this.c.cache.get(`INSERT INTO ${q(this.fts)} (rowid, ${cols}) SELECT _id, ${cols} FROM ${q(ftsSource(this.r.table))} WHERE _id = ?`).run(id);
  }

  /** Must run while the row still holds the values it was indexed with. */
  private unindexRow(id: number | bigint): void {
    if (this.fields.length === 0) return;
    this.c.cache.get(`DELETE FROM ${q(this.fts)} WHERE rowid = ?`).run(id);
  }

  private insert(record: Record<string, unknown>): void {
    const values = this.fields.map((f) => this.cast(record, f));
    const cols = this.fields.map((f) => q(f.column));
    const sql = cols.length
      ? `INSERT INTO ${q(this.r.table)} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`
      : `INSERT INTO ${q(this.r.table)} DEFAULT VALUES`;
    this.indexRow(this.c.cache.get(sql).run(...values).lastInsertRowid);
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
      this.unindexRow(id);
      this.keeper?.beforeUpdate(id);
      this.c.cache.get(`UPDATE ${q(this.r.table)} SET ${present.map((f) => `${q(f.column)} = ?`).join(", ")} WHERE _id = ?`).run(...values, id);
      this.indexRow(id);
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

