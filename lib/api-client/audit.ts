// A resource's recent writes (datastore_audit_list, for write and admin tokens): the fetcher's
// query options and their key, under the session's keys like every other read.
import { queryOptions } from "@tanstack/react-query";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";

/** One write as datastore_audit_list answers it. */
export type AuditEntry = {
  id: number;
  time: string;
  token: string | null;
  action: string;
  resource_id: string | null;
  rows: number | null;
};

export const auditKeys = {
  recent: (s: Session, resourceId: string, limit: number) => [...queryKeys.all(s), "datastore_audit_list", resourceId, limit] as const,
};

export function recentChangesQuery(s: Session, resourceId: string, limit = 10) {
  return queryOptions({
    queryKey: auditKeys.recent(s, resourceId, limit),
    queryFn: ({ signal }) => callAction<{ records: AuditEntry[] }>("datastore_audit_list", { resource_id: resourceId, limit }, s, signal),
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}
