// The storage engine interface: a driver phrased in the datastore's words (resources, fields,
// filters, pages), never in SQL or handles. Actions validate CKAN parameters and call these
// methods; an engine turns its own failures into DatastoreErrors. Every call is asynchronous,
// so an engine over the network (PostgreSQL) implements the same interface as SQLite.
// Values cross this boundary as JSON values; field ids are the resource's own names.
import type { Scope } from "../auth/principal";
import type { CatalogPage, CatalogQuery } from "./catalog-search";
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
  /** False after datastore_delete without filters: the resource stays, its table is gone. */
  active: boolean;
  fields: Field[];
  primaryKey: string[];
  /** Declared indexes (CKAN's `indexes`), with those the import rule added. */
  indexes: string[][];
  /** The members of `indexes` the import rule chose (lib/datastore/auto-index.ts). */
  importIndexes?: string[][];
  /** Indexes the engine built itself after slow reads, kept apart from `indexes`. */
  learnedIndexes?: LearnedIndex[];
  aliases: string[];
  rowCount: number;
  created: string;
  modified: string;
  /** The text search configuration its full text is stemmed in (text-language.ts); absent: the default. */
  language?: string;
}

/** An index learned from use: the slow reads that earned it, and what it cost. */
export interface LearnedIndex {
  fields: string[];
  created: string;
  reads: number;
  buildMs: number;
  bytes: number;
}

export interface NewResource {
  id: string;
  name: string;
  description: string;
  private: boolean;
  /** Its full-text language (text-language.ts); absent: the default. */
  language?: string;
  /** False: the resource keeps no history (a scratch table); only its current version is read. */
  history?: boolean;
}

/** Who makes a write, as it is recorded with it (history, audit): a token's id and name, never
 *  its secret. DATASTORE_ADMIN_TOKEN: no id, its name; no token (the import CLI): both null. */
export interface WriteAuthor {
  tokenId: string | null;
  tokenName: string | null;
}

/** A version of a resource as its log keeps it (lib/datastore/history.ts holds the rules). */
export interface VersionEntry {
  version: number;
  time: string; // ISO 8601 UTC
  /** create, write, delete, import, or baseline (what a migrated resource held when history began). */
  kind: string;
  token: string | null;
}

/** A resource's history as it stands. */
export interface HistoryState {
  version: number;
  /** The last logged version that changed rows: every version from it on reads the current rows. */
  written: number;
  /** The time of the last logged version (null before any). */
  lastModified: string | null;
  enabled: boolean;
  /** The oldest version `as_of` can read (the current one when history is off). */
  oldest: number;
}

export interface HistorySize {
  versions: number; // logged versions from `oldest` on
  rows: number; // prior row images kept
  bytes: number;
}

/** One image of a row: its values (field ids, `_id` included) from version `from` until `to`
 *  (null: still current); `deleted`: a delete ended it. */
export interface RowImage {
  from: number;
  to: number | null;
  deleted: boolean;
  record: Record<string, unknown>;
}

/** One row's change at `version`: `record` after it (null: deleted), `old` before (null: inserted). */
export interface RowChange {
  version: number;
  id: number;
  record: Record<string, unknown> | null;
  old: Record<string, unknown> | null;
}

export interface ChangesPage {
  changes: RowChange[];
  /** Counted on the first page only (no cursor): counting reads every change since `since`. */
  total: number | null; // changes after `since`
  records: number | null; // distinct rows they touch
}

/** A full-text condition: over all fields (`field` null) or one field; `rank` names its column. */
export interface FtsCondition {
  field: string | null;
  tree: FtsNode | null; // null: nothing searchable (only stop words) — matches no row
  rank: string; // "rank" or "rank <field>"
  /** A plain `q` as given: an engine with PostgreSQL's own parser reads it (plainto_tsquery), as
   *  CKAN does, instead of `tree` (which splits covid-19 where PostgreSQL keeps -19). */
  text?: string;
  /** The language the words are read in: the search's `language`; absent: the resource's. */
  language?: string;
}

