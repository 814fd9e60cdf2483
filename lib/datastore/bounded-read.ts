// How the quick extensions (datastore_value_counts, datastore_histogram) read, on every
// engine: exact by default, however long it takes (under the query timeout). Only when the
// caller bounds the time (`budget_ms`): exact when the read fits it; otherwise over rows spread
// through the table (spread-sample.ts; a table loaded in date order shows all its dates), when
// the read takes such a sample and a narrow search leaves enough matches in it; else over the
// table's first rows by `_id`; then `partial`, and every count scaled to the whole table with
// its margin (scaledCounts). Counting a whole big table cannot fit a short budget even through
// an index, so an unnarrowed bounded read of one skips the exact try.
import { scaleCount } from "./sample-estimate";
import { got, type Got, type Plan } from "./stepwise";

export const BOUNDED = {
  /** The first rows read when the exact answer does not fit. */
  firstRows: 100_000,
  /** Rows of the spread sample. */
  sampleRows: 20_000,
  /** Fewer sampled matches than this: the first rows are read instead. */
  minMatches: 1_000,
};

export interface BoundedReads<T> {
  /** The exact answer within `ms`, or null when it did not fit; `ms` null: under the query
   *  timeout alone, never null. */
  exact(ms: number | null): Got<T | null>;
  /** The answer over a spread sample of `rows` rows, or null when the table holds no more. */
  sample?(rows: number): Got<T | null>;
  /** The answer over the table's first `rows` rows (all of them when it holds fewer). */
  first(rows: number): Got<T>;
}

/** `budgetMs`: the caller's bound, or null for the exact answer; `matches`: the matching rows
 *  an answer counted, to judge a sample by. `sampled`: the rows a partial answer stands on. */
export function* boundedPlan<T>(
  table: { rowCount: number; narrowed: boolean },
  budgetMs: number | null,
  reads: BoundedReads<T>,
  matches: (out: T) => number = () => 0,
): Plan<{ out: T; partial: boolean; sampled: number }> {
  if (budgetMs === null) return { out: (yield* got(reads.exact(null)))!, partial: false, sampled: 0 };
  if (table.narrowed || table.rowCount <= 5 * BOUNDED.firstRows) {
    const exact = yield* got(reads.exact(budgetMs));
    if (exact !== null) return { out: exact, partial: false, sampled: 0 };
  }
  if (reads.sample) {
    const sampled = yield* got(reads.sample(BOUNDED.sampleRows));
    if (sampled !== null && (!table.narrowed || matches(sampled) >= BOUNDED.minMatches)) return { out: sampled, partial: true, sampled: BOUNDED.sampleRows };
  }
  return { out: yield* got(reads.first(BOUNDED.firstRows)), partial: true, sampled: BOUNDED.firstRows };
}

/** Counts seen in `sampled` rows, each scaled to the `population` rows they stand for, with
 *  its 95% interval (sample-estimate.ts). */
export function scaledCounts<C extends { count: number }>(items: C[], sampled: number, population: number): (C & { estimate?: { low: number; high: number } })[] {
  if (population <= sampled) return items;
  return items.map((item) => {
    const e = scaleCount(item.count, sampled, population);
    return { ...item, count: e.value, estimate: { low: e.low, high: e.high } };
  });
}
