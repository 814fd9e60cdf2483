// How a summary (datastore_summary) reads its rows, on every engine: exact by default, every
// matching row read (under the query timeout). Only when the caller bounds the time
// (`budget_ms`): exact when all matching rows fit a row and time budget; otherwise over a
// sample spread through the table (spread-sample.ts), or the first rows when the sample
// matches few, and `partial`, every count scaled to the whole match with its margin. Rows are
// read once and every field is tallied in the same pass (summary-stats.ts). An engine only
// says how it reads: its statements, its time budget, its count.
import { scaledCounts } from "./bounded-read";
import type { FieldSummary, SummaryOptions, SummaryOutput } from "./engine";
import { scaleCount } from "./sample-estimate";
import { summarizeField, Tally } from "./summary-stats";
import { got, type Got, type Plan } from "./stepwise";
import type { Stored, TypeName } from "./types";

/** The bounds of a summary under a caller's budget (tests pass smaller ones). */
export const SUMMARY_LIMITS = {
  /** Time for reading every matching row (the exact answer), and for counting them, when the
   *  caller's budget_ms does not say. */
  budgetMs: 120,
  /** Matching rows the exact answer may read; past them the summary is sampled. */
  exactRows: 50_000,
  /** Rows in the spread sample (fewer for wide tables: SAMPLE_CELLS). */
  sampleRows: 10_000,
  /** A sample matching fewer rows than this gives way to the first matching rows… */
  minMatches: 1_000,
  /** …among the first rows by `_id` (as value counts read them). */
  firstRows: 100_000,
  /** Rows an exact summary reads at a time where rows come whole (PostgreSQL), so that a table
   *  of millions is never held in memory at once. */
  chunkRows: 50_000,
};
export type SummaryLimits = typeof SUMMARY_LIMITS;

/** Values a sample may read: wide tables get fewer rows, never under MIN_SAMPLE_ROWS. */
const SAMPLE_CELLS = 200_000;
const MIN_SAMPLE_ROWS = 1_000;

/** Rows read, and each field's values in them. */
export interface Tallied {
  rows: number;
  tallies: Tally[];
}

/** Tallies rows of the fields' values as stored (`stored` turns an engine's value into that);
 *  `into`: rows tallied before (a read in chunks), added to. */
export function tally(types: TypeName[], rows: Iterable<unknown[]>, stored?: ((v: unknown) => Stored)[], into?: Tallied): Tallied {
  const tallies = into?.tallies ?? types.map((t) => new Tally(t));
  let n = into?.rows ?? 0;
  for (const row of rows) {
    n++;
    for (let j = 0; j < tallies.length; j++) tallies[j].add(stored ? stored[j](row[j]) : (row[j] as Stored));
  }
  return { rows: n, tallies };
}

/** A spread sample's reads. */
export interface SampleReads {
  /** The matching rows among the picked ones. */
  read(): Got<Tallied>;
  /** The picked rows present in the table (picks may hit gaps). */
  present(): Got<number>;
}

/** The reads a summary's plan asks an engine for. */
export interface SummaryReads {
  /** The matching rows when counting them fits the budget (the catalog, an index), else null. */
  counted(): Got<number | null>;
  /** A spread sample of `rows` rows, or null when the table holds no more (read them all). */
  sample(rows: number): Got<SampleReads | null>;
  /** At most `cap` matching rows within limits.budgetMs, or null when they did not fit. */
  capped(cap: number): Got<Tallied | null>;
  /** Every matching row. */
  all(): Got<Tallied>;
  /** The matching rows among the first `rows` of the table, or undefined when it holds no more. */
  first(rows: number): Got<Tallied | undefined>;
}

