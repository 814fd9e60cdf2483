// The cheap/expensive rule both engines judge reads by (read-scheduler.ts runs its verdicts):
// what a read is, and the sizes past which it waits its client's turn in the expensive lane.
// Each engine measures a read against these from its own plan (sqlite/ and postgres/read-cost.ts).
import type { SearchQuery } from "./engine";

export type Cost = "cheap" | "expensive";

/** What is judged: the read's kind and its search. */
export type CostedRead =
  | { op: "search"; query: SearchQuery }
  | { op: "aggregate"; query: SearchQuery }
  | { op: "valueCounts"; query: SearchQuery; field: string }
  | { op: "histogram"; query: SearchQuery }
  | { op: "summary"; query: SearchQuery }
  | { op: "stats" };

/** A verdict, and the read's shape (its SQL) under which a slow run is remembered. */
export interface Verdict {
  cost: Cost;
  shape: string;
}

// Each size below keeps a cheap read within a few milliseconds, so the cheap lane never waits
// behind a slow one; the timings they were chosen from are in docs/performance.md ("Figures
// behind the code's thresholds").

/** Tables this small are cheap to read whatever the plan: even a whole scan is short. */
export const SMALL_TABLE_ROWS = 20_000;
/** Rows a cheap page may return: a page costs by its rows, and a big one belongs in the other lane. */
export const CHEAP_PAGE_ROWS = 1_000;
/** Rows a cheap read may step over, sort or rank. */
export const CHEAP_ROWS = 5_000;
/** Index entries a cheap count may read: each is cheap, but a count has no other bound. */
export const CHEAP_COUNT_ROWS = 200_000;
/** Rows cheap value counts may group, through an index. */
export const CHEAP_GROUP_ROWS = 20_000;
/** A read judged cheap that takes longer than this twice running (not once: a busy machine
 *  can stall any read) has its shape judged expensive for SLOW_FOR_MS. */
export const SLOW_MS = 100;
export const SLOW_STRIKES = 2;
export const SLOW_FOR_MS = 60_000;
