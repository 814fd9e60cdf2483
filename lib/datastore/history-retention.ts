// How long history keeps a version (DATASTORE_HISTORY_DAYS, through open.ts): row images no
// version of the last `days` days reads are removed in the background (each engine's
// pruneHistory), and the oldest version readable moves up to the newest one older than that.
import type { DatastoreEngine } from "./engine";

const DAY_MS = 86_400_000;

/** Removes what no version of the last `days` days (as of `now`) reads; returns the images removed. */
export function pruneHistory(engine: DatastoreEngine, days: number, now = Date.now()): Promise<number> {
  return engine.pruneHistory(new Date(now - days * DAY_MS).toISOString());
}

/** The first removal waits a minute (not the start-up's work, nor a short CLI's); then hourly. */
const FIRST_PRUNE_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Keeps `days` days of history (0: everything) in the background; the timer stops with the
 *  engine and never keeps the process alive. */
export function keepHistory(engine: DatastoreEngine, days: number): void {
  if (days <= 0) return;
  let timer: NodeJS.Timeout;
  let stopped = false;
  const run = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      pruneHistory(engine, days)
        .catch((e) => console.error("history: removing old versions failed", e))
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