export interface SortClause {
  field: string; // a field id, "_id", or a rank column
  desc: boolean;
  nullsFirst: boolean;
}

/**
 * A filter tree: CKAN 2.12's filters as lib/datastore/filters.ts parses them, plus two
 * extensions of ours. `field` is a field id or "_id"; values are JSON values the engine casts
 * to the field's type as equality does (a CastError → 409); a null value matches nothing.
 */
export type Filter =
  | { op: "and"; of: Filter[] } // empty: every row
  | { op: "or"; of: Filter[] } // empty: no row
  | { op: "eq" | "gt" | "gte" | "lt" | "lte"; field: string; value: unknown }
  | { op: "in"; field: string; values: unknown[] } // any of; an empty list matches nothing
  /** Extension `x_not_in`: none of the values; rows where the field is empty pass. */
  | { op: "not_in"; field: string; values: unknown[] }
  /** Extension `x_empty`: the field is NULL, "" (text) or [] (arrays); `empty: false` negates. */
  | { op: "empty"; field: string; empty: boolean };

export type CompareOp = "eq" | "gt" | "gte" | "lt" | "lte";

export interface SearchQuery {
  filters: Filter[]; // ANDed
  fts: FtsCondition[];
  columns: string[]; // output columns: "_id", field ids and rank columns, in order
  sort: SortClause[];
  distinct: boolean;
  limit: number;
  offset: number;
  includeTotal: boolean;
  /** CKAN's `total_estimation_threshold`: a total too slow to count may be estimated when the
   *  estimate is at least this. Absent: the total is exact. */
  totalEstimationThreshold?: number;
  /** Answer `records` encoded as JSON text in this format instead of `rows`. */
  encode?: { format: RecordsFormat; columns: ColumnInfo[] };
  /** Also answer `lastId`, the `_id` of the page's last row (keyset paging, `next_page`). */
  lastId?: boolean;
  /** Read the rows as they were at this version (resolved by lib/datastore/history.ts). */
  asOf?: number;
}

export interface SearchOutput {
  rows: unknown[][]; // JSON values, in `columns` order; empty when `encode` was asked for
  records?: Uint8Array; // with `encode`: the records as UTF-8 JSON
  total?: number;
  totalEstimated?: boolean;
  lastId?: number; // with `lastId`, unless the page is empty
  readAt?: string; // the state of the resource the page was read in, where the engine names one
}

interface ValueCount {
  value: unknown;
  count: number;
  estimate?: { low: number; high: number }; // partial: the count's 95% interval
}

export interface ValueCountsOutput {
  values: ValueCount[];
  partial: boolean; // true: estimated from a sample (a caller's budget_ms), counts scaled
}

/** One bin of a histogram: values from `from` up to `to` (the last bin includes `to`). Numbers
 *  for numeric fields; ISO strings for date and timestamp fields. */
export interface HistogramBin {
  from: number | string;
  to: number | string;
  count: number;
  estimate?: { low: number; high: number }; // partial: the count's 95% interval
}

export interface HistogramOutput {
  min: number | string | null; // null: no non-empty value matched
  max: number | string | null;
  bins: HistogramBin[];
  partial: boolean; // true: estimated from a sample (a caller's budget_ms), counts scaled
}

/** What a summary covers: field ids (the resource's own), values per top list, histogram bins. */
export interface SummaryOptions {
  fields: string[];
  top: number;
  bins: number;
  /** Null or absent: exact. Else the time the exact answer may take before a sample is read. */
  budgetMs?: number | null;
}

/** One field of a summary. Numbers, dates and timestamps have min, max and bins; json and
 *  arrays only empty and distinct; every other type its most common values (`top`). */
