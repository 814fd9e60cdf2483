// The one way to open a datastore: configuration in, an engine out. The server, the importer,
// the seed, backup, the CLIs and the tests all come through here; nothing else constructs an
// engine, and no engine reads the configuration itself: what it needs is passed from here.
// DATASTORE_DATABASE_URL selects PostgreSQL (postgres/), else SQLite (sqlite/).
import { config } from "../config";
import { keepAudit } from "./audit-retention";
import { keepHistory } from "./history-retention";
import type { DatastoreEngine } from "./engine";
import type { ReadLimits } from "./read-limits";
import type { FullTextMode } from "./postgres/bulk-load";
import type { LearnSettings } from "./index-learning-rule";

export interface EngineOptions {
  /** The SQLite file; default DATASTORE_DB. Ignored when a database URL is given or set. */
  file?: string;
  /** Read worker threads; 0 runs reads on the calling thread. Default DATASTORE_READ_WORKERS,
   *  else one per core (at least two) plus one for cheap reads. SQLite only. */
  readWorkers?: number;
  /** PostgreSQL: the primary's URL; default DATASTORE_DATABASE_URL. */
  databaseUrl?: string;
  /** PostgreSQL: a streaming replica for data reads; default DATASTORE_READ_DATABASE_URL. */
  readDatabaseUrl?: string;
  /** PostgreSQL: the schema holding everything; default DATASTORE_PG_SCHEMA, else `datastore`. */
  schema?: string;
  /** PostgreSQL: connections per pool; default DATASTORE_PG_POOL. */
  poolSize?: number;
  /** Reads judged expensive that may run at once; default DATASTORE_EXPENSIVE_READS, else the
   *  engine's own rule. */
  expensiveReads?: number;
  /** Read time limits; default the configuration's (DATASTORE_QUERY_TIMEOUT_MS,
   *  DATASTORE_COUNT_BUDGET_MS), read as reads start. */
  limits?: ReadLimits;
  /** PostgreSQL: how an import fills the full-text column; default DATASTORE_PG_BULK_FULL_TEXT. */
  bulkFullText?: FullTextMode;
  /** Index learning; default the configuration's (DATASTORE_ADAPTIVE_*). */
  learning?: LearnSettings;
  /** Bytes of search answers kept per resource version (SQLite: with read workers;
   *  PostgreSQL: checked against the catalog before each use); default DATASTORE_PAGE_CACHE_MB. */
  pageCacheBytes?: number;
  /** Days the audit trail is kept (0: for ever); default DATASTORE_AUDIT_DAYS. */
  auditDays?: number;
  /** Days of history kept (0: everything); default DATASTORE_HISTORY_DAYS. */
  historyDays?: number;
}

export async function openEngine(options: EngineOptions = {}): Promise<DatastoreEngine> {
  const engine = await openChosen(options);
  keepAudit(engine, options.auditDays ?? config.auditDays);
  keepHistory(engine, options.historyDays ?? config.historyDays);
  return engine;
}

async function openChosen(options: EngineOptions): Promise<DatastoreEngine> {
  const databaseUrl = options.databaseUrl ?? (options.file === undefined ? config.databaseUrl : undefined);
  const limits = options.limits ?? config;
  const expensiveReads = options.expensiveReads ?? config.expensiveReads;
  // Each engine is loaded when chosen: a server loads one driver, not both (pg takes a while).
  if (databaseUrl) {
    const { openPostgresEngine } = await import("./postgres/engine");
    return openPostgresEngine({
      url: databaseUrl,
      readUrl: options.readDatabaseUrl ?? config.readDatabaseUrl,
      schema: options.schema ?? config.pgSchema,
      poolSize: options.poolSize ?? config.pgPoolSize,
      expensiveReads,
      limits,
      bulkFullText: options.bulkFullText ?? config.pgBulkFullText,
      learning: options.learning ?? config,
      writeTimeoutMs: config.writeTimeoutMs,
      dumpIdleMs: config.pgDumpIdleMs,
      pageCacheBytes: options.pageCacheBytes ?? config.pageCacheMb * 2 ** 20,
    });
  }
  const { openSqliteEngine } = await import("./sqlite/engine");
  return openSqliteEngine({
    file: options.file ?? config.dbPath,
    readWorkers: options.readWorkers ?? config.readWorkers,
    expensiveReads,
    limits,
    learning: options.learning ?? config,
    pageCacheBytes: options.pageCacheBytes ?? config.pageCacheMb * 2 ** 20,
  });
}
