// The bounds of the quick extensions (datastore_value_counts, datastore_histogram), on every
// engine: exact when the read fits a time budget; otherwise over rows spread through the table
// (spread-sample.ts; a table loaded in date order shows all its dates), when the read takes
// such a sample and a narrow search leaves enough matches in it; else over the table's first
// rows by `_id`; then `partial`. Counting a whole big table cannot fit the budget even through
// an index, so an unnarrowed read of one skips the exact try.
import { got, type Got, type Plan } from "./stepwise";

export const BOUNDED = {
  /** Time for the exact answer. */
  budgetMs: 120,
  /** The first rows read when it does not fit. */
  firstRows: 100_000,
  /** Rows of the spread sample. */
  sampleRows: 20_000,
  /** Fewer sampled matches than this: the first rows are read instead. */
  minMatches: 1_000,
};

export interface BoundedReads<T> {
  /** The exact answer within BOUNDED.budgetMs, or null when it did not fit. */
  exact(): Got<T | null>;
  /** The answer over a spread sample of `rows` rows, or null when the table holds no more. */
  sample?(rows: number): Got<T | null>;
  /** The answer over the table's first `rows` rows (all of them when it holds fewer). */
  first(rows: number): Got<T>;
}

/** `matches`: the matching rows an answer counted, to judge a sample by. */
export function* boundedPlan<T>(table: { rowCount: number; narrowed: boolean }, reads: BoundedReads<T>, matches: (out: T) => number = () => 0): Plan<{ out: T; partial: boolean }> {
  if (table.narrowed || table.rowCount <= 5 * BOUNDED.firstRows) {
    const exact = yield* got(reads.exact());
    if (exact !== null) return { out: exact, partial: false };
  }
  if (reads.sample) {
    const sampled = yield* got(reads.sample(BOUNDED.sampleRows));
    if (sampled !== null && (!table.narrowed || matches(sampled) >= BOUNDED.minMatches)) return { out: sampled, partial: true };
  }
  return { out: yield* got(reads.first(BOUNDED.firstRows)), partial: true };
}
