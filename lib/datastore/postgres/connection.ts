// PostgreSQL connection pools: the primary's (catalog, tokens, writes, and data reads without a
// replica) and a streaming replica's. Every connection starts with the schema as its
// search_path, the read time budget as statement_timeout, our application_name and the type
// parsers of values.ts, all sent in the startup packet, so no query is spent on them. A read
// sets a connection's statement_timeout once and when the limit changed since (readTimeout),
// and runs its statement prepared once per connection (prepared).
import { createHash } from "node:crypto";
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

/** Idle time of a connection before TCP keepalive probes it (the probes' interval and count
 *  are the OS's). */
const KEEPALIVE_IDLE_MS = 10_000;

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
    // A server gone without a word (a host down, a dropped route) is found by the probes of an
    // idle connection, which the pool then drops, within about a minute, not the OS's two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
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

/** Write transactions a connection runs before it is closed, and the pool opens another. A
 *  server process keeps each table's full-text trigger it ran, compiled, for as long as it lives,
 *  and every later change to the catalog (a create) walks all it keeps: a writer that wrote to
 *  thousands of tables made each create slower (docs/performance.md, "Catalog at scale"). */
const WRITES_PER_CONNECTION = 100;
const writesOn = new WeakMap<pg.PoolClient, number>();

/** Returns a connection that has just committed a write transaction to its pool, or closes it
 *  once it has run WRITES_PER_CONNECTION of them. */
export function releaseWriter(client: pg.PoolClient): void {
  const n = (writesOn.get(client) ?? 0) + 1;
  writesOn.set(client, n);
  client.release(n >= WRITES_PER_CONNECTION);
}

/**
 * Ends every idle connection of `pool`: one found dead (a restart, a failover) says the others,
 * idle as long, may be too, so what runs again after it runs on a fresh connection.
 */
export async function dropIdle(pool: pg.Pool): Promise<void> {
  try {
    for (let n = pool.idleCount; n > 0 && pool.idleCount > 0; n--) (await pool.connect()).release(true);
  } catch {
    // No idle connection after all, and no new one: the retry will say why.
  }
}

/** statement_timeout as set on a connection (whole ms; 0: none). */
const timeoutSetting = (ms: number) => Math.max(0, Math.round(ms));

/** Each connection's statement_timeout as this process last set it. */
const timeouts = new WeakMap<object, number>();

/**
 * Gives `client` the read time limit in force now (ReadLimits, read as each read starts): a
 * round trip on a connection's first read, and when the limit changed since. Not taken from the
 * startup packet, which a pooler may drop (postgresql.md, PgBouncer). Write transactions lift
 * it with SET LOCAL, which ends with them.
 */
export async function readTimeout(client: pg.PoolClient, ms: number): Promise<void> {
  const want = timeoutSetting(ms);
  if (timeouts.get(client) === want) return;
  await client.query(`SET statement_timeout = ${want}`);
  timeouts.set(client, want);
}

/** Statements a connection keeps prepared: beyond them (many shapes of query), statements run
 *  unnamed, so a client varying its queries cannot grow a server connection's memory. */
const PREPARED_PER_CONNECTION = 200;
const preparedOn = new WeakMap<object, Set<string>>();

/**
 * `text` as a statement for `client`: named by its text's hash while the connection has room,
 * so the server parses it once per connection and each later run sends only its values.
 */
export function prepared(client: object, text: string): { name?: string; text: string } {
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Set()));
  const name = `ds_${createHash("sha1").update(text).digest("base64url").slice(0, 24)}`;
  if (!names.has(name)) {
    if (names.size >= PREPARED_PER_CONNECTION) return { text };
    names.add(name);
  }
  return { name, text };
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
