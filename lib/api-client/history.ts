// A resource's history (issue 27, our extension): one record's versions
// (datastore_record_history) and how many rows differ since a version (datastore_changes with
// limit 0), for the record view's History and a pinned link's "changed since" note.
import { queryOptions } from "@tanstack/react-query";
import type { AsOf } from "@/lib/view-state";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";
import type { DatastoreRecord } from "./types";

export type ChangeKind = "insert" | "update" | "delete";

export type RecordVersion = {
  version: number;
  /** ISO 8601 time of the write; null once the write's log entry is no longer kept. */
  time: string | null;
  kind: ChangeKind;
  /** The name of the token that wrote it (never its secret); null when none was named. */
  token: string | null;
  /** The record after this version (null for a delete). */
  record: DatastoreRecord | null;
  /** Each field this version changed. */
  changed: Record<string, { old: unknown; new: unknown }>;
};

export type RecordHistory = { resource_id: string; _id: number; versions: RecordVersion[] };

export type ChangesCount = { version: number; total: number; records_changed: number };

export function recordHistoryQuery(s: Session, resourceId: string, id: number) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_record_history", { resource_id: resourceId, _id: id }] as const,
    queryFn: ({ signal }) => callAction<RecordHistory>("datastore_record_history", { resource_id: resourceId, _id: id }, s, signal),
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}

/** How many rows differ now from the table at `since` (a version or a time), and the version now. */
export function changesSinceQuery(s: Session, resourceId: string, since: AsOf) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_changes", { resource_id: resourceId, since, limit: 0 }] as const,
    queryFn: ({ signal }) => callAction<ChangesCount>("datastore_changes", { resource_id: resourceId, since, limit: 0 }, s, signal),
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}
