// PostgreSQL connection pools: the primary's (catalog, tokens, writes, and data reads without a
// replica) and a streaming replica's. Every connection starts with the schema as its
// search_path, the read time budget as statement_timeout, our application_name and the type
// parsers of values.ts, all sent in the startup packet, so no query is spent on them.
import pg from "pg";
import { quoteIdent } from "./resource";
import { pgTypes } from "./values";

export const APPLICATION_NAME = "datastore-explorer";

export interface PoolOptions {
  url: string;
  schema: string;
  size: number;
  /** Named in logs: "primary" or "replica". */
  role: string;
  /** The read time limit (ms; 0: none). */
  statementTimeoutMs: number;
}

/** A value of the startup `options` (`-c name=value`): spaces and backslashes escaped. */
function startupValue(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/ /g, "\\ ");
}

export function createPool(o: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.size,
    application_name: APPLICATION_NAME,
    // Reads are bounded by the time budget; write transactions lift it (engine.ts), as a large
    // import or index build may take minutes.
    statement_timeout: o.statementTimeoutMs || undefined,
    options: `-c search_path=${startupValue(quoteIdent(o.schema))}`,
    types: pgTypes,
    // A server that does not answer fails the request, instead of holding it forever.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server dropped (restart, failover) must not crash the process: the
  // pool discards it and opens another on the next request.
  pool.on("error", (e) => console.error(`datastore: PostgreSQL ${o.role} connection lost: ${e.message}`));
  // The pool listens only while a connection is idle: one lost while checked out (inside a
  // transaction, between its statements) would otherwise throw an uncaught error. Its next
  // query fails instead, and the request answers 503.
  pool.on("connect", (client) => client.on("error", (e) => console.error(`datastore: PostgreSQL ${o.role} connection lost in use: ${e.message}`)));
  return pool;
}

/** Where a URL points, for messages: never its password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : "";
    const db = u.pathname.replace(/^\//, "") || "(default database)";
    return `${user}${u.hostname || "localhost"}:${u.port || "5432"}/${decodeURIComponent(db)}`;
  } catch {
    return "(an unparsable URL)";
  }
}
