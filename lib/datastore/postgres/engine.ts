// The PostgreSQL engine: DatastoreEngine over a pool on the primary (catalog, tokens, writes)
// and the read scheduler (read-pool.ts) for data reads, on a streaming replica when there is
// one. Each part of the work lives in its own file (catalog, schema, row-writer, tokens,
// health, backup; the reads' files); this file sequences them: transactions and savepoints,
// the per-resource lock, and PostgreSQL's failures mapped to the datastore's errors (errors.ts).
import { column } from "../catalog-row";
import type pg from "pg";
import type { AggregateOutput, AggregateSpec, AuditStorage, BulkLoad, DatastoreEngine, Field, FieldStats, Filter, HistogramOutput, NewResource, Resource, ResourceStats, SearchOutput, SearchQuery, StartupCheck, SummaryOptions, SummaryOutput, TokenStorage, UploadImportStorage, ViewStorage, ValueCountsOutput, WriteMethod, WriteAuthor, HistoryState, HistorySize, VersionEntry, RowImage, ChangesPage } from "../engine";
import { DatastoreError, DatastoreUnavailable } from "../errors";
import * as history from "./history";
import type { LearnEvent, LearnSettings } from "../index-learning-rule";
import type { ReadLimits } from "../read-limits";
import { resolvedNow, stillFresh, wrote } from "../resolved";
import { aggregate } from "./aggregate";
import { pgDump } from "./backup";
import { openBulkLoad, type FullTextMode } from "./bulk-load";
import * as catalog from "./catalog";
import * as catalogSearch from "./catalog-search";
import type { CatalogPage, CatalogQuery } from "../catalog-search";
import { createPool, dropIdle, releaseWriter } from "./connection";
import { isConnectionError, isLostConnection, isRetryable, toDatastoreError } from "./errors";
import { checkReplica, checkStore, explainConnectError } from "./health";
import { histogram } from "./histogram";
import { PgIndexLearner } from "./learned-indexes";
import { migrate } from "./migrations";
import { KeptResources } from "./kept-resources";
import { PgReads } from "./read-pool";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import { deleteRows, writeRecords } from "./row-writer";
import * as schema from "./schema";
import { search } from "./search";
import { fieldStats, sizes } from "./statistics";
import { summary } from "./summary";
import { pgAudit } from "./audit";
import { pgTokens } from "./tokens";
import { pgViews } from "./views";
import { pgUploadImports } from "./uploads";
import { valueCounts } from "./value-counts";

export interface PostgresOptions {
  url: string;
  /** A streaming replica of `url` for data reads. */
  readUrl?: string;
  schema: string;
  poolSize: number;
  /** Reads judged expensive that may run at once; default all connections but two. */
  expensiveReads?: number;
  limits: ReadLimits;
  /** How an import fills the full-text column (bulk-load.ts); default "trigger". */
  bulkFullText?: FullTextMode;
  /** Index learning (learned-indexes.ts); none without. */
  learning?: LearnSettings;
  /** A write transaction's statement_timeout (ms; 0 or unset: none); an import lifts it. */
  writeTimeoutMs?: number;
  /** How long a sorted dump's client may leave it unread before it is ended (read-pool.ts). */
  dumpIdleMs?: number;
  /** Search answers kept per resource state (../page-cache.ts), checked against the catalog
   *  before each use; 0 or unset: none. */
  pageCacheBytes?: number;
}

/** How long a write waits for another writer's lock on the same resource (SQLite's busy wait). */
const LOCK_TIMEOUT_MS = 10_000;

export async function openPostgresEngine(options: PostgresOptions): Promise<PostgresEngine> {
  const pool = { schema: options.schema, size: options.poolSize, statementTimeoutMs: options.limits.queryTimeoutMs };
  const primary = createPool({ ...pool, url: options.url, role: "primary" });
  try {
    await migrate(primary, options.schema);
    await catalogSearch.fillWords(primary);
  } catch (e) {
    await primary.end().catch(() => undefined);
    throw new DatastoreUnavailable(explainConnectError(e, options.url, options.schema));
  }
  const replica = options.readUrl ? createPool({ ...pool, url: options.readUrl, role: "replica" }) : undefined;
  const expensiveLimit = options.expensiveReads ?? Math.max(1, options.poolSize - 2);
  const learner = options.learning && new PgIndexLearner(primary, options.url, options.schema, options.learning);
  const reads = new PgReads({ primary, replica, schema: options.schema, expensiveLimit, limits: options.limits, learner, pageCacheBytes: options.pageCacheBytes, dumpIdleMs: options.dumpIdleMs });
  return new PostgresEngine({ primary, replica, reads, learner, kept: new KeptResources(!replica), options, closed: false }, null);
}

