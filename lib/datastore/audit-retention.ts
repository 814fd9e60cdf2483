// How long the audit trail keeps a write (DATASTORE_AUDIT_DAYS, through open.ts): older entries
// are removed in the background, a batch at a time (each engine's AuditStorage.prune).
import type { DatastoreEngine } from "./engine";

const DAY_MS = 86_400_000;

/** Removes the entries older than `days` days as of `now`; returns how many went. */
export function pruneAudit(engine: DatastoreEngine, days: number, now = Date.now()): Promise<number> {
  return engine.audit.prune(new Date(now - days * DAY_MS).toISOString());
}

/** The first removal waits a minute (not the start-up's work, nor a short CLI's); then hourly. */
const FIRST_PRUNE_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Keeps the audit trail `days` days (0: for ever) in the background; the timer stops with
 *  the engine and never keeps the process alive. */
export function keepAudit(engine: DatastoreEngine, days: number): void {
  if (days <= 0) return;
  let timer: NodeJS.Timeout;
  let stopped = false;
  const run = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      pruneAudit(engine, days)
        .catch((e) => console.error("audit: removing old entries failed", e))
        .finally(() => run(PRUNE_EVERY_MS));
    }, delay);
    timer.unref();
  };
  run(FIRST_PRUNE_MS);
  const close = engine.close.bind(engine);
  engine.close = () => {
    stopped = true;
    clearTimeout(timer);
    return close();
  };
}
