// Writes records (insert, update, upsert by `_id` or the primary key) and deletes rows by
// filters, with CKAN's key rules and messages exactly as the SQLite engine gives them. Inserts
// go in multi-row statements; a statement that fails is replayed row by row under a savepoint,
// so the error names the row. `_full_text` is set by the table's trigger (schema.ts). The
// caller holds the transaction and the resource's catalog lock.
import type { Filter, WriteAuthor, WriteMethod } from "../engine";
import { DatastoreError } from "../errors";
import { CastError } from "../types";
import { duplicateKey, keyNotFound, mustBeObject, noExtraKeys, noUnknownFields, rowKey } from "../write-rules";
import { touch } from "./catalog";
import { isDataError, isUniqueViolation } from "./errors";
import { quoteIdent as q, type PgResource, type Queryable, type StoredField } from "./resource";
import { columnType, toParam } from "./values";
import { whereSql } from "./where";
import { ensureHistoryTables, ImageKeeper, keepsHistory, lastIdBefore, logVersion } from "./history";

/** Bound parameters PostgreSQL takes in one statement. */
const MAX_PARAMS = 65535;
/** Rows per INSERT: enough to amortise the round trip, small enough to plan fast. */
const MAX_ROWS = 1000;

/** Writes `records` as one version (history.ts). */
export async function writeRecords(db: Queryable, r: PgResource, records: Record<string, unknown>[], method: WriteMethod, author?: WriteAuthor): Promise<void> {
  if (records.length === 0) return;
  // Inserts keep no images: the log's largest `_id` tells a version's new rows (history.ts).
  const keeper = method !== "insert" && (await keepsHistory(db, r.id)) ? await imageKeeper(db, r) : null;
  const writer = new RowWriter(db, r, keeper);
  const added = method === "insert" ? await writer.insertAll(records) : await writer.writeEach(records, method);
  await touch(db, r.id, added);
  await logVersion(db, r, "write", author);
}

async function imageKeeper(db: Queryable, r: PgResource): Promise<ImageKeeper> {
  const columns = await ensureHistoryTables(db, r);
  return new ImageKeeper(r, r.version + 1, await lastIdBefore(db, r.id, r.version + 1), columns);
}

/** Deletes the rows matching every filter (all rows without filters) as one version, their
 *  images kept in the same statement when the resource keeps history; returns how many. */
export async function deleteRows(db: Queryable, r: PgResource, filters: Filter[], author?: WriteAuthor): Promise<number> {
  const params: unknown[] = [];
  const cond = filters.length ? whereSql(r, filters, params) : "";
  let deleted: number;
  if (await keepsHistory(db, r.id)) {
    const res = await db.query((await imageKeeper(db, r)).deleteSql(cond), params);
    deleted = Number(res.rows[0].n);
  } else {
    const res = await db.query(`DELETE FROM ${q(r.table)} AS t${cond ? ` WHERE ${cond}` : ""}`, params);
    deleted = res.rowCount ?? 0;
  }
  await touch(db, r.id, -deleted);
  if (deleted > 0) await logVersion(db, r, "delete", author);
  return deleted;
}

/** Records one keyed run may hold. */
const RUN_RECORDS = 500;

/** A record of a keyed run: its index in the request and its key, cast. */
interface Keyed {
  row: number;
  record: Record<string, unknown>;
  key: unknown[];
  byId: boolean;
}

/** A run that must be written record by record instead (writeRun). */
class RunFailed extends Error {}

/** A key column as compared: json has no equality, so its text is compared (as SQLite does). */
function keyColumn(f: StoredField, alias?: string): string {
  const col = alias ? `${alias}.${q(f.column)}` : q(f.column);
  return f.type === "json" ? `${col}::text` : col;
}

/** The type a key value is bound as. */
function keyType(f: StoredField): string {
  return f.type === "json" ? "text" : columnType(f.type);
}

interface PendingRow {
  row: number; // index into the request's records
  values: unknown[];
}

class RowWriter {
  private readonly fields: StoredField[];
  private readonly table: string;

  constructor(
    private readonly db: Queryable,
    private readonly r: PgResource,
    /** Keeps rows' images before an update, or null (history off, or inserts only). */
    private readonly keeper: ImageKeeper | null,
  ) {
    this.fields = [...r.columns.values()];
    this.table = q(r.table);
  }

