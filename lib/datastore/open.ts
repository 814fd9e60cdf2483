// The one way to open a datastore: configuration in, an engine out. The server, the importer,
// the seed, backup, the CLIs and the tests all come through here; nothing else constructs an
// engine. Another engine (PostgreSQL) is one more branch here and a folder beside sqlite/.
import { config } from "../config";
import type { DatastoreEngine } from "./engine";
import { openSqliteEngine } from "./sqlite/engine";

export interface EngineOptions {
  /** The SQLite file; default DATASTORE_DB. */
  file?: string;
  /** Read worker threads; 0 runs reads on the calling thread. Default DATASTORE_READ_WORKERS,
   *  else one per core (at least two) plus one for cheap reads. */
  readWorkers?: number;
}

export async function openEngine(options: EngineOptions = {}): Promise<DatastoreEngine> {
  return openSqliteEngine({ file: options.file ?? config.dbPath, readWorkers: options.readWorkers ?? config.readWorkers });
}
