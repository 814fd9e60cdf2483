// Plain fetchers for writing rows (datastore_upsert, datastore_records_delete), usable outside
// React, and the API's own words for a refused write. Each call is one transaction on the
// server: a refused one changes nothing.
import { ApiError } from "./errors";
import { callAction, type Auth } from "./fetch";
import type { DatastoreRecord } from "./types";

export type WriteMethod = "insert" | "update" | "upsert";

export function upsertRecords(auth: Auth, resourceId: string, method: WriteMethod, records: DatastoreRecord[]) {
  return callAction<{ resource_id: string; records: DatastoreRecord[] }>(
    "datastore_upsert",
    { resource_id: resourceId, method, records },
    auth,
  );
}

/** Deletes the rows matching `filters` (for one record: its key fields and values). */
export function deleteRecords(auth: Auth, resourceId: string, filters: Record<string, unknown>) {
  return callAction<{ resource_id: string }>("datastore_records_delete", { resource_id: resourceId, filters }, auth);
}

/** The API's messages for a refused write, verbatim: CKAN puts them under the parameter they
 *  concern (`records`, `key`, `fields`…), with `message` or `__type` as a fallback. */
export function writeErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
  const messages = Object.values(error.details).flatMap((v) =>
    typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((m): m is string => typeof m === "string") : [],
  );
  return messages.length ? messages : [error.message];
}