export function* summaryPlan(
  ids: string[],
  options: SummaryOptions,
  table: { rowCount: number; narrowed: boolean },
  limits: SummaryLimits,
  reads: SummaryReads,
): Plan<SummaryOutput> {
  const answer = (read: Tallied, total: number, exact: boolean): SummaryOutput => ({
    total,
    rows: read.rows,
    partial: !exact,
    fields: ids.map((id, j) => {
      const f = summarizeField(id, read.tallies[j], { rows: read.rows, total, exact, top: options.top, bins: options.bins });
      return exact ? f : scaled(f, read.rows, total);
    }),
  });
  if (options.budgetMs === undefined || options.budgetMs === null) return exactSummary(ids, options, yield* got(reads.all()));
  const { rowCount, narrowed } = table;
  const counted = yield* got(reads.counted());
  const sample = yield* got(reads.sample(Math.min(limits.sampleRows, Math.max(MIN_SAMPLE_ROWS, Math.floor(SAMPLE_CELLS / Math.max(1, ids.length))))));
  if (sample === null) {
    // No more rows than a sample: read them all, whatever the budget.
    const all = yield* got(reads.all());
    return answer(all, all.rows, true);
  }
  let present: number | null = null;
  /** Matching rows in the table, from the sample's share of them. */
  function* fromSample(matched: number): Plan<number> {
    present ??= yield* got(sample!.present());
    return present > 0 ? Math.round((matched * rowCount) / present) : 0;
  }

  let sampled: Tallied | null = null;
  let expected = counted;
  if (expected === null && rowCount > limits.exactRows) {
    // Not counted, on a big table: the sample tells first whether every match could fit.
    sampled = yield* got(sample.read());
    expected = yield* fromSample(sampled.rows);
  }
  let overflowed = false;
  if (expected === null || expected <= limits.exactRows) {
    const all = yield* got(reads.capped(limits.exactRows + 1));
    if (all !== null) {
      if (all.rows <= limits.exactRows) return answer(all, all.rows, true);
      overflowed = true;
    }
  }

  sampled ??= yield* got(sample.read());
  let used = sampled;
  let firstEstimate = 0;
  if (sampled.rows < limits.minMatches && narrowed) {
    const first = yield* got(reads.first(limits.firstRows));
    if (first === undefined) {
      const all = yield* got(reads.all());
      return answer(all, all.rows, true);
    }
    firstEstimate = Math.round((first.rows * rowCount) / limits.firstRows);
    if (first.rows > sampled.rows) used = first;
  }
  const total = counted ?? (sampled.rows > 0 ? yield* fromSample(sampled.rows) : firstEstimate);
  return answer(used, Math.max(total, used.rows, overflowed ? limits.exactRows + 1 : 0), false);
}

/** A field's counts from a sample of `rows` matching rows, scaled to the `total` matching. */
function scaled(f: FieldSummary, rows: number, total: number): FieldSummary {
  const empty = scaleCount(f.empty, rows, total);
  const out: FieldSummary = { ...f, empty: empty.value };
  if (total > rows) out.emptyEstimate = { low: empty.low, high: empty.high };
  if (f.top) out.top = scaledCounts(f.top, rows, total);
  if (f.bins) out.bins = scaledCounts(f.bins, rows, total);
  return out;
}

/** The exact summary of every matching row, tallied. */
export function exactSummary(ids: string[], options: SummaryOptions, read: Tallied): SummaryOutput {
  return {
    total: read.rows,
    rows: read.rows,
    partial: false,
    fields: ids.map((id, j) => summarizeField(id, read.tallies[j], { rows: read.rows, total: read.rows, exact: true, top: options.top, bins: options.bins })),
  };
}

/** The tallies of parts of the rows (read side by side, then sent between threads, which keeps
 *  their maps but not their class) added up. */
export function mergeTallies(parts: Tallied[], types: TypeName[]): Tallied {
  const tallies = types.map((t) => new Tally(t));
  for (const part of parts) {
    part.tallies.forEach((from, j) => {
      const into = tallies[j];
      into.empty += from.empty;
      for (const [v, n] of from.counts) into.counts.set(v, (into.counts.get(v) ?? 0) + n);
    });
  }
  return { rows: parts.reduce((n, p) => n + p.rows, 0), tallies };
}
