// The datastore's public face for the server: one engine per process, opened on first use
// from configuration, and the token rules over its token storage.
import { TokenStore } from "../auth/tokens";
import { config } from "../config";
import type { DatastoreEngine } from "./engine";
import { openEngine, type EngineOptions } from "./open";

export interface Datastore {
  engine: DatastoreEngine;
  tokens: TokenStore;
}

// On globalThis so Next's dev reloads do not open a second engine over the same store.
const globalForEngine = globalThis as unknown as { __datastore?: { key: string; opened: Promise<Datastore> } };

/** Which store the configuration names: PostgreSQL's URLs and schema, else the SQLite file. A
 *  change (tests switch stores between suites) opens another engine. */
export function storeOptions(): EngineOptions {
  const databaseUrl = config.databaseUrl;
  return databaseUrl ? { databaseUrl, readDatabaseUrl: config.readDatabaseUrl, schema: config.pgSchema } : { file: config.dbPath };
}

export function getDatastore(): Promise<Datastore> {
  const options = storeOptions();
  const key = JSON.stringify(options);
  const cached = globalForEngine.__datastore;
  if (cached && cached.key === key) return cached.opened;
  const opened = openEngine(options).then((engine) => ({ engine, tokens: new TokenStore(engine.tokens) }));
  globalForEngine.__datastore = { key, opened };
  opened.catch(() => {
    if (globalForEngine.__datastore?.opened === opened) globalForEngine.__datastore = undefined;
  });
  return opened;
}

/** Closes the process-wide engine (tests switch stores between suites). */
export async function closeDatastore(): Promise<void> {
  const cached = globalForEngine.__datastore;
  globalForEngine.__datastore = undefined;
  if (cached) await (await cached.opened.catch(() => null))?.engine.close();
}
