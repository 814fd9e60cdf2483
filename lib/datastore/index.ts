// The datastore's public face for the server: one engine per process, opened on first use
// from configuration, and the token rules over its token storage.
import { TokenStore } from "../auth/tokens";
import { config } from "../config";
import type { DatastoreEngine } from "./engine";
import { openEngine } from "./open";

export interface Datastore {
  engine: DatastoreEngine;
  tokens: TokenStore;
}

// On globalThis so Next's dev reloads do not open a second engine over the same file.
const globalForEngine = globalThis as unknown as { __datastore?: { file: string; opened: Promise<Datastore> } };

export function getDatastore(): Promise<Datastore> {
  const file = config.dbPath;
  const cached = globalForEngine.__datastore;
  if (cached && cached.file === file) return cached.opened;
  const opened = openEngine({ file }).then((engine) => ({ engine, tokens: new TokenStore(engine.tokens) }));
  globalForEngine.__datastore = { file, opened };
  opened.catch(() => {
    if (globalForEngine.__datastore?.opened === opened) globalForEngine.__datastore = undefined;
  });
  return opened;
}

/** Closes the process-wide engine (tests switch files between suites). */
export async function closeDatastore(): Promise<void> {
  const cached = globalForEngine.__datastore;
  globalForEngine.__datastore = undefined;
  if (cached) await (await cached.opened.catch(() => null))?.engine.close();
}
