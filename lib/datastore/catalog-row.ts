// A resource as every engine's catalog holds it: one row of `datastore_resources` (its table's
// generated name, its fields with the column `cN` each one lives in, keys, indexes, row count,
// a write version) and its aliases, decoded alike on every engine. An engine reads the row in
// its own SQL, with the lists and fields as JSON text and numbers as numbers or their text.
import type { Field, LearnedIndex, Resource } from "./engine";
import { DatastoreError } from "./errors";
import { DEFAULT_LANGUAGE } from "./text-language";

export interface StoredField extends Field {
  /** The generated column (`c1`, `c2`, …) the field lives in; never a name from a request. */
  column: string;
}

/** A resource with what an engine needs to build SQL for it. */
export interface StoredResource extends Resource {
  importIndexes: string[][];
  learnedIndexes: LearnedIndex[];
  /** The generated table name (`ds_<hex>`). */
  table: string;
  columns: Map<string, StoredField>;
  nextColumn: number;
  /** Goes up with every write to the resource's rows or fields. */
  version: number;
}

export const ID_FIELD: StoredField = { id: "_id", type: "int8", column: "_id" };

/** The stored field with this id (`_id` included), if the resource has it. */
export function storedField(columns: ReadonlyMap<string, StoredField>, id: string): StoredField | undefined {
  return id === "_id" ? ID_FIELD : columns.get(id);
}

/** As storedField, and a 409 on `fields` when there is none. */
export function column(r: { columns: ReadonlyMap<string, StoredField> }, id: string): StoredField {
  const f = storedField(r.columns, id);
  if (!f) throw DatastoreError.field("fields", `field "${id}" does not exist`);
  return f;
}

/** A catalog time: UTC, to the second, without the zone (`2026-01-02T03:04:05`). */
export function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "");
}

/** A `datastore_resources` row as read: flags as 0/1, counts as numbers or their text. */
export interface CatalogRow {
  id: string;
  table_name: string;
  name: string;
  description: string;
  private: number;
  url_type: string;
  fields: string;
  primary_key: string;
  indexes: string;
  import_indexes: string;
  learned_indexes: string;
  next_column: number;
  row_count: number | string;
  created: string;
  modified: string;
  active: number;
  version: number | string;
  /** Absent in a row read before the column was (it is added by a migration). */
  language?: string;
}

export function decodeCatalogRow(row: CatalogRow, aliases: string[]): StoredResource {
  const stored = JSON.parse(row.fields) as StoredField[];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    private: Number(row.private) === 1,
    urlType: row.url_type,
    active: Number(row.active) === 1,
    fields: stored.map(({ id, type, info }) => (info ? { id, type, info } : { id, type })),
    primaryKey: JSON.parse(row.primary_key),
    indexes: JSON.parse(row.indexes),
    importIndexes: JSON.parse(row.import_indexes),
    learnedIndexes: JSON.parse(row.learned_indexes),
    aliases,
    rowCount: Number(row.row_count),
    created: row.created,
    modified: row.modified,
    language: row.language ?? DEFAULT_LANGUAGE,
    table: row.table_name,
    columns: new Map(stored.map((f) => [f.id, f])),
    nextColumn: Number(row.next_column),
    version: Number(row.version),
  };
}
