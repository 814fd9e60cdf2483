// The groups of datastore_aggregate as every engine computes them. An engine's GROUP BY returns
// rows of [keys…, rows, then two columns per measure (rows with a value, and the measure's
// sum/min/max/distinct count), min(_id)], its keys decoded by the engine; here groups that
// decode alike merge (NULL, "" and [] are all the null key) and get their values. And the plan
// of the read (aggregatePlan): exact, however long it takes (under the query timeout), unless
// the caller bounds its time (`budget_ms`): then exact when it fits, else over a sample spread
// through the table (spread-sample.ts), or its first rows when the search is so selective that
// the sample holds few of its rows, every count scaled to the whole match with its margin.
import type { AggregateGroup, AggregateMeasure, AggregateOutput, AggregateSpec } from "./engine";
import { rankGroups } from "./aggregate-spec";
import { DatastoreError } from "./errors";
import { scaleCount } from "./sample-estimate";
import { got, type Got, type Plan } from "./stepwise";

/** How hard a bounded aggregate (`budget_ms`) tries to be exact, on every engine; tests shrink
 *  these. The timings behind the sizes: docs/performance.md ("Figures behind the code's
 *  thresholds"). */
export interface AggregateBudget {
  /** Groups a bounded exact answer may have (JavaScript orders them all). */
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
  groups: 100_000,
  sampleRows: 50_000,
  fewRows: 1_000,
  firstRows: 100_000,
};

/** Groups an exact answer may hold in memory: past them, 409 (coarser keys, or a budget). */
export const MAX_GROUPS = 1_000_000;

/** A group as read: its key, rows, and per measure the rows with a value and the aggregate. */
export interface Merged {
  key: unknown[];
  count: number;
  _id: number;
  n: number[];
  agg: (number | string | null)[];
}

/** The reads an aggregate's plan asks an engine for, each grouped by mergeGroups. */
export interface AggregateReads {
  /** The exact groups within spec.budgetMs, or null when they did not fit. */
  exact(): Got<Merged[] | null>;
  /** The groups of the spread sample's rows and how many `_id`s it picked, or null when the
   *  table holds no more rows than a sample. */
  sample(): Got<{ groups: Merged[]; picked: number } | null>;
  /** The groups of the table's first `rows` rows, or undefined when it holds no more. */
  first(rows: number): Got<Merged[] | undefined>;
  /** The groups of every matching row. */
  all(): Got<Merged[]>;
  /** Every matching row as one group (the totals, when a distinct count cannot be summed up
   *  from the groups'). */
  overall(): Got<Merged>;
}

/**
 * `narrowed`: a filter or full text narrows the rows. Bounded, unnarrowed, the rows to group
 * are the whole table, so more than `wholeRows` of them is known at once not to fit the budget.
 */
export function* aggregatePlan(
  spec: AggregateSpec,
  table: { rowCount: number; narrowed: boolean; wholeRows: number },
  budget: AggregateBudget,
  reads: AggregateReads,
): Plan<AggregateOutput> {
  const { rowCount, narrowed } = table;
  if (spec.budgetMs === null) return yield* exact(yield* got(reads.all()), spec, reads);
  if (narrowed || rowCount <= table.wholeRows) {
    const groups = yield* got(reads.exact());
    if (groups !== null && groups.length <= budget.groups) return yield* exact(groups, spec, reads);
  }
  const sample = yield* got(reads.sample());
  if (!sample) return yield* exact(yield* got(reads.all()), spec, reads);
  let { groups, picked: scanned } = sample;
  if (narrowed && sum(groups) < budget.fewRows) {
    const first = yield* got(reads.first(budget.firstRows));
    // The first rows are the whole table: the answer is exact.
    if (first === undefined) return yield* exact(yield* got(reads.all()), spec, reads);
    if (sum(first) > sum(groups)) [groups, scanned] = [first, budget.firstRows];
  }
  const rows = sum(groups);
  const total = narrowed ? Math.max(rows, Math.round((rows * rowCount) / scanned)) : rowCount;
  const scale = (g: Merged) => scaleCount(g.count, scanned, rowCount);
  const out: AggregateOutput = {
    total,
    rows,
    partial: true,
    ...rankGroups(
      groups.map((g) => finish(g, spec, scale(g))),
      spec,
    ),
  };
  if (spec.totals) {
    // Distinct counts: the most any group saw, as at least that many are there.
    const all = fold(groups, spec.metrics, true);
    out.totals = { count: total, values: finish({ ...all, count: rows }, spec, { value: total, low: total, high: total }).values };
  }
  return out;
}

