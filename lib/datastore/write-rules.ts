// CKAN's rules for the records of a write (datastore_create, datastore_upsert), with its words,
// once for every engine: what a record must be, which keys it may hold, and how an update or
// upsert names the row it changes. An engine's row writer only looks the row up and writes it.
import type { StoredResource } from "./catalog-row";
import { DatastoreError } from "./errors";
import { pyRepr } from "./python-repr";

type Target = Pick<StoredResource, "columns" | "primaryKey">;

/** A record is a JSON object (`row` 0-based, the message 1-based, as CKAN's). */
export function mustBeObject(record: unknown, row: number): asserts record is Record<string, unknown> {
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    throw DatastoreError.validation({ records: [`row "${row + 1}" is not a JSON object`] });
  }
}

/** An inserted record holds only the resource's fields (and `_id`). */
export function noExtraKeys(r: Target, record: Record<string, unknown>, row: number): void {
  const extra = Object.keys(record).filter((k) => k !== "_id" && !r.columns.has(k));
  if (extra.length) throw DatastoreError.validation({ records: [`row "${row + 1}" has extra keys "${extra.join('", "')}"`] });
}

/** An updated or upserted record names only existing fields. */
export function noUnknownFields(r: Target, record: Record<string, unknown>): void {
  const unknown = Object.keys(record).filter((k) => k !== "_id" && !r.columns.has(k));
  if (unknown.length) throw DatastoreError.field("fields", `fields "${unknown.join('", "')}" do not exist`);
}

/**
 * How an update or upsert finds its row: by `_id` when the record has one, else by the
 * primary key, whose every field the record must hold. Returns the `_id`, or the key's
 * field ids to look the row up by.
 */
export function rowKey(r: Target, record: Record<string, unknown>): { id: unknown } | { key: string[] } {
  if (record._id !== undefined && record._id !== null) return { id: record._id };
  if (r.primaryKey.length === 0) throw DatastoreError.field("table", "unique key must be passed for update/upsert");
  const missing = r.primaryKey.filter((k) => !(k in record));
  if (missing.length) throw DatastoreError.field("key", `fields "${missing.join('", "')}" are missing but needed as key`);
  return { key: r.primaryKey };
}

/** An update of a row that does not exist. */
export function keyNotFound(r: Target, record: Record<string, unknown>): DatastoreError {
  const values = record._id !== undefined ? [record._id] : r.primaryKey.map((k) => record[k]);
  return DatastoreError.field("key", `key "${pyRepr(values)}" not found`);
}

/** A record that repeats the primary key of another, as PostgreSQL words it for CKAN. */
export function duplicateKey(resourceId: string, row: number): DatastoreError {
  return DatastoreError.validation({ records: [`duplicate key value violates unique constraint "${resourceId}_pkey"`], records_row: row });
}
