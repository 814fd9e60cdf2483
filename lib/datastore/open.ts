// The one way to open a datastore: configuration in, an engine out. The server, the importer,
// the seed, backup, the CLIs and the tests all come through here; nothing else constructs an
// engine. DATASTORE_DATABASE_URL selects PostgreSQL (postgres/), else SQLite (sqlite/).
import { config } from "../config";
import type { DatastoreEngine } from "./engine";
import { openPostgresEngine } from "./postgres/engine";
import { openSqliteEngine } from "./sqlite/engine";

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
}

export async function openEngine(options: EngineOptions = {}): Promise<DatastoreEngine> {
  const databaseUrl = options.databaseUrl ?? (options.file === undefined ? config.databaseUrl : undefined);
  if (databaseUrl) {
    return openPostgresEngine({
      url: databaseUrl,
      readUrl: options.readDatabaseUrl ?? config.readDatabaseUrl,
      schema: options.schema ?? config.pgSchema,
      poolSize: config.pgPoolSize,
    });
  }
  return openSqliteEngine({ file: options.file ?? config.dbPath, readWorkers: options.readWorkers ?? config.readWorkers });
}
