// The datastore's public face for the server: one engine per process, opened on first use
// from configuration, the token rules over its token storage, and the request budgets (kept in
// this process with SQLite, shared by every app server with PostgreSQL).
import { TokenStore } from "../auth/tokens";
import { config } from "../config";
import type { DatastoreEngine } from "./engine";
import { openEngine, type EngineOptions } from "./open";
import { Budgets, MemoryBudgets } from "./rate-budget";

export interface Datastore {
  engine: DatastoreEngine;
  tokens: TokenStore;
  budgets: Budgets;
  /** Ends what the budgets hold open (PostgreSQL's pool). */
  closeBudgets(): Promise<void>;
}

async function openBudgets(options: EngineOptions): Promise<Pick<Datastore, "budgets" | "closeBudgets">> {
  if (!options.databaseUrl) return { budgets: new Budgets(new MemoryBudgets()), closeBudgets: async () => undefined };
  const { openPgBudgets } = await import("./postgres/rate-budgets");
  const store = openPgBudgets(options.databaseUrl, options.schema ?? config.pgSchema);
  return { budgets: new Budgets(store), closeBudgets: () => store.close() };
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
  const opened = openEngine(options).then(async (engine) => ({ engine, tokens: new TokenStore(engine.tokens), ...(await openBudgets(options)) }));
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
  const datastore = cached && (await cached.opened.catch(() => null));
  if (datastore) await Promise.all([datastore.engine.close(), datastore.closeBudgets()]);
}