/** What every handle of one engine shares (the engine, its transactions, its forClient views). */
interface Shared {
  primary: pg.Pool;
  replica?: pg.Pool;
  reads: PgReads;
  learner?: PgIndexLearner;
  /** Catalog copies kept across requests (kept-resources.ts). */
  kept: KeptResources;
  options: PostgresOptions;
  closed: boolean;
}

/** A transaction in progress: its connection, and what may be done with it. */
interface Tx {
  client: pg.PoolClient;
  /** Savepoint names, unique within the transaction. */
  savepoints: number;
  /** Nested transactions take turns (as SQLite's do). */
  nested: Promise<unknown>;
  /** A bulk load read its rows from a stream: the transaction cannot be run again. */
  bulk: boolean;
}

/** Starts a write transaction: the write time limit instead of the reads', a bounded wait for
 *  other writers' locks. */
async function begin(client: pg.PoolClient, writeTimeoutMs: number): Promise<void> {
  await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(0, Math.round(writeTimeoutMs))}; SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
}

/** A pooled connection the server had already closed (a restart, a failover, an idle timeout):
 *  it failed before the transaction began, so nothing was done and another may be taken. */
function staleConnection(e: unknown, begun: boolean): boolean {
  return !begun && isConnectionError(e);
}

/** Ends a failed transaction and gives its connection back; a broken connection is discarded. */
async function abandon(client: pg.PoolClient, cause: unknown): Promise<void> {
  // A lost connection reaches here as pg's error, or already mapped (a nested write's).
  let broken = isConnectionError(cause) || cause instanceof DatastoreUnavailable;
  if (!broken) {
    try {
      await client.query("ROLLBACK");
    } catch (e) {
      console.error("datastore: rollback failed", e);
      broken = true;
    }
  }
  client.release(broken ? (cause instanceof Error ? cause : true) : undefined);
}

export class PostgresEngine implements DatastoreEngine {
  readonly tokens: TokenStorage;
  readonly views: ViewStorage;
  readonly audit: AuditStorage;
  readonly uploadImports: UploadImportStorage;
  /** Index learning (learned-indexes.ts), unless its settings turn it off. */
  get learnsIndexes(): boolean {
    return this.shared.options.learning?.adaptiveIndexes ?? false;
  }

  constructor(
    private readonly shared: Shared,
    /** The transaction this handle belongs to, or null. */
    private readonly tx: Tx | null,
    /** Whose reads these are (a token id or an address): expensive ones take turns per client. */
    private readonly client = "",
    /** Whose writes these are, as history records them. */
    private readonly author?: WriteAuthor,
  ) {
    const tokens = pgTokens(tx?.client ?? shared.primary, shared.primary);
    this.tokens = {
      insert: (t) => this.guard(() => tokens.insert(t)),
      list: () => this.guardRead(() => tokens.list()),
      findByHash: (h) => this.guardRead(() => tokens.findByHash(h)),
      remove: (x) => this.guard(() => tokens.remove(x)),
      touch: (id, at) => tokens.touch(id, at),
      setRate: (id, rate) => this.guard(() => tokens.setRate(id, rate)),
    };
    this.views = pgViews(tx?.client ?? shared.primary, (fn) => this.guard(fn));
    this.audit = pgAudit(tx?.client ?? shared.primary, (fn) => this.guard(fn));
    this.uploadImports = pgUploadImports(tx?.client ?? shared.primary, (fn) => this.guard(fn));
  }

  private mapped(e: unknown): unknown {
    return toDatastoreError(e, this.shared.options.limits.queryTimeoutMs);
  }

  /** A write transaction's failure: its statements ran under the write time limit. */
  private mappedWrite(e: unknown): unknown {
    return toDatastoreError(e, this.shared.options.limits.queryTimeoutMs, this.shared.options.writeTimeoutMs ?? 0);
  }

  /** Inside a transaction, a retryable failure reaches transaction() as it is, to be retried there. */
  private mappedInTx(e: unknown): unknown {
    return isRetryable(e) ? e : this.mappedWrite(e);
  }

  /** Where catalog reads go: the transaction's connection, else the primary. */
  private get db(): Queryable {
    return this.tx?.client ?? this.shared.primary;
  }

