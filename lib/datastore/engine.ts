// The storage engine interface. Actions validate CKAN parameters and call these methods;
// only an engine knows SQL. SQLite (lib/datastore/sqlite) is the embedded default; a
// PostgreSQL engine can implement the same interface without touching the actions.
// Values cross this boundary as JSON values; field ids are the resource's own names.
import type { FieldStats } from "./auto-index";
import type { ColumnInfo, RecordsFormat } from "./formats";
import type { FtsNode } from "./full-text";
import type { TypeName } from "./types";

export interface Field {
  id: string;
  type: TypeName;
  info?: Record<string, unknown>;
}

export interface Resource {
  id: string;
  name: string;
  description: string;
  private: boolean;
  urlType: string;
  fields: Field[];
  primaryKey: string[];
  indexes: string[][];
  aliases: string[];
  rowCount: number;
  created: string;
  modified: string;
}

export interface NewResource {
  id: string;
  name: string;
  description: string;
  private: boolean;
}

/** A full-text condition: over all fields (`field` null) or one field; `rank` names its column. */
export interface FtsCondition {
  field: string | null;
  tree: FtsNode | null; // null: nothing searchable (only stop words) — matches no row
  rank: string; // "rank" or "rank <field>"
}

export interface SortClause {
  field: string; // a field id, "_id", or a rank column
  desc: boolean;
  nullsFirst: boolean;
}

export interface Filter {
  field: string; // a field id or "_id"
  values: unknown[]; // any of; already cast by the engine's rules (a CastError → 409)
}

export interface SearchQuery {
  filters: Filter[];
  fts: FtsCondition[];
  columns: string[]; // output columns: "_id", field ids and rank columns, in order
  sort: SortClause[];
  distinct: boolean;
  limit: number;
  offset: number;
  includeTotal: boolean;
  /** Answer `records` encoded as JSON text in this format instead of `rows`. */
  encode?: { format: RecordsFormat; columns: ColumnInfo[] };
}

export interface SearchOutput {
  rows: unknown[][]; // JSON values, in `columns` order; empty when `encode` was asked for
  records?: Uint8Array; // with `encode`: the records as UTF-8 JSON
  total?: number;
  totalEstimated?: boolean;
}

export interface ValueCount {
  value: unknown;
  count: number;
}

export interface ValueCountsOutput {
  values: ValueCount[];
  partial: boolean; // true: counted from the first rows only (a bounded read)
}

export type WriteMethod = "insert" | "update" | "upsert";

/**
 * An insert-only bulk load (imports). The caller runs the whole load inside one transaction,
 * so nothing is visible, or left behind, until it commits.
 */
export interface BulkLoad {
  /** Appends rows of values in the order of the fields given to bulkLoad, cast as write() casts;
   *  a bad value throws DatastoreError with `records_row` (index into `rows`) and `field`. */
  append(rows: unknown[][]): void;
  /** Full-text indexes up to `max` more appended rows; returns how many are left (0: done). */
  index(max: number): number;
  /** Indexes the rest, adds the rows to the catalog's count, refreshes statistics; returns rows added. */
  finish(): number;
}

export interface ResourceStats {
  size: number;
  idxSize: number;
  dbSize: number;
}

export interface DatastoreEngine {
  /** Runs fn atomically: every write inside commits together or not at all. */
  transaction<T>(fn: () => T): T;

  getResource(idOrAlias: string): Resource | undefined;
  listResources(): Resource[];
  /** The resource an alias (or id) currently names, if any. */
  nameOwner(name: string): string | undefined;

  createResource(meta: NewResource, fields: Field[]): Resource;
  updateResourceMeta(id: string, meta: Partial<Omit<NewResource, "id">>): void;
  /** Adds new fields, updates `info` of existing ones, drops `drop` (ids). */
  alterFields(id: string, add: Field[], infoUpdates: Field[], drop: string[]): void;
  setPrimaryKey(id: string, fields: string[]): void;
  setIndexes(id: string, indexes: string[][]): void;
  setAliases(id: string, aliases: string[]): void;
  dropResource(id: string): void;

  /** Writes records; throws DatastoreError for bad values or key violations. */
  write(id: string, records: Record<string, unknown>[], method: WriteMethod): void;
  deleteRows(id: string, filters: Filter[]): number;
  /** Starts a bulk load of rows holding `fields` (ids; other fields stay NULL). */
  bulkLoad(id: string, fields: string[]): BulkLoad;
  /** Distinct values and average text length per field, over the first `sampleRows` rows. */
  fieldStats(id: string, sampleRows: number): FieldStats[];

  search(resource: Resource, query: SearchQuery): Promise<SearchOutput>;
  /** Streams rows (JSON values in `columns` order) without holding the result in memory. */
  iterate(resource: Resource, query: SearchQuery): IterableIterator<unknown[]>;
  valueCounts(resource: Resource, field: string, query: SearchQuery, limit: number): Promise<ValueCountsOutput>;
  /** Sizes on disk (datastore_info); may read every page of the resource, so not on a hot path. */
  stats(resource: Resource): Promise<ResourceStats>;
}