  /** The error a failure on record `row` answers, as SQLite's row writer words it. */
  private rowError(e: unknown, row: number): unknown {
    if (e instanceof CastError) return DatastoreError.validation({ records: [e.message], records_row: row });
    // CKAN answers a duplicate on INSERT or UPDATE under `records`, naming the row.
    if (isUniqueViolation(e)) return duplicateKey(this.r.id, row);
    if (isDataError(e)) return DatastoreError.validation({ records: [(e as Error).message], records_row: row });
    return e;
  }

  private castRow(record: Record<string, unknown>): unknown[] {
    return this.fields.map((f) => toParam(f.type, record[f.id]));
  }

  // ------------------------------------------------------------------------------ inserts

  /** Inserts every record (method insert); returns the rows added. */
  async insertAll(records: Record<string, unknown>[]): Promise<number> {
    const n = this.fields.length;
    const per = n === 0 ? MAX_ROWS : Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / n)));
    let batch: PendingRow[] = [];
    for (let i = 0; i < records.length; i++) {
      let values: unknown[];
      try {
        mustBeObject(records[i], i);
        noExtraKeys(this.r, records[i], i);
        values = this.castRow(records[i]);
      } catch (e) {
        // Rows before this one fail first, as they would one at a time.
        await this.flush(batch);
        throw this.rowError(e, i);
      }
      batch.push({ row: i, values });
      if (batch.length === per) {
        await this.flush(batch);
        batch = [];
      }
    }
    await this.flush(batch);
    return records.length;
  }

  private insertSql(rows: number): string {
    if (this.fields.length === 0) return `INSERT INTO ${this.table} ("_full_text") SELECT NULL FROM generate_series(1, ${rows})`;
    const cols = this.fields.map((f) => q(f.column)).join(", ");
    let p = 0;
    const tuples = Array.from({ length: rows }, () => `(${this.fields.map(() => `$${++p}`).join(", ")})`);
    return `INSERT INTO ${this.table} (${cols}) VALUES ${tuples.join(", ")}`;
  }

  private async insertRows(batch: PendingRow[]): Promise<void> {
    await this.db.query(this.insertSql(batch.length), batch.flatMap((b) => b.values));
  }

  /** Inserts a batch; when it fails on a value or a key, finds the row that does. */
  private async flush(batch: PendingRow[]): Promise<void> {
    if (batch.length === 0) return;
    if (batch.length === 1) {
      try {
        await this.insertRows(batch);
      } catch (e) {
        throw this.rowError(e, batch[0].row);
      }
      return;
    }
    await this.db.query("SAVEPOINT ds_batch");
    try {
      await this.insertRows(batch);
      await this.db.query("RELEASE SAVEPOINT ds_batch");
      return;
    } catch (e) {
      if (!isUniqueViolation(e) && !isDataError(e)) throw e;
      await this.db.query("ROLLBACK TO SAVEPOINT ds_batch; RELEASE SAVEPOINT ds_batch");
      for (const b of batch) {
        try {
          await this.insertRows([b]);
        } catch (each) {
          throw this.rowError(each, b.row);
        }
      }
      throw e; // not reached: some row fails on its own
    }
  }

  // ------------------------------------------------------------------- updates and upserts

  /**
   * Updates or upserts; returns the rows added. Runs of records keyed alike go in a few
   * statements (keyed: one lookup, one UPDATE per set of fields given, one INSERT); a run that
   * fails in any way is undone and written record by record, which gives the error the record
   * itself would. Records a run cannot take (see keyedRun) are written on their own.
   */
  async writeEach(records: Record<string, unknown>[], method: WriteMethod): Promise<number> {
    let added = 0;
    let i = 0;
    while (i < records.length) {
      const run = this.keyedRun(records, i);
      const done = run.length > 1 ? await this.writeRun(run, method) : null;
      if (done !== null) added += done;
      else for (const k of run.length ? run : [{ row: i }]) added += await this.writeRecord(records[k.row], method, k.row);
      i += Math.max(1, run.length);
    }
    return added;
  }

  private async writeRecord(record: Record<string, unknown>, method: WriteMethod, row: number): Promise<number> {
    try {
      return await this.writeOne(record, method, row);
    } catch (e) {
      throw this.rowError(e, row);
    }
  }

  /**
   * Records from `start` that can be written together: all keyed by `_id` or all by the primary
   * key, every key different and without NULLs (so each names its own row, and no lookup
   * depends on another record's write), every field known, every key value castable.
   */
  private keyedRun(records: Record<string, unknown>[], start: number): Keyed[] {
    const perRun = Math.max(1, Math.min(RUN_RECORDS, Math.floor(MAX_PARAMS / (this.fields.length + this.r.primaryKey.length + 1))));
    const run: Keyed[] = [];
    const seen = new Set<string>();
    let byId: boolean | undefined;
    for (let j = start; j < records.length && run.length < perRun; j++) {
      const record = records[j];
      if (record === null || typeof record !== "object" || Array.isArray(record)) break;
      if (Object.keys(record).some((k) => k !== "_id" && !this.r.columns.has(k))) break;
      const isById = record._id !== undefined && record._id !== null;
      if (byId !== undefined && isById !== byId) break;
      if (!isById && (this.r.primaryKey.length === 0 || this.r.primaryKey.some((k) => !(k in record)))) break;
      let key: unknown[];
      try {
        key = isById ? [toParam("int8", record._id)] : this.r.primaryKey.map((k) => toParam(this.r.columns.get(k)!.type, record[k]));
      } catch {
        break;
      }
      if (key.some((v) => v === null || v === undefined)) break;
      const text = JSON.stringify(key);
      if (seen.has(text)) break;
      seen.add(text);
      byId = isById;
      run.push({ row: j, record, key, byId: isById });
    }
    return run;
  }

  /** Writes a run under a savepoint; null (and nothing written) when any record of it fails. */
  private async writeRun(run: Keyed[], method: WriteMethod): Promise<number | null> {
    await this.db.query("SAVEPOINT ds_run");
    try {
      const ids = await this.lookUp(run);
      const missing = run.filter((k) => !ids.has(k.row));
      if (method === "update" && missing.length) throw new RunFailed();
      // Found rows: one UPDATE per set of fields given.
      const groups = new Map<string, { fields: StoredField[]; items: Keyed[] }>();
      for (const k of run) {
        if (!ids.has(k.row)) continue;
        const present = this.fields.filter((f) => f.id in k.record);
        if (present.length === 0) continue;
        const sig = present.map((f) => f.column).join(",");
        if (!groups.has(sig)) groups.set(sig, { fields: present, items: [] });
        groups.get(sig)!.items.push(k);
      }
      for (const { fields, items } of groups.values()) await this.updateRows(fields, items, ids);
      if (missing.length) await this.insertRows(missing.map((k) => ({ row: k.row, values: this.castRow(k.record) })));
      await this.db.query("RELEASE SAVEPOINT ds_run");
      return missing.length;
    } catch (e) {
      if (!(e instanceof RunFailed || e instanceof CastError || isUniqueViolation(e) || isDataError(e))) throw e;
      await this.db.query("ROLLBACK TO SAVEPOINT ds_run; RELEASE SAVEPOINT ds_run");
      return null;
    }
  }

  /** The `_id` of each record's row (by its index in the request), for those that have one. */
  private async lookUp(run: Keyed[]): Promise<Map<number, unknown>> {
    const ids = new Map<number, unknown>();
    if (run[0].byId) {
      const { rows } = await this.db.query({ text: `SELECT "_id" FROM ${this.table} WHERE "_id" = ANY($1::bigint[])`, values: [run.map((k) => k.key[0])], rowMode: "array" });
      const found = new Set(rows.map((r) => String(r[0])));
      for (const k of run) if (found.has(String(k.key[0]))) ids.set(k.row, k.key[0]);
      return ids;
    }
    const cols = this.r.primaryKey.map((k) => this.r.columns.get(k)!);
    const params: unknown[] = [];
    const tuples = run.map((k, n) => {
      const first = params.length + 1;
      params.push(n, ...k.key);
      // The first tuple's casts type the VALUES list; json keys compare as text, as SQLite's.
      const types = n === 0 ? ["integer", ...cols.map(keyType)] : null;
      return `(${params.slice(first - 1).map((_, i) => `$${first + i}${types ? `::${types[i]}` : ""}`).join(", ")})`;
    });
    const names = cols.map((_, i) => `k${i}`);
    const on = cols.map((c, i) => `${keyColumn(c, "t")} = k.${names[i]}`).join(" AND ");
    const { rows } = await this.db.query({
      text: `SELECT k.i, t."_id" FROM (VALUES ${tuples.join(", ")}) AS k(i, ${names.join(", ")}) JOIN ${this.table} AS t ON ${on}`,
      values: params,
      rowMode: "array",
    });
    for (const [n, id] of rows as [number, unknown][]) if (!ids.has(run[n].row)) ids.set(run[n].row, id);
    return ids;
  }

  /** One UPDATE … FROM (VALUES …) for records giving the same fields. */
  private async updateRows(fields: StoredField[], items: Keyed[], ids: Map<number, unknown>): Promise<void> {
    const params: unknown[] = [];
    const tuples = items.map((k, n) => {
      const values = fields.map((f) => toParam(f.type, k.record[f.id]));
      const base = params.length;
      params.push(ids.get(k.row), ...values);
      const cast = (i: number) => (n === 0 ? `::${i === 0 ? "bigint" : columnType(fields[i - 1].type)}` : "");
      return `(${[0, ...fields.map((_, i) => i + 1)].map((i) => `$${base + i + 1}${cast(i)}`).join(", ")})`;
    });
    const sets = fields.map((f) => `${q(f.column)} = v.${q(f.column)}`).join(", ");
    let keep = "";
    if (this.keeper) {
      params.push(items.map((k) => ids.get(k.row)));
      keep = this.keeper.beforeUpdate(`$${params.length}::bigint[]`);
    }
    await this.db.query(
      `${keep}UPDATE ${this.table} AS t SET ${sets}${this.keeper ? `, ${this.keeper.versionSet()}` : ""} FROM (VALUES ${tuples.join(", ")}) AS v("_id", ${fields.map((f) => q(f.column)).join(", ")}) WHERE t."_id" = v."_id"`,
      params,
    );
  }

  /** Returns the number of rows added (0 for an update). */
  private async writeOne(record: Record<string, unknown>, method: WriteMethod, row: number): Promise<number> {
    mustBeObject(record, row);
    noUnknownFields(this.r, record);
    const id = await this.findKey(record);
    if (id === undefined) {
      if (method === "update") throw keyNotFound(this.r, record);
      await this.insertRows([{ row, values: this.castRow(record) }]);
      return 1;
    }
    const present = this.fields.filter((f) => f.id in record);
    if (present.length) {
      const values = present.map((f) => toParam(f.type, record[f.id]));
      const sets = present.map((f, i) => `${q(f.column)} = $${i + 1}`).join(", ");
      const keep = this.keeper ? this.keeper.beforeUpdate(`ARRAY[$${present.length + 1}::bigint]`) : "";
      await this.db.query(`${keep}UPDATE ${this.table} AS t SET ${sets}${this.keeper ? `, ${this.keeper.versionSet()}` : ""} WHERE t."_id" = $${present.length + 1}`, [...values, id]);
    }
    return 0;
  }

  /** The `_id` of the row the record names (by `_id`, else by the primary key), if any. */
  private async findKey(record: Record<string, unknown>): Promise<unknown> {
    const by = rowKey(this.r, record);
    if ("id" in by) {
      const { rows } = await this.db.query({ text: `SELECT "_id" FROM ${this.table} WHERE "_id" = $1`, values: [toParam("int8", by.id)], rowMode: "array" });
      return rows[0]?.[0];
    }
    const pk = by.key;
    const params: unknown[] = [];
    // `=` where there is a value (the key's index serves it); NULL keys match NULL, as SQLite's `IS`.
    const conds = pk.map((k) => {
      const col = this.r.columns.get(k)!;
      const v = toParam(col.type, record[k]);
      if (v === null || v === undefined) return `${q(col.column)} IS NULL`;
      params.push(v);
      return `${keyColumn(col)} = $${params.length}`;
    });
    const { rows } = await this.db.query({ text: `SELECT "_id" FROM ${this.table} WHERE ${conds.join(" AND ")} LIMIT 1`, values: params, rowMode: "array" });
    return rows[0]?.[0];
  }
}

