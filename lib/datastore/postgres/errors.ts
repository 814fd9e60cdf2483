// PostgreSQL's failures in the datastore's words: the only place that knows SQLSTATE codes.
// Anything not recognised passes through unchanged (a 500 with details in the log).
import { DatastoreError, DatastoreUnavailable } from "../errors";
import { CastError } from "../types";

/** The SQLSTATE of a server error, or a Node error code (ECONNREFUSED…), or "". */
export function codeOf(e: unknown): string {
  return String((e as { code?: unknown })?.code ?? "");
}

export function isUniqueViolation(e: unknown): boolean {
  return codeOf(e) === "23505";
}

/** A data error: a value the column's type does not take (22xxx: syntax, range, format). */
export function isDataError(e: unknown): boolean {
  return codeOf(e).startsWith("22");
}

/** Serialization failure or deadlock: the same work may succeed when run again. */
/** A conflict with another transaction found by the engine itself: retried as PostgreSQL's own. */
export function serializationFailure(message: string): Error {
  return Object.assign(new Error(message), { code: "40001" });
}

export function isRetryable(e: unknown): boolean {
  const code = codeOf(e);
  return code === "40001" || code === "40P01";
}

const NODE_CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The server cannot be reached, went away, or refuses connections for now. pg reports some
 *  of these without a code, by message only. */
export function isConnectionError(e: unknown): boolean {
  const code = codeOf(e);
  if (code.startsWith("08") || ["57P01", "57P02", "57P03", "53300"].includes(code) || NODE_CONNECTION_CODES.has(code)) return true;
  const message = (e as Error)?.message ?? "";
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(message);
}

/** A connection that was open went away under a statement (the server ended it, or the peer
 *  reset it): unlike a failure to connect, another connection may well work at once. */
export function isLostConnection(e: unknown): boolean {
  const code = codeOf(e);
  if (["57P01", "57P02", "ECONNRESET", "EPIPE"].includes(code)) return true;
  return /Connection terminated unexpectedly|Client has encountered a connection error/i.test((e as Error)?.message ?? "");
}

/** CKAN's answer to a unique violation (its IntegrityError), with PostgreSQL's own message. */
export function uniquenessError(orig: string): DatastoreError {
  return DatastoreError.validation({
    constraints: ["Cannot insert records or create index because of uniqueness constraint"],
    info: { orig, pgcode: "23505" },
  });
}

/** A write transaction's statement ran past DATASTORE_WRITE_TIMEOUT_MS: rolled back whole. */
export function writeTooLong(ms: number): DatastoreError {
  return DatastoreError.field(
    "database",
    `the write took longer than ${ms} ms (DATASTORE_WRITE_TIMEOUT_MS) and was rolled back: nothing was written; send fewer records at a time, or try again later`,
  );
}

/** A sorted dump's client read nothing for `ms`: the dump was ended to free its connection. */
export function dumpIdle(ms: number): DatastoreError {
  return DatastoreError.field(
    "query",
    `the dump was ended: its client read nothing for ${ms} ms (DATASTORE_PG_DUMP_IDLE_MS); read it faster, or dump it in _id order, which holds nothing between chunks`,
  );
}

/** `queryTimeoutMs`: the reads' time limit, which a statement timeout ran past; `writeTimeoutMs`,
 *  for a failure of a write transaction: the limit its statements ran under. */
export function toDatastoreError(e: unknown, queryTimeoutMs: number, writeTimeoutMs?: number): unknown {
  if (e instanceof DatastoreError || e instanceof DatastoreUnavailable) return e;
  if (e instanceof CastError) return DatastoreError.field("query", e.message);
  const code = codeOf(e);
  const message = (e as Error)?.message ?? String(e);
  // statement_timeout (also a cancel from pg_cancel_backend, which only an operator sends).
  if (code === "57014") return writeTimeoutMs === undefined ? DatastoreError.tooLong(queryTimeoutMs) : writeTooLong(writeTimeoutMs);
  if (code === "23505") return uniquenessError(message);
  if (code.startsWith("22")) return DatastoreError.field("query", message);
  // Past what PostgreSQL can store or index (a key value over a btree page's third, a row's
  // full text over 1 MB, too many columns): the request's data, not the server, is at fault.
  if (code.startsWith("54")) return DatastoreError.validation({ records: [`PostgreSQL cannot store this: ${message}`], info: { orig: message, pgcode: code } });
  // Still failing after the one retry (engine.ts): nothing was written, try again shortly.
  if (isRetryable(e) || code === "55P03") return DatastoreError.busy();
  if (code === "53100") return DatastoreError.cannotWrite("full");
  if (code === "25006") {
    console.error("datastore: the database refused a write as read-only (is DATASTORE_DATABASE_URL a replica?)", e);
    return DatastoreError.cannotWrite("read-only");
  }
  if (isConnectionError(e)) return new DatastoreUnavailable(`the PostgreSQL server cannot be reached (${message}); check that it is running and DATASTORE_DATABASE_URL`);
  // A connection's prepared statements gone, or another's found: a pooler hands each
  // transaction another server connection (PgBouncer's transaction mode), which the pools'
  // connections cannot work through.
  if (code === "26000" || code === "42P05") {
    return new DatastoreUnavailable(`a prepared statement did not survive from one transaction to the next (${message}): a connection pooler in front of PostgreSQL must use pool_mode = session (docs/postgresql.md, "Through PgBouncer")`);
  }
  return e;
}
