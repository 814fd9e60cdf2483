// How long the audit trail keeps a write (DATASTORE_AUDIT_DAYS, through open.ts): older entries
// are removed in the background (retention.ts), a batch at a time (each engine's AuditStorage.prune).
import type { DatastoreEngine } from "./engine";
import { daysBefore, pruneInBackground } from "./retention";

/** Removes the entries older than `days` days as of `now`; returns how many went. */
export function pruneAudit(engine: DatastoreEngine, days: number, now = Date.now()): Promise<number> {
  return engine.audit.prune(daysBefore(days, now));
}

/** Keeps the audit trail `days` days (0: for ever). */
export function keepAudit(engine: DatastoreEngine, days: number): void {
  pruneInBackground(engine, days, "audit: removing old entries failed", () => pruneAudit(engine, days));
}
