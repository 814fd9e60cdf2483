// The datastore's public face for the server: one engine per process over DATASTORE_DB.
import { TokenStore } from "../auth/tokens";
import { getDb } from "../db/connection";
import { config } from "../config";
import { SqliteEngine } from "./sqlite/engine";
import { ReadPool, defaultReadWorkers } from "./sqlite/read-pool";

const globalForEngine = globalThis as unknown as { __datastore?: { db: unknown; engine: SqliteEngine; tokens: TokenStore } };

export function getDatastore(): { engine: SqliteEngine; tokens: TokenStore } {
  const db = getDb();
  const cached = globalForEngine.__datastore;
  if (cached && cached.db === db) return cached;
  const workers = config.readWorkers ?? defaultReadWorkers();
  const pool = workers > 0 ? new ReadPool(config.dbPath, workers) : undefined;
  const fresh = { db, engine: new SqliteEngine(db, pool), tokens: new TokenStore(db) };
  globalForEngine.__datastore = fresh;
  return fresh;
}