export interface FieldSummary {
  id: string;
  type: TypeName;
  empty: number; // rows where the value is NULL, "" (text) or [] (arrays), as filter x_empty
  emptyEstimate?: { low: number; high: number }; // partial: the count's 95% interval
  distinct: number;
  distinctEstimated: boolean; // true: estimated from the rows read, at most the matching rows
  top?: ValueCount[];
  min?: number | string | null;
  max?: number | string | null;
  bins?: HistogramBin[];
}

export interface SummaryOutput {
  total: number; // rows matching the search: counted, or estimated when `partial`
  rows: number; // rows the figures were computed over (= total unless partial)
  partial: boolean; // true: computed over a sample (spread through the table, or its first rows)
  fields: FieldSummary[];
}

export type AggregatePeriod = "day" | "week" | "month" | "quarter" | "year";
export type AggregateMetric = "count" | "sum" | "avg" | "min" | "max";
/** A measure's function: the old form's metrics, and the distinct values of a field. */
export type AggregateFn = AggregateMetric | "count_distinct";

/** One group_by field of an aggregate: by its value, by a period (dates and timestamps), or by
 *  a bin (numbers); lib/datastore/aggregate-spec.ts decides which from the field's type. */
export interface AggregateKey {
  field: string; // a field id or "_id"
  period?: AggregatePeriod;
  bin?: number; // the bin's width: a value v falls in the bin from floor(v / bin) * bin
}

/** One measure of each group, answered under `name`. */
export interface AggregateMeasure {
  name: string;
  fn: AggregateFn;
  field: string | null; // null for count
}

export interface AggregateSpec {
  keys: AggregateKey[]; // one to three
  metrics: AggregateMeasure[]; // one to ten
  /** Kept groups: a filter tree over measure names and key field ids (aggregate-spec.ts). */
  having: Filter | null;
  /** Groups' order: measure names or key field ids; empty for the default order. */
  order: { by: string; desc: boolean }[];
  limit: number; // groups answered; the rest are counted in `others`
  offset: number;
  /** Also answer the measures over every matching row. */
  totals: boolean;
  /** Null: exact, however long it takes. Else the time the exact answer may take before the
   *  groups are estimated from a sample. */
  budgetMs: number | null;
}

/** A group: its key (one value per key, null for empty values), rows, each measure (null when
 *  no row has a value) and the smallest `_id`; estimated, a count's 95% interval. */
export interface AggregateGroup {
  key: unknown[];
  count: number;
  values: Record<string, number | string | null>;
  _id: number;
  estimate?: { low: number; high: number };
}

export interface AggregateOutput {
  total: number; // rows matching the search: counted, or estimated when `partial`
  rows: number; // rows the groups were computed over (= total unless partial)
  partial: boolean; // true: computed over a sample (spread through the table, or its first rows)
  groups: AggregateGroup[];
  others: { groups: number; count: number }; // groups past `offset + limit`, and their rows
  totals?: { count: number; values: Record<string, number | string | null> };
}

export type WriteMethod = "insert" | "update" | "upsert";

/**
 * An insert-only bulk load (imports). The caller runs the whole load inside one transaction,
 * so nothing is visible, or left behind, until it commits.
 */
export interface BulkLoad {
  /** Appends rows of values in the order of the fields given to bulkLoad, cast as write() casts;
   *  a bad value throws DatastoreError with `records_row` (index into `rows`) and `field`. */
  append(rows: unknown[][]): Promise<void>;
  /** Full-text indexes up to `max` more appended rows; returns how many are left (0: done). */
  index(max: number): Promise<number>;
  /** Indexes the rest, adds the rows to the catalog's count, refreshes statistics; returns rows added. */
  finish(): Promise<number>;
  /** The same load with the rows written by a worker thread (OffThreadLoad); absent when the
   *  engine cannot take rows that way. */
  offThread?(): OffThreadLoad;
}