/** The rows the groups hold. */
export function sum(groups: { count: number }[]): number {
  return groups.reduce((n, g) => n + g.count, 0);
}

function* exact(merged: Merged[], spec: AggregateSpec, reads: AggregateReads): Plan<AggregateOutput> {
  const all = spec.totals && !mergeable(spec) ? yield* got(reads.overall()) : undefined;
  return exactOutput(merged, spec, all);
}

/** Whether groups read in parts (ranges of `_id`) add up to the whole's: not distinct counts. */
export function mergeable(spec: AggregateSpec): boolean {
  return spec.metrics.every((m) => m.fn !== "count_distinct");
}

/** The exact answer from every matching row's groups; `overall`: the totals, read apart when
 *  they cannot be summed up from the groups (distinct counts). */
export function exactOutput(merged: Merged[], spec: AggregateSpec, overall?: Merged): AggregateOutput {
  const rows = sum(merged);
  const out: AggregateOutput = { total: rows, rows, partial: false, ...rankGroups(merged.map((g) => finish(g, spec)), spec) };
  if (spec.totals) out.totals = { count: rows, values: finish(overall ?? fold(merged, spec.metrics, false), spec).values };
  return out;
}

/** Groups as one flat list of values (each group's keys, rows, `_id`, rows with a value per
 *  measure, aggregate per measure), as a read worker answers a part: a list of values crosses
 *  to another thread several times faster than as many objects as groups. */
export function flatGroups(groups: Merged[]): unknown[] {
  const out: unknown[] = [];
  for (const g of groups) out.push(...g.key, g.count, g._id, ...g.n, ...g.agg);
  return out;
}

/** Groups read in parts, each flat (flatGroups), merged into the whole's (mergeable specs only). */
export function mergeParts(parts: unknown[][], spec: AggregateSpec): Merged[] {
  const k = spec.keys.length;
  const m = spec.metrics.length;
  const width = k + 2 + 2 * m;
  const byKey = new Map<string, Merged>();
  for (const part of parts) {
    for (let at = 0; at < part.length; at += width) {
      const g: Merged = {
        key: part.slice(at, at + k),
        count: part[at + k] as number,
        _id: part[at + k + 1] as number,
        n: part.slice(at + k + 2, at + k + 2 + m) as number[],
        agg: part.slice(at + k + 2 + m, at + width) as Merged["agg"],
      };
      const mapKey = JSON.stringify(g.key);
      const seen = byKey.get(mapKey);
      if (seen) add(seen, g, spec);
      else byKey.set(mapKey, g);
    }
  }
  return [...byKey.values()];
}

/** The groups summed up into one (the totals). */
function fold(groups: Merged[], metrics: AggregateMeasure[], distinctAtLeast: boolean): Merged {
  const all: Merged = { key: [], count: 0, _id: Infinity, n: metrics.map(() => 0), agg: metrics.map(() => null) };
  for (const g of groups) {
    all.count += g.count;
    all._id = Math.min(all._id, g._id);
    metrics.forEach((m, i) => {
      all.n[i] += g.n[i];
      all.agg[i] = combine(m, all.agg[i], g.agg[i], distinctAtLeast);
    });
  }
  return all;
}

/** A group's measures; `estimate`: its count scaled from a sample (sums scale with it). */
function finish(g: Merged, spec: AggregateSpec, estimate?: { value: number; low: number; high: number }): AggregateGroup {
  const factor = estimate && g.count > 0 ? estimate.value / g.count : 1;
  const count = estimate ? estimate.value : g.count;
  const values: AggregateGroup["values"] = {};
  spec.metrics.forEach((m, i) => {
    const n = g.n[i];
    const agg = g.agg[i];
    if (m.fn === "count") values[m.name] = count;
    else if (m.fn === "count_distinct") values[m.name] = Number(agg ?? 0);
    else if (n === 0 || agg === null) values[m.name] = null;
    else if (m.fn === "avg") values[m.name] = Number(agg) / n;
    else if (m.fn === "sum") values[m.name] = Number(agg) * factor;
    else values[m.name] = agg;
  });
  const out: AggregateGroup = { key: g.key, count, values, _id: g._id };
  if (estimate) out.estimate = { low: estimate.low, high: estimate.high };
  return out;
}

