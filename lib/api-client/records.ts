// Plain fetchers for writing rows (datastore_upsert, datastore_records_delete), usable outside
// React (errorLines in errors.ts words a refused one). Each call is one transaction on the
// server: a refused one changes nothing.
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
