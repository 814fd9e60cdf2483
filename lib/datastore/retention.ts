// Removal in the background of what is kept only so many days (the audit trail, history's
// versions): the first pass waits a minute (not the start-up's work, nor a short CLI's), then one
// an hour; the timer stops with the engine and never keeps the process alive.
import type { DatastoreEngine } from "./engine";

const DAY_MS = 86_400_000;
const FIRST_PRUNE_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The ISO 8601 time `days` days before `now`: what is older goes. */
export function daysBefore(days: number, now: number): string {
  return new Date(now - days * DAY_MS).toISOString();
}

/** Runs `prune` hourly while `engine` is open, when `days` > 0 (0: keep for ever); a failure is
 *  logged as `failing` and the next pass comes an hour later. */
export function pruneInBackground(engine: DatastoreEngine, days: number, failing: string, prune: () => Promise<unknown>): void {
  if (days <= 0) return;
  let timer: NodeJS.Timeout;
  let stopped = false;
  const run = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      prune()
        .catch((e) => console.error(failing, e))
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