/**
 * Rows written by another thread: a worker opens a BulkSink from `sink` (lib/datastore/bulk-sink.ts),
 * appends rows there and seals them in parts; `take` adds each sealed part to the resource, full
 * text included, as append and index would. The engine's work on one part overlaps the worker's
 * reading and casting of the next.
 */
export interface OffThreadLoad {
  sink: BulkSinkSpec;
  /** Adds a part the worker sealed; returns its rows. */
  take(part: SealedPart): Promise<number>;
  /** Frees what the parts hold; call once the transaction has ended, committed or not. */
  release(): Promise<void>;
}

/** Where and how a worker's sink writes: the engine's own, and structured-cloneable. */
export type BulkSinkSpec = { engine: "sqlite" } & Record<string, unknown>;

/** A part of the rows a sink wrote, ready for OffThreadLoad.take. */
export interface SealedPart {
  rows: number;
  [detail: string]: unknown;
}

/** A worker's end of an OffThreadLoad: synchronous, on the worker's own thread. */
export interface BulkSink {
  /** As BulkLoad.append: values cast as write() casts them; a bad value throws DatastoreError
   *  with `records_row` (index into `rows`) and `field`. */
  append(rows: unknown[][]): void;
  /** Ends the part written so far (null when it holds no rows); the next append starts another. */
  seal(): SealedPart | null;
  /** Drops an unsealed part. */
  close(): void;
}

/** Distinct values and average text length of one field in a sample (the auto-index rule). */
export interface FieldStats {
  id: string;
  distinct: number;
  avgLength: number;
}

export interface ResourceStats {
  size: number;
  idxSize: number;
  dbSize: number;
}

/** An API token as stored: only the hash of its secret. */
export interface TokenRecord {
  id: string;
  name: string;
  scope: Scope;
  hash: string;
  created: string;
  expires: string | null;
  lastUsed: string | null;
  /** The resources (ids) it may read or write; null: every one its scope allows. */
  resources: string[] | null;
  /** The actions it may call; null: every one its scope allows. */
  actions: string[] | null;
  /** Requests a minute an admin gave it (lib/http/rate-limit.ts); null: DATASTORE_RATE_TOKEN's;
   *  0: none. */
  ratePerMinute: number | null;
}

/** Where tokens are kept; lib/auth/tokens.ts holds the rules (hashing, expiry). */
export interface TokenStorage {
  insert(token: TokenRecord): Promise<void>;
  list(): Promise<TokenRecord[]>;
  findByHash(hash: string): Promise<TokenRecord | undefined>;
  /** Removes the token with this id or this hash; returns whether one was removed. */
  remove(idOrHash: string): Promise<boolean>;
  /** Records a use; best effort (a busy database must not fail a read). */
  touch(id: string, at: string): Promise<void>;
  /** Sets a token's own request budget (null: the default); returns whether it exists. */
  setRate(id: string, ratePerMinute: number | null): Promise<boolean>;
}

/** One write as the audit trail keeps it (lib/datastore/audit.ts holds the rules). */
export interface AuditRecord {
  id: number;
  at: string;
  /** The token that wrote; both null for a write with no token (the import CLI). */
  tokenId: string | null;
  tokenName: string | null;
  action: string;
  resourceId: string | null;
  /** Rows the write sent or changed, where it has any. */
  rows: number | null;
  detail: Record<string, unknown> | null;
}

export type NewAuditRecord = Omit<AuditRecord, "id">;

/** Which entries to read, newest first: every filter optional, `before` an id (a cursor). */
export interface AuditQuery {
  resourceId?: string;
  /** A token's name or id. */
  token?: string;
  since?: string;
  until?: string;
  before?: number;
  limit: number;
  offset: number;
}

/** Where the audit trail is kept. Recorded through a transaction's handle, an entry commits or
 *  rolls back with the write it describes. */