  /** Runs a read (or a single-statement write), with errors in the datastore's words. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw this.tx ? this.mappedInTx(e) : this.mapped(e);
    }
  }

  /** A read, as guard; outside a transaction, run once more when a pooled connection turned
   *  out dead, on a fresh one (the idle ones go too). A write is never run again here. */
  private async guardRead<T>(fn: () => Promise<T>): Promise<T> {
    if (this.tx) return this.guard(fn);
    try {
      return await fn();
    } catch (e) {
      if (!isLostConnection(e)) throw this.mapped(e);
      await this.dropIdle();
    }
    return this.guard(fn);
  }

  private async dropIdle(): Promise<void> {
    await Promise.all([dropIdle(this.shared.primary), this.shared.replica && dropIdle(this.shared.replica)]);
  }

  /** A connection of the primary for a transaction. Every connection busy for the whole wait
   *  is a busy store (try again shortly), not an unreachable one. */
  private async connect(): Promise<pg.PoolClient> {
    const pool = this.shared.primary;
    try {
      return await pool.connect();
    } catch (e) {
      if (/timeout exceeded when trying to connect/.test((e as Error)?.message ?? "") && pool.totalCount >= this.shared.options.poolSize) throw DatastoreError.busy();
      throw this.mapped(e);
    }
  }

  /** A write starts or commits: copies of resources read before it are stale (../resolved.ts,
   *  kept-resources.ts). */
  private wrote(): void {
    wrote();
    this.shared.kept.clear();
  }

