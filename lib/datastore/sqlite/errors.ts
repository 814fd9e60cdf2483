// SQLite's failures in the datastore's words: the only place that knows SQLite's error codes.
// Anything not recognised passes through unchanged (a 500 with details in the log).
import { DatastoreError } from "../errors";
import { CastError } from "../types";
import { DeadlineExceeded } from "./deadline";
import { GroupNotAttached } from "./groups";

export function codeOf(e: unknown): string {
  return String((e as { code?: unknown })?.code ?? "");
}

export function isUniqueViolation(e: unknown): boolean {
  const code = codeOf(e);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

export function toDatastoreError(e: unknown): unknown {
  if (e instanceof DatastoreError) return e;
  if (e instanceof CastError) return DatastoreError.field("query", e.message);
  if (e instanceof DeadlineExceeded) return DatastoreError.tooLong(e.ms);
  // A resource whose group this read or write did not attach: it was dropped and made again
  // (in another group) meanwhile, as a resource that changed while read.
  if (e instanceof GroupNotAttached) return DatastoreError.changed();
  const code = codeOf(e);
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return DatastoreError.busy();
  if (code === "SQLITE_FULL") return DatastoreError.cannotWrite("full");
  if (code.startsWith("SQLITE_READONLY")) {
    console.error("datastore: the database became read-only", e);
    return DatastoreError.cannotWrite("read-only");
  }
  // A search word FTS5 still reads as a phrase (see sql.ts): the word's fault, not ours.
  if (/^fts5: phrase queries are not supported/.test((e as Error)?.message ?? "")) {
    return DatastoreError.field("query", "a search word holds characters that split it in two; put a space there instead");
  }
  return e;
}
