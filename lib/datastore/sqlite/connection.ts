// SQLite connections: the writer (one per process; it migrates the catalog) and read-only
// readers (read workers, streams). Pragmas and the user functions every connection needs
// are set here and nowhere else.
import Database from "better-sqlite3";
import type { ReadLimits } from "../read-limits";
import fs from "node:fs";
import path from "node:path";
import { installArrayKey } from "./array-order";
import { installDeadline } from "./deadline";
import { registerFtsFunctions } from "./fts-text";
import { installBinCounts } from "./histogram";
import { migrate } from "./migrations";
import { StatementCache } from "./statement-cache";

export type DB = Database.Database;
export type Statement = Database.Statement;

/** A connection with its prepared-statement cache, and the limits its reads run under: what
 *  every part of the engine works on. */
export interface Conn {
  db: DB;
  cache: StatementCache;
  limits: ReadLimits;
}

function conn(db: DB, limits: ReadLimits): Conn {
  installDeadline(db);
  installArrayKey(db);
  installBinCounts(db);
  registerFtsFunctions(db);
  return { db, cache: new StatementCache(db), limits };
}

export function openWriter(file: string, limits: ReadLimits): Conn {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL lets readers run while one writer writes; NORMAL sync is durable across process
  // crashes in WAL mode (only an OS crash can lose the last commits).
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 10000");
  db.pragma("foreign_keys = ON");
  db.pragma("temp_store = MEMORY");
  setCache(db, 32);
  const c = conn(db, limits);
  migrate(c);
  return c;
}

/** A read-only connection for a read worker or a stream: the writer owns migrations and WAL. */
export function openReader(file: string, limits: ReadLimits): Conn {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 10000");
  setCache(db, 16);
  return conn(db, limits);
}

/**
 * Page cache per connection, smaller for readers so the server with its read workers stays
 * small (the OS page cache holds the file anyway; docs/performance.md "Pragmas" has the figures). No
 * mmap: it was no faster warm, and counts the mapped file against the server's memory once
 * per connection.
 */
function setCache(db: DB, mib: number): void {
  db.pragma(`cache_size = -${mib * 1024}`);
  db.pragma("mmap_size = 0");
}
