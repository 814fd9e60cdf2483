// What `total_estimation_threshold` means, on every engine (CKAN 2.11, backend/postgres.py
// search_data): without it a total is counted exactly, as CKAN counts; with it, a count that
// runs past the count budget gives way to an estimate when the estimate is at least the
// threshold (CKAN's docstring says "above", its code and tests use >=, so 0 means "estimate
// when you can"). Below that the exact count is worth its time, within the query's time limit.
import { got, type Got, type Plan } from "./stepwise";

export interface Total {
  total: number;
  estimated: boolean;
}

export interface TotalReads {
  /** The exact count, within the query's time limit. */
  exact(): Got<number>;
  /** The exact count within the count budget, or null when it did not fit. */
  budgeted(): Got<number | null>;
  /** The engine's estimate of the count, or null when it has none worth giving. */
  estimate(): Got<number | null>;
}

export function* totalPlan(threshold: number | undefined, reads: TotalReads): Plan<Total> {
  if (threshold !== undefined) {
    const counted = yield* got(reads.budgeted());
    if (counted !== null) return { total: counted, estimated: false };
    const estimate = yield* got(reads.estimate());
    if (estimate !== null && estimate >= threshold) return { total: estimate, estimated: true };
  }
  return { total: yield* got(reads.exact()), estimated: false };
}