export interface AuditStorage {
  record(entry: NewAuditRecord): Promise<void>;
  list(query: AuditQuery): Promise<AuditRecord[]>;
  /** Removes entries written before `before` (an ISO time); returns how many went. */
  prune(before: string): Promise<number>;
}

/** A saved view as stored (datastore_view_*); lib/datastore/saved-views.ts holds the rules. */
export interface ViewRecord {
  id: string;
  /** The resource's id, never an alias: renaming an alias leaves the view working. */
  resourceId: string;
  name: string;
  description: string;
  /** What the explorer's URL holds, as its query string in canonical form, without resource_id. */
  state: string;
  private: boolean;
  /** The id of the token that saved it; null for DATASTORE_ADMIN_TOKEN (admins only change it). */
  owner: string | null;
  ownerName: string | null;
  created: string;
  modified: string;
}

/** Where saved views are kept; a view goes when its resource is deleted. */
export interface ViewStorage {
  insert(view: ViewRecord): Promise<void>;
  get(id: string): Promise<ViewRecord | undefined>;
  /** Every view, or those of one resource (by id), oldest first. */
  list(resourceId?: string): Promise<ViewRecord[]>;
  update(view: ViewRecord): Promise<void>;
  /** Returns whether a view was removed. */
  remove(id: string): Promise<boolean>;
}

/** An upload's import as every app server sees it (lib/upload/uploads.ts holds the rules). */
export interface UploadImport {
  uploadId: string;
  owner: string;
  /** The import attempt that holds it: a random id per attempt. */
  claim: string;
  state: "importing" | "imported" | "cancelled";
  /** The last progress line its server wrote, or null. */
  progress: unknown;
  resourceId: string | null;
  /** Seconds since its server last wrote it, by the store's own clock. */
  age: number;
}

/**
 * Where uploads' imports are kept when several app servers share the store (PostgreSQL). Each
 * change is one atomic step; `finish` runs in the import's own transaction, so a `cancel` that
 * meets an import committing waits for its outcome and finds it imported, or takes it first.
 */
export interface UploadImportStorage {
  /** Takes the upload for attempt `claim` unless another attempt, heard from in the last
   *  `staleSeconds`, holds it; returns the row as it is now (taken if its claim is `claim`). */
  claim(uploadId: string, owner: string, claim: string, staleSeconds: number): Promise<UploadImport>;
  /** Stores attempt `claim`'s progress (and that its server lives); returns the row's state,
   *  undefined when the attempt no longer holds it. */
  report(uploadId: string, claim: string, progress: unknown): Promise<UploadImport["state"] | undefined>;
  /** Inside the import's transaction: importing -> imported; false when cancelled meanwhile. */
  finish(uploadId: string, claim: string, resourceId: string): Promise<boolean>;
  /** importing -> cancelled for `owner`'s upload; returns the row as it is now and whether
   *  this call cancelled it. */
  cancel(uploadId: string, owner: string): Promise<{ row: UploadImport | undefined; cancelled: boolean }>;
  /** Attempt `claim` has ended without committing: its row goes; returns the state it had. */
  end(uploadId: string, claim: string): Promise<UploadImport["state"] | undefined>;
  get(uploadId: string): Promise<UploadImport | undefined>;
  /** Uploads an attempt heard from in the last `staleSeconds` is importing. */
  importing(staleSeconds: number): Promise<string[]>;
  /** Removes rows not written for `seconds`. */
  sweep(seconds: number): Promise<void>;
}

export type StartupCheck = "quick" | "full" | "off";

export interface DatastoreEngine {
  /**
   * Runs fn atomically: every write through `tx` commits together or not at all, and no other
   * caller sees any of it before the commit (SQLite makes them wait; PostgreSQL answers the last
   * committed state). Inside fn, use `tx`, never the engine itself (with SQLite it waits for
   * the transaction to end). Nested transactions roll back on their own. `resourceIds`: the
   * resources (ids or aliases) whose rows or catalog rows fn changes or reads, known before it
   * runs, and an empty list when fn creates resources whose ids it makes: SQLite attaches the
   * files they live in before the transaction begins (sqlite/groups.ts); omitted, fn touches
   * no resource. PostgreSQL needs none.
   */
  transaction<T>(fn: (tx: DatastoreEngine) => Promise<T>, resourceIds?: readonly string[]): Promise<T>;