  /** Runs a write atomically: under a savepoint inside a transaction, else in a transaction
   *  of its own, run once more after a deadlock or serialization failure. */
  private async writing<T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    this.wrote();
    if (this.tx) return this.inSavepoint(this.tx, () => fn(this.tx!.client));
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect();
      let begun = false;
      try {
        await begin(client, this.shared.options.writeTimeoutMs ?? 0);
        begun = true;
        const result = await fn(client);
        await client.query("COMMIT");
        this.wrote(); // as above: a copy read before the commit is stale
        releaseWriter(client);
        return result;
      } catch (e) {
        await abandon(client, e);
        if (attempt === 0 && (isRetryable(e) || staleConnection(e, begun))) {
          if (staleConnection(e, begun)) await this.dropIdle();
          continue;
        }
        throw this.mappedWrite(e);
      }
    }
  }

  /** fn under a savepoint of the transaction: a failure undoes fn's work only, and the
   *  transaction stays usable (PostgreSQL aborts a whole transaction on an error otherwise). */
  private async inSavepoint<T>(tx: Tx, fn: () => Promise<T>): Promise<T> {
    const name = `ds_sp${++tx.savepoints}`;
    try {
      await tx.client.query(`SAVEPOINT ${name}`);
    } catch (e) {
      throw this.mappedInTx(e);
    }
    try {
      const result = await fn();
      await tx.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (e) {
      if (!isConnectionError(e)) {
        try {
          await tx.client.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
        } catch (undo) {
          console.error("datastore: rollback to savepoint failed", undo);
        }
      }
      throw this.mappedInTx(e);
    }
  }

  async transaction<T>(fn: (tx: DatastoreEngine) => Promise<T>): Promise<T> {
    const outer = this.tx;
    if (outer) {
      const run = outer.nested.then(() => this.inSavepoint(outer, () => fn(this)));
      outer.nested = run.catch(() => undefined);
      return run;
    }
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect();
      const tx: Tx = { client, savepoints: 0, nested: Promise.resolve(), bulk: false };
      let begun = false;
      try {
        await begin(client, this.shared.options.writeTimeoutMs ?? 0);
        begun = true;
        const result = await fn(new PostgresEngine(this.shared, tx, this.client, this.author));
        await client.query("COMMIT");
        this.wrote(); // what was read while it ran is older than the commit
        releaseWriter(client);
        return result;
      } catch (e) {
        await abandon(client, e);
        // Run again once after a deadlock, unless a bulk load consumed its input.
        if (attempt === 0 && ((isRetryable(e) && !tx.bulk) || staleConnection(e, begun))) {
          if (staleConnection(e, begun)) await this.dropIdle();
          continue;
        }
        throw this.mappedWrite(e);
      }
    }
  }

  forClient(client: string, author: WriteAuthor | undefined = this.author): DatastoreEngine {
    return new PostgresEngine(this.shared, this.tx, client, author);
  }

  // ----------------------------------------------------------------------------- catalog

  getResource(idOrAlias: string): Promise<Resource | undefined> {
    return this.guardRead(async () => {
      // Inside a transaction (a write), the row is locked as it is read: what the write decides
      // from it (fields to add, keys) holds until it commits, whatever other servers do meanwhile.
      if (this.tx) return catalog.lockResource(this.tx.client, idOrAlias);
      return resolvedNow(this.shared.kept.remember(idOrAlias, await catalog.findResource(this.db, idOrAlias)));
    });
  }

  keptResource(idOrAlias: string): Resource | undefined {
    return this.tx ? undefined : this.shared.kept.get(idOrAlias);
  }

  listResources(): Promise<Resource[]> {
    return this.guardRead(() => catalog.listResources(this.db));
  }

  searchResources(query: CatalogQuery): Promise<CatalogPage> {
    return this.guardRead(() => catalogSearch.searchCatalog(this.db, query));
  }

  nameOwner(name: string): Promise<string | undefined> {
    return this.guardRead(() => catalog.nameOwner(this.db, name));
  }

  // ------------------------------------------------------------------------------ schema

  createResource(meta: NewResource, fields: Field[]): Promise<Resource> {
    return this.writing(async (db) => {
      const r = await schema.createResource(db, meta, fields);
      await catalogSearch.syncWords(db, r.id);
      return r;
    });
  }

  updateResourceMeta(id: string, meta: Partial<Omit<NewResource, "id">>): Promise<void> {
    return this.writing(async (db) => {
      await schema.updateResourceMeta(db, id, meta);
      await catalogSearch.syncWords(db, id);
    });
  }

  setLanguage(id: string, language: string): Promise<void> {
    return this.writing(async (db) => schema.setLanguage(db, await catalog.mustLock(db, id), language));
  }

  alterFields(id: string, add: Field[], infoUpdates: Field[], drop: string[]): Promise<void> {
    return this.writing(async (db) => {
      await schema.alterFields(db, await catalog.mustLock(db, id), add, infoUpdates, drop, this.author);
      await catalogSearch.syncWords(db, id);
    });
  }

  setPrimaryKey(id: string, fields: string[]): Promise<void> {
    return this.writing(async (db) => schema.setPrimaryKey(db, await catalog.mustLock(db, id), fields));
  }

  setIndexes(id: string, indexes: string[][], atImport: string[][] = []): Promise<void> {
    return this.writing(async (db) => {
      const r = await catalog.mustLock(db, id);
      await schema.setIndexes(db, r, indexes);
      await schema.recordImportPicks(db, r, atImport);
    });
  }

  setAliases(id: string, aliases: string[]): Promise<void> {
    return this.writing(async (db) => {
      await catalog.lockResource(db, id);
      await schema.setAliases(db, id, aliases);
      await catalogSearch.syncWords(db, id);
    });
  }

  dropTable(id: string): Promise<void> {
    return this.writing(async (db) => {
      await schema.dropTable(db, await catalog.mustLock(db, id));
      await catalogSearch.syncWords(db, id);
    });
  }

  deleteResource(id: string): Promise<void> {
    return this.writing(async (db) => {
      const r = await catalog.lockResource(db, id);
      if (!r || r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
      if (r.active) await schema.dropTable(db, r);
      await catalog.removeResource(db, id);
      await db.query("DELETE FROM datastore_versions WHERE resource_id = $1", [id]);
    });
  }

  // ------------------------------------------------------------------------------- writes

  async write(id: string, records: Record<string, unknown>[], method: WriteMethod): Promise<void> {
    if (records.length === 0) return;
    await this.writing(async (db) => writeRecords(db, await catalog.mustLock(db, id), records, method, this.author));
  }

  deleteRows(id: string, filters: Filter[]): Promise<number> {
    return this.writing(async (db) => deleteRows(db, await catalog.mustLock(db, id), filters, this.author));
  }

  /** COPY on the transaction's connection (bulk-load.ts): only inside transaction(). */
  async bulkLoad(id: string, fields: string[]): Promise<BulkLoad> {
    const tx = this.tx;
    if (!tx) throw new Error("bulkLoad runs inside a transaction: call it on the tx of engine.transaction()");
    const load = await this.guard(async () => {
      const r = await catalog.mustLock(tx.client, id);
      for (const f of fields) {
        if (f === "_id") throw DatastoreError.field("fields", `field "_id" cannot be loaded`);
        column(r, f);
      }
      tx.bulk = true;
      // An import is a long job with its own progress and cancel: no write time limit.
      await tx.client.query("SET LOCAL statement_timeout = 0");
      // One version for the whole load, without row images (history.ts).
      const finished = async (added: number) => {
        await catalog.touch(tx.client, id, added);
        await history.logVersion(tx.client, r, "import", this.author);
      };
      return openBulkLoad(tx.client, r, fields, finished, this.shared.options.bulkFullText ?? "trigger");
    });
    return {
      ...load,
      append: (rows) => this.guard(() => load.append(rows)),
      index: (max) => this.guard(() => load.index(max)),
      finish: () => this.guard(() => load.finish()),
    };
  }

  fieldStats(id: string, sampleRows: number): Promise<FieldStats[]> {
    return this.guard(async () => fieldStats(this.db, await catalog.mustGet(this.db, id), sampleRows));
  }

  // ------------------------------------------------------------------------------ history

  historyState(resource: Resource): Promise<HistoryState> {
    return this.guardRead(async () => history.historyState(this.db, await this.current(resource)));
  }

  historySize(resource: Resource): Promise<HistorySize> {
    return this.guardRead(async () => history.historySize(this.db, await this.current(resource)));
  }

  versionAt(resource: Resource, at: { version: number } | { time: string }): Promise<VersionEntry | undefined> {
    return this.guardRead(async () => history.versionAt(this.db, await this.current(resource), at));
  }

  versionEntries(resource: Resource, versions: number[]): Promise<VersionEntry[]> {
    return this.guardRead(async () => history.versionEntries(this.db, await this.current(resource), versions));
  }

  fieldsAt(resource: Resource, version: number): Promise<Field[] | undefined> {
    return this.guardRead(async () => history.fieldsAt(this.db, await this.current(resource), version));
  }

  rowImages(resource: Resource, row: { id: number } | { key: Record<string, unknown> }): Promise<{ id: number; ids: number[]; images: RowImage[] } | undefined> {
    return this.guardRead(async () => history.rowImages(this.db, await this.current(resource), row));
  }

  /** In one repeatable-read transaction: the count and the page see the same rows. */
  changes(resource: Resource, since: number, after: { version: number; id: number } | null, limit: number): Promise<ChangesPage> {
    if (this.tx) return this.guard(async () => history.changes(this.tx!.client, await this.current(resource), since, after, limit));
    return this.guard(async () => {
      const client = await this.shared.primary.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const out = await history.changes(client, await this.current(resource), since, after, limit);
        await client.query("COMMIT");
        client.release();
        return out;
      } catch (e) {
        await abandon(client, e);
        throw e;
      }
    });
  }

  pruneHistory(resource: Resource, before: string): Promise<number> {
    return this.writing(async (db) => {
      const r = await catalog.findResource(db, resource.id);
      return r?.active ? history.prune(db, r, before) : 0;
    });
  }

  // -------------------------------------------------------------------------------- reads

  /** The resource as the primary (or this transaction) sees it now: callers may hold an older
   *  copy, and the read scheduler compares its version with the replica's. */
  private async current(resource: Resource, query?: SearchQuery): Promise<PgResource> {
    // The copy getResource just read for this request (../resolved.ts): a round trip less per search.
    const fresh = this.tx ? undefined : stillFresh(resource);
    const r = fresh ? (fresh as PgResource) : await catalog.mustGet(this.db, resource.id);
    // A past version reads a subquery of its rows in place of the table (history.ts).
    return query?.asOf === undefined ? r : history.atVersion(this.db, r, query);
  }

  /** A data read: on this transaction's connection inside one, else through the scheduler. */
  private read<T>(resource: Resource, inTx: (db: Queryable, r: PgResource) => Promise<T>, scheduled: (r: PgResource) => Promise<T>, query?: SearchQuery): Promise<T> {
    return this.guardRead(async () => {
      const r = await this.current(resource, query);
      return this.tx ? inTx(this.tx.client, r) : scheduled(r);
    });
  }

  /** Without a replica, on the caller's copy as it is, which the read checks against the
   *  catalog in the same round trip (read-pool.ts): no lookup first. */
  search(resource: Resource, query: SearchQuery): Promise<SearchOutput> {
    if (!this.tx && !this.shared.replica && query.asOf === undefined) {
      return this.guardRead(() => this.shared.reads.search(resource as PgResource, query, this.client, this.shared.kept.nameOf(resource)));
    }
    return this.read(
      resource,
      (db, r) => search(db, r, query, this.shared.options.limits),
      (r) => this.shared.reads.search(r, query, this.client),
      query,
    );
  }

  valueCounts(resource: Resource, field: string, query: SearchQuery, limit: number, budgetMs: number | null = null): Promise<ValueCountsOutput> {
    return this.read(
      resource,
      (db, r) => valueCounts(db, r, field, query, limit, budgetMs),
      (r) => this.shared.reads.valueCounts(r, field, query, limit, this.client, budgetMs),
      query,
    );
  }

  histogram(resource: Resource, field: string, query: SearchQuery, bins: number, budgetMs: number | null = null): Promise<HistogramOutput> {
    return this.read(
      resource,
      (db, r) => histogram(db, r, field, query, bins, budgetMs),
      (r) => this.shared.reads.histogram(r, field, query, bins, this.client, budgetMs),
      query,
    );
  }

  summary(resource: Resource, query: SearchQuery, options: SummaryOptions): Promise<SummaryOutput> {
    return this.read(
      resource,
      (db, r) => summary(db, r, query, options),
      (r) => this.shared.reads.summary(r, query, options, this.client),
      query,
    );
  }

  aggregate(resource: Resource, query: SearchQuery, spec: AggregateSpec): Promise<AggregateOutput> {
    return this.read(
      resource,
      (db, r) => aggregate(db, r, query, spec),
      (r) => this.shared.reads.aggregate(r, query, spec, this.client),
      query,
    );
  }

  stats(resource: Resource): Promise<ResourceStats> {
    return this.read(
      resource,
      (db, r) => sizes(db, r),
      (r) => this.shared.reads.stats(r, this.client),
    );
  }

  /** Outside a transaction, chunks from one snapshot (read-pool.ts); inside one, the rows as
   *  the transaction sees them, in one chunk. */
  async *iterate(resource: Resource, query: SearchQuery): AsyncIterableIterator<unknown[][]> {
    const r = await this.guardRead(() => this.current(resource, query));
    if (this.tx) {
      const out = await this.guard(() => search(this.tx!.client, r, query, this.shared.options.limits));
      if (out.rows.length) yield out.rows;
      return;
    }
    const chunks = this.shared.reads.iterate(r, query, this.client);
    let done = false;
    try {
      for (;;) {
        let next: IteratorResult<unknown[][]>;
        try {
          next = await chunks.next();
        } catch (e) {
          done = true;
          throw this.mapped(e);
        }
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // A consumer that stops early: the scheduler's stream gives its connection back.
      if (!done) await chunks.return?.();
    }
  }

  // ---------------------------------------------------------------------------- operations

  /** Refreshes the planner's statistics of the catalog and every resource's table. */
  analyze(): Promise<void> {
    return this.writing(async (db) => {
      await db.query("SET LOCAL statement_timeout = 0"); // every table: an operator's job, not a request's
      const { rows } = await db.query<{ table_name: string }>("SELECT table_name FROM datastore_resources WHERE active ORDER BY table_name");
      const tables = ["datastore_resources", "datastore_aliases", "api_tokens", ...rows.map((r) => r.table_name)];
      await db.query(`ANALYZE ${tables.map(q).join(", ")}`);
    });
  }

  async check(level: StartupCheck): Promise<void> {
    const { options, replica } = this.shared;
    await checkStore(this.shared.primary, options.url, options.schema, level);
    if (replica && options.readUrl && level !== "off" && !(await checkReplica(this.shared.primary, replica, options.url, options.readUrl, options.schema))) {
      this.shared.reads.dropReplica();
      this.shared.replica = undefined;
      await replica.end();
    }
  }

  /** All in check(): PostgreSQL looks after its own pages, and "full"'s row counts, taken while
   *  the server writes, would not match the catalog. */
  async scan(): Promise<void> {}

  /** pg_dump of the schema (backup.ts); the primary's URL, as the replica may lag. */
  backup(target: string): Promise<string> {
    return pgDump(this.shared.options.url, this.shared.options.schema, target);
  }

  /** What index learning did lately, for tests and the bench. */
  learnEvents(): readonly LearnEvent[] {
    return this.shared.learner?.events ?? [];
  }

  async close(): Promise<void> {
    if (this.tx || this.shared.closed) return;
    this.shared.closed = true;
    await this.shared.learner?.close();
    await this.shared.reads.close();
    await this.shared.primary.end();
    await this.shared.replica?.end();
  }
}