function combine(m: AggregateMeasure, a: number | string | null, b: number | string | null, distinctAtLeast = true): number | string | null {
  if (a === null) return b;
  if (b === null) return a;
  switch (m.fn) {
    case "min":
      return b < a ? b : a;
    case "max":
      return b > a ? b : a;
    case "count_distinct":
      // Distinct values of two parts cannot be added up (they may share values); engines group
      // blank keys as one so that no group comes in parts, and the totals read their own.
      return distinctAtLeast ? Math.max(Number(a), Number(b)) : Number(a) + Number(b);
    default:
      return Number(a) + Number(b);
  }
}

/** How a measure's aggregate column reads: a date's min or max as its text, else a number
 *  (engines may send counts and sums as text: int8, numeric). */
export function measureDecoder(time: boolean): (v: unknown) => number | string | null {
  return time ? (v) => (v === null ? null : String(v)) : (v) => (v === null ? null : Number(v));
}

/** Decodes each row's keys (`decode`, one per key) and merges the groups that decode alike.
 *  `measures`: how each measure's aggregate column reads (measureDecoder). Rows with the same
 *  keys as read (a group again from another span of a part) are added up first and their keys
 *  decoded once: decoding and keying a row costs more than adding it up. */
export function mergeGroups(rows: Iterable<unknown[]>, decode: ((v: unknown) => unknown)[], spec: AggregateSpec, measures: ((v: unknown) => number | string | null)[]): Merged[] {
  const n = decode.length;
  const m = spec.metrics.length;
  // Nested by key as read: a Map tells 1 from "1" and NULL from "", which may decode alike.
  const byRaw = new Map<unknown, unknown>();
  const read: Merged[] = [];
  for (const row of rows) {
    let level = byRaw;
    for (let i = 0; i < n - 1; i++) {
      let next = level.get(row[i]) as Map<unknown, unknown> | undefined;
      if (!next) level.set(row[i], (next = new Map()));
      level = next;
    }
    const count = Number(row[n]);
    const id = Number(row[n + 1 + 2 * m]);
    const seen = level.get(row[n - 1]) as Merged | undefined;
    if (seen) {
      seen.count += count;
      seen._id = Math.min(seen._id, id);
      for (let i = 0; i < m; i++) {
        seen.n[i] += Number(row[n + 1 + 2 * i]);
        seen.agg[i] = combine(spec.metrics[i], seen.agg[i], measures[i](row[n + 2 + 2 * i]));
      }
      continue;
    }
    // Raw keys that decode alike count once below; this bounds the memory meanwhile.
    if (read.length === 2 * MAX_GROUPS) throw tooManyGroups();
    const group: Merged = { key: row, count, _id: id, n: [], agg: [] };
    for (let i = 0; i < m; i++) {
      group.n.push(Number(row[n + 1 + 2 * i]));
      group.agg.push(measures[i](row[n + 2 + 2 * i]));
    }
    level.set(row[n - 1], group);
    read.push(group);
  }
  const byKey = new Map<unknown, Merged>();
  for (const group of read) {
    const key = decode.map((d, i) => d(group.key[i]));
    group.key = key;
    const mapKey = n === 1 && (key[0] === null || typeof key[0] !== "object") ? key[0] : JSON.stringify(key);
    const seen = byKey.get(mapKey);
    if (seen) add(seen, group, spec);
    else if (byKey.size === MAX_GROUPS) throw tooManyGroups();
    else byKey.set(mapKey, group);
  }
  return [...byKey.values()];
}

function tooManyGroups(): DatastoreError {
  return DatastoreError.field("group_by", `more than ${MAX_GROUPS.toLocaleString("en-US")} groups: group by fewer fields, or by a period or a bin`);
}

/** Adds group `g`'s rows and measures to `into`'s. */
function add(into: Merged, g: Merged, spec: AggregateSpec): void {
  into.count += g.count;
  into._id = Math.min(into._id, g._id);
  spec.metrics.forEach((m, i) => {
    into.n[i] += g.n[i];
    into.agg[i] = combine(m, into.agg[i], g.agg[i]);
  });
}