  /** The same store, its reads counted as `client`'s (a token id or an address): costly reads
   *  wait their turn per client, so one client's slow queries do not hold up another's. Its
   *  writes are recorded as `author`'s (history); without one, as the handle's it came from. */
  forClient(client: string, author?: WriteAuthor): DatastoreEngine;

  getResource(idOrAlias: string): Promise<Resource | undefined>;
  /** The copy an earlier getResource of this name returned, kept without asking the store, if
   *  the engine keeps one. It may be behind another app server's change: a search on it checks
   *  it in the same round trip and, when it is behind, reads nothing and throws
   *  DatastoreError.changed (context.ts readResource then looks it up again). */
  keptResource?(idOrAlias: string): Resource | undefined;
  listResources(): Promise<Resource[]>;
  /** resource_search: the resources a question finds, counted and paged (catalog-search.ts). */
  searchResources(query: CatalogQuery): Promise<CatalogPage>;
  /** The resource an alias (or id) currently names, if any. */
  nameOwner(name: string): Promise<string | undefined>;

  /** Creates the resource and its table, or gives an inactive resource a table again. */
  createResource(meta: NewResource, fields: Field[]): Promise<Resource>;
  updateResourceMeta(id: string, meta: Partial<Omit<NewResource, "id">>): Promise<void>;
  /** Changes the resource's full-text language and rebuilds its index in it. */
  setLanguage(id: string, language: string): Promise<void>;
  /** Adds new fields, updates `info` of existing ones, drops `drop` (ids). */
  alterFields(id: string, add: Field[], infoUpdates: Field[], drop: string[]): Promise<void>;
  setPrimaryKey(id: string, fields: string[]): Promise<void>;
  /** Replaces the declared indexes; `atImport`: those of them the import rule chose. Learned
   *  indexes stay, unless a declared one (or the key) now starts with the same field. */
  setIndexes(id: string, indexes: string[][], atImport?: string[][]): Promise<void>;
  setAliases(id: string, aliases: string[]): Promise<void>;
  /** Drops the table, its fields and aliases; the resource stays, inactive (CKAN). */
  dropTable(id: string): Promise<void>;
  /** Removes the resource (by id, not alias) from the catalog with its table, if it has one,
   *  and aliases, atomically; its id is free again. Unknown: a not-found DatastoreError. */
  deleteResource(id: string): Promise<void>;

  /** Writes records; throws DatastoreError for bad values or key violations. */
  write(id: string, records: Record<string, unknown>[], method: WriteMethod): Promise<void>;
  deleteRows(id: string, filters: Filter[]): Promise<number>;
  /** Starts a bulk load of rows holding `fields` (ids; other fields stay NULL). */
  bulkLoad(id: string, fields: string[]): Promise<BulkLoad>;
  /** Distinct values and average text length per field, over the first `sampleRows` rows. */
  fieldStats(id: string, sampleRows: number): Promise<FieldStats[]>;

