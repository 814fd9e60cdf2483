// How long history keeps a version (DATASTORE_HISTORY_DAYS, through open.ts): row images no
// version of the last `days` days reads are removed in the background (retention.ts; each
// engine's pruneHistory), and the oldest version readable moves up to the newest one older than that.
import type { DatastoreEngine } from "./engine";
import { daysBefore, pruneInBackground } from "./retention";

/** Removes what no version of the last `days` days (as of `now`) reads; returns the images removed. */
export function pruneHistory(engine: DatastoreEngine, days: number, now = Date.now()): Promise<number> {
  return engine.pruneHistory(daysBefore(days, now));
}

/** Keeps `days` days of history (0: everything). */
export function keepHistory(engine: DatastoreEngine, days: number): void {
  pruneInBackground(engine, days, "history: removing old versions failed", () => pruneHistory(engine, days));
}
