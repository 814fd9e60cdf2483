// How long history keeps a version (DATASTORE_HISTORY_DAYS, through open.ts): row images no
// version of the last `days` days reads are removed in the background (retention.ts; each
// engine's pruneHistory), and the oldest version readable moves up to the newest one older than that.
import type { DatastoreEngine } from "./engine";
import { daysBefore, pruneInBackground } from "./retention";

/** Removes what no version of the last `days` days (as of `now`) reads; returns the images removed. */
export function pruneHistory(engine: DatastoreEngine, days: number, now = Date.now()): Promise<number> {
  return pruneBefore(engine, daysBefore(days, now));
}

/** Removes what no version from `before` (an ISO time) on reads, resource by resource: each in a
 *  write of its own, so that other writes (and, on PostgreSQL, reads of a table whose dropped
 *  columns go) wait for one resource's pass, not the whole store's. */
export async function pruneBefore(engine: DatastoreEngine, before: string): Promise<number> {
  let n = 0;
  for (const r of await engine.listResources()) if (r.active) n += await engine.pruneHistory(r, before);
  return n;
}

/** Keeps `days` days of history (0: everything). */
export function keepHistory(engine: DatastoreEngine, days: number): void {
  pruneInBackground(engine, days, "history: removing old versions failed", () => pruneHistory(engine, days));
}