  search(resource: Resource, query: SearchQuery): Promise<SearchOutput>;
  /** Streams rows (JSON values in `columns` order) in chunks from one snapshot, without
   *  holding the result in memory; a query the engine refuses fails on the first `next()`. */
  iterate(resource: Resource, query: SearchQuery): AsyncIterableIterator<unknown[][]>;
  /** The most common values of a field under a search: exact, unless `budgetMs` bounds the time. */
  valueCounts(resource: Resource, field: string, query: SearchQuery, limit: number, budgetMs?: number | null): Promise<ValueCountsOutput>;
  /** The spread of a numeric, date or timestamp field under a search, in at most `bins` bins
   *  with round edges; exact, unless `budgetMs` bounds the time, as valueCounts. */
  histogram(resource: Resource, field: string, query: SearchQuery, bins: number, budgetMs?: number | null): Promise<HistogramOutput>;
  /** Figures of every field in `options.fields` under a search (datastore_summary): exact,
   *  unless `options.budgetMs` bounds the time: then over a sample when it does not fit, `partial`. */
  summary(resource: Resource, query: SearchQuery, options: SummaryOptions): Promise<SummaryOutput>;
  /** Matching rows grouped by one or two fields, with a count and a metric per group
   *  (datastore_aggregate): exact, unless `spec.budgetMs` bounds the time: then over a sample
   *  when it does not fit, `partial`. */
  aggregate(resource: Resource, query: SearchQuery, spec: AggregateSpec): Promise<AggregateOutput>;
  /** Sizes on disk (datastore_info); may read every page of the resource, so not on a hot path. */
  stats(resource: Resource): Promise<ResourceStats>;
  /** The resource's version, and which of its versions may be read (lib/datastore/history.ts). */
  historyState(resource: Resource): Promise<HistoryState>;
  historySize(resource: Resource): Promise<HistorySize>;
  /** The newest logged version at or before a version or an ISO time, if any. */
  versionAt(resource: Resource, at: { version: number } | { time: string }): Promise<VersionEntry | undefined>;
  /** The log's entries for these versions (those it has). */
  versionEntries(resource: Resource, versions: number[]): Promise<VersionEntry[]>;
  /** The field list version `version` had, when it is not today's (lib/datastore/past-fields.ts). */
  fieldsAt(resource: Resource, version: number): Promise<Field[] | undefined>;
  /** The images of row `_id`, or of every row whose key fields held `key` (`ids`, oldest first;
   *  `id` the newest), oldest first. */
  rowImages(resource: Resource, row: { id: number } | { key: Record<string, unknown> }): Promise<{ id: number; ids: number[]; images: RowImage[] } | undefined>;
  /** Row changes after version `since`, in (version, _id) order, past `after`, at most `limit`;
   *  a page reads from its cursor on (its cost grows with `limit`, not with the changes before). */
  changes(resource: Resource, since: number, after: { version: number; id: number } | null, limit: number): Promise<ChangesPage>;
  /** Removes the resource's row images no version from `before` (an ISO time) on can read, in
   *  one write of its own; returns how many went (0 for a resource gone meanwhile). */
  pruneHistory(resource: Resource, before: string): Promise<number>;

  readonly tokens: TokenStorage;
  readonly views: ViewStorage;
  readonly audit: AuditStorage;
  /** Uploads' imports, where app servers share the store; without it an app server keeps its
   *  own (lib/upload/local-imports.ts), as one SQLite file serves one app server. */
  readonly uploadImports?: UploadImportStorage;
  /** Whether the engine indexes fields after slow reads itself (SQLite's index learning); when
   *  it does not, an import applies the auto-index rule (auto-index.ts) instead. */
  readonly learnsIndexes: boolean;
  /** Refreshes the planner's statistics (after loading sample data, say). */
  analyze(): Promise<void>;
  /** Start-up check: the store is readable, not corrupt ("full" looks harder) and writable;
   *  throws DatastoreUnavailable with what to do about it. What reads the whole store is left
   *  to scan(). */
  check(level: StartupCheck): Promise<void>;
  /** The rest of the start-up check, which reads the whole store (SQLite's page scan): seconds
   *  or more on a large one, so it runs off the event loop while the server serves; throws as
   *  check() does. */
  scan(level: StartupCheck): Promise<void>;
  /** A consistent copy of the whole store, taken while it serves; returns what was written. */
  backup(target: string): Promise<string>;
  close(): Promise<void>;
}
