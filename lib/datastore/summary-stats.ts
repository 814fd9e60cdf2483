// The figures of one field in a summary (datastore_summary), from the values of the rows an
// engine read: counts per distinct value (a Tally), then empties, distinct values, the most
// common values, or min, max and bins with histogram-axis.ts's round edges. Pure and
// engine-independent: every engine tallies its rows and hands them here.
import type { FieldSummary } from "./engine";
import { axisFor, epochSeconds, index, monthNumber, scaleOf, type Axis, type Scale } from "./histogram-axis";
import { fromStorage, isArrayType, type Stored, type TypeName } from "./types";

/** The values of one field in the rows read, as stored: empties apart, the rest counted per value. */
export class Tally {
  empty = 0;
  readonly counts = new Map<Stored, number>();
  /** An empty array is stored as "[]" and is empty, as filter x_empty says. */
  private readonly emptyArray: boolean;

  constructor(readonly type: TypeName) {
    this.emptyArray = isArrayType(type);
  }

  add(v: Stored): void {
    if (v === null || v === "" || (this.emptyArray && v === "[]")) this.empty++;
    else this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
  }
}

export interface Coverage {
  /** The rows tallied. */
  rows: number;
  /** The rows matching the search (counted or estimated). */
  total: number;
  /** False when the rows are a sample of the matching rows. */
  exact: boolean;
  top: number;
  bins: number;
}

export function summarizeField(id: string, tally: Tally, cover: Coverage): FieldSummary {
  const type = tally.type;
  const d = tally.counts.size;
  const estimated = !cover.exact;
  const nonEmpty = cover.rows - tally.empty;
  const out: FieldSummary = {
    id,
    type,
    empty: tally.empty,
    distinct: estimated ? estimateDistinct(tally.counts, Math.round((cover.total * nonEmpty) / Math.max(1, cover.rows))) : d,
    distinctEstimated: estimated,
  };
  const scale = scaleOf(type);
  if (scale) return { ...out, ...spread(tally.counts, scale, cover.bins) };
  if (type === "json" || isArrayType(type)) return out;
  return { ...out, top: topValues(tally.counts, cover.top).map(([v, count]) => ({ value: fromStorage(type, v), count })) };
}

/**
 * Distinct values among `population` values from a sample's counts: Haas and Stokes' Duj1, as
 * PostgreSQL's ANALYZE estimates them: n·d / (n − f1 + f1·n/N), with n values sampled, d of
 * them distinct, f1 seen once. Values seen once hint at unseen ones: none, and d is all there
 * is; all (a key), and every value differs.
 */
export function estimateDistinct(counts: Map<Stored, number>, population: number): number {
  let n = 0;
  let f1 = 0;
  for (const k of counts.values()) {
    n += k;
    if (k === 1) f1++;
  }
  const d = counts.size;
  if (n === 0 || population <= n) return d;
  return Math.max(d, Math.min(population, Math.round((n * d) / (n - f1 + (f1 * n) / population))));
}

function compare(a: Stored, b: Stored): number {
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** The `k` most common values, count descending then value; kept in a small sorted list, so a
 *  field of all-different values costs one comparison per value rather than a sort. */
export function topValues(counts: Map<Stored, number>, k: number): [Stored, number][] {
  const best: [Stored, number][] = [];
  const before = (a: [Stored, number], b: [Stored, number]) => a[1] > b[1] || (a[1] === b[1] && compare(a[0], b[0]) < 0);
  for (const entry of counts) {
    if (best.length === k && !before(entry, best[k - 1])) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(best[mid], entry)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, entry);
    if (best.length > k) best.pop();
  }
  return best;
}

/** A value's position on an axis (histogram-axis.ts): the number, or its ISO text's seconds or months. */
const POSITION: Record<Axis["unit"], (v: Stored) => number> = {
  number: (v) => Number(v),
  second: (v) => epochSeconds(String(v)),
  month: (v) => monthNumber(String(v)),
};

/** Min, max and the count per bin, the bins as datastore_histogram makes them. */
function spread(counts: Map<Stored, number>, scale: Scale, bins: number): Pick<FieldSummary, "min" | "max" | "bins"> {
  let min: Stored = null;
  let max: Stored = null;
  for (const v of counts.keys()) {
    if (min === null || compare(v, min) < 0) min = v;
    if (max === null || compare(v, max) > 0) max = v;
  }
  if (min === null || max === null) return { min: null, max: null, bins: [] };
  const lo = typeof min === "bigint" ? Number(min) : min;
  const hi = typeof max === "bigint" ? Number(max) : max;
  const axis = axisFor(scale, lo, hi, bins);
  const last = axis.bins.length - 1;
  const tallies = axis.bins.map(() => 0);
  const position = POSITION[axis.unit];
  for (const [v, n] of counts) {
    const i = last === 0 ? 0 : Math.max(0, Math.min(last, index(axis, position(v)) - axis.first));
    tallies[i] += n;
  }
  return { min: lo, max: hi, bins: axis.bins.map((edges, i) => ({ ...edges, count: tallies[i] })) };
}
