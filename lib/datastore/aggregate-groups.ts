// The groups of datastore_aggregate as every engine computes them. An engine's GROUP BY returns
// rows of [keys…, rows, rows with a number, the metric's sum/min/max, min(_id)], its keys decoded
// by the engine; here groups that decode alike merge (NULL, "" and [] are all the null key) and
// get their value. And the plan of the read (aggregatePlan): exact when it fits the time budget,
// else over a sample spread through the table (spread-sample.ts), or its first rows when the
// search is so selective that the sample holds few of its rows, and `partial`.
import type { AggregateGroup, AggregateOutput, AggregateSpec } from "./engine";
import { rankGroups } from "./aggregate-spec";
import { got, type Got, type Plan } from "./stepwise";

/** How hard an aggregate tries to be exact, on every engine; tests shrink these. The timings
 *  behind the sizes: docs/performance.md ("Figures behind the code's thresholds"). */
export interface AggregateBudget {
  /** Time for the exact answer. */
  exactMs: number;
  /** Groups an exact answer may have (JavaScript orders them all). */
  groups: number;
  /** Rows of the spread sample: enough for a chart's shape, few enough to read well within
   *  the answer's time. */
  sampleRows: number;
  /** Fewer matching sampled rows than this try the first rows of the table as well. */
  fewRows: number;
  /** The first rows read then. */
  firstRows: number;
}

export const AGGREGATE_BUDGET: AggregateBudget = {
  exactMs: 150,
  groups: 100_000,
  sampleRows: 50_000,
  fewRows: 1_000,
  firstRows: 100_000,
};

/** The reads an aggregate's plan asks an engine for, each grouped by mergeGroups. */
export interface AggregateReads {
  /** The exact groups within budget.exactMs, or null when they did not fit. */
  exact(): Got<AggregateGroup[] | null>;
  /** The groups of the spread sample's rows and how many `_id`s it picked, or null when the
   *  table holds no more rows than a sample. */
  sample(): Got<{ groups: AggregateGroup[]; picked: number } | null>;
  /** The groups of the table's first `rows` rows, or undefined when it holds no more. */
  first(rows: number): Got<AggregateGroup[] | undefined>;
  /** The groups of every matching row. */
  all(): Got<AggregateGroup[]>;
}

/**
 * `narrowed`: a filter or full text narrows the rows. Unnarrowed, the rows to group are the
 * whole table, so more than `wholeRows` of them is known at once not to fit the budget.
 */
export function* aggregatePlan(
  spec: AggregateSpec,
  table: { rowCount: number; narrowed: boolean; wholeRows: number },
  budget: AggregateBudget,
  reads: AggregateReads,
): Plan<AggregateOutput> {
  const { rowCount, narrowed } = table;
  if (narrowed || rowCount <= table.wholeRows) {
    const groups = yield* got(reads.exact());
    if (groups !== null && groups.length <= budget.groups) return exact(groups, spec);
  }
  const sample = yield* got(reads.sample());
  if (!sample) return exact(yield* got(reads.all()), spec);
  let { groups, picked: scanned } = sample;
  if (narrowed && sum(groups) < budget.fewRows) {
    const first = yield* got(reads.first(budget.firstRows));
    // The first rows are the whole table: the answer is exact.
    if (first === undefined) return exact(yield* got(reads.all()), spec);
    if (sum(first) > sum(groups)) [groups, scanned] = [first, budget.firstRows];
  }
  const rows = sum(groups);
  const total = narrowed ? Math.max(rows, Math.round((rows * rowCount) / scanned)) : rowCount;
  return { total, rows, partial: true, ...rankGroups(groups, spec) };
}

/** The rows the groups hold. */
export function sum(groups: AggregateGroup[]): number {
  return groups.reduce((n, g) => n + g.count, 0);
}

function exact(groups: AggregateGroup[], spec: AggregateSpec): AggregateOutput {
  const rows = sum(groups);
  return { total: rows, rows, partial: false, ...rankGroups(groups, spec) };
}

interface Acc {
  group: AggregateGroup;
  numbers: number; // rows with a number in the metric's field
  metric: number | null; // their total, min or max
}

/** Decodes each row's keys (`decode`, one per key) and merges the groups that decode alike,
 *  then computes each group's value. Counts may come as numbers or their text (int8). */
export function mergeGroups(rows: unknown[][], decode: ((v: unknown) => unknown)[], spec: AggregateSpec): AggregateGroup[] {
  const n = decode.length;
  const byKey = new Map<unknown, Acc>();
  for (const row of rows) {
    const key = decode.map((d, i) => d(row[i]));
    const count = Number(row[n]);
    const numbers = Number(row[n + 1]);
    const metric = row[n + 2] === null ? null : Number(row[n + 2]);
    const id = Number(row[n + 3]);
    const mapKey = n === 1 && (key[0] === null || typeof key[0] !== "object") ? key[0] : JSON.stringify(key);
    const seen = byKey.get(mapKey);
    if (!seen) {
      byKey.set(mapKey, { group: { key, count, value: null, _id: id }, numbers, metric });
      continue;
    }
    seen.group.count += count;
    seen.group._id = Math.min(seen.group._id, id);
    seen.numbers += numbers;
    if (metric !== null) seen.metric = seen.metric === null ? metric : combine(spec, seen.metric, metric);
  }
  return [...byKey.values()].map(({ group, numbers, metric }) => {
    group.value = spec.metric === "count" ? group.count : numbers === 0 ? null : spec.metric === "avg" ? metric! / numbers : metric;
    return group;
  });
}

function combine(spec: AggregateSpec, a: number, b: number): number {
  return spec.metric === "min" ? Math.min(a, b) : spec.metric === "max" ? Math.max(a, b) : a + b;
}
