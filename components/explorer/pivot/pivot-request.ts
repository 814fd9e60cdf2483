// The datastore_aggregate calls behind a pivot (the API's second form). With Columns: the cells
// (rows' keys and the column key, with totals over every matching row), the rows alone (their
// totals across all columns, the largest first when there are too many to show) and the columns
// alone. Without Columns the rows' call is the whole pivot. When the cells are more than one
// call returns and rows or columns are left out, the cells again, of the shown keys only. Pure.
import { metricName, type GroupKey, type GroupedRequest, type GroupedResult, type MetricSpec } from "@/lib/api-client";
import { fieldKey, toMatchRequest, type Filters, type PivotKey, type PivotMeasure, type PivotSettings, type ViewState } from "@/lib/view-state";
import type { ApiView } from "../api-panel";
import { nextPeriod } from "./pivot-chips";

/** Rows and columns shown at most: a screen's worth of columns, a long page of rows. */
export const ROW_LIMIT = 100;
export const COLUMN_LIMIT = 20;
/** The cells call reads every combination up to the API's limit on groups. */
export const CELL_LIMIT = 10_000;

export type PivotCalls = {
  /** Its `totals` are the grand total; without Columns its groups are the rows. */
  cells: GroupedRequest;
  rows: GroupedRequest | null;
  columns: GroupedRequest | null;
};

function groupKey(k: PivotKey): GroupKey {
  if (k.period) return { field: k.field, period: k.period };
  if (k.bin !== undefined) return { field: k.field, bin: k.bin };
  return k.field;
}

export function measureMetric(m: PivotMeasure): MetricSpec {
  return m.fn === "count" || !m.field ? { fn: "count" } : { fn: m.fn, field: m.field };
}

/** The name of the measure's value in each group. */
export function measureName(m: PivotMeasure): string {
  return metricName(measureMetric(m));
}

/** Whether a page of groups of `keys` holds those with the most rows (some key is grouped by
 *  value), rather than the first in key order (every key has a period or a bin). */
export function largestFirst(keys: PivotKey[]): boolean {
  return keys.some((k) => !k.period && k.bin === undefined);
}

/** A page of the groups of `keys` (the count read alongside the measure to pick the largest). */
function keyGroups(view: ViewState, keys: PivotKey[], measure: PivotMeasure, limit: number): GroupedRequest {
  const metric = measureMetric(measure);
  const byCount = largestFirst(keys);
  const req: GroupedRequest = {
    ...toMatchRequest(view),
    group_by: keys.map(groupKey),
    metrics: byCount && metric.fn !== "count" ? [metric, { fn: "count" }] : [metric],
  };
  if (byCount) req.order_by = "count desc";
  req.limit = limit;
  return req;
}

export function pivotCalls(view: ViewState, pivot: PivotSettings): PivotCalls {
  const rows = keyGroups(view, pivot.rows, pivot.measure, ROW_LIMIT);
  if (!pivot.columns) return { cells: { ...rows, totals: true }, rows: null, columns: null };
  const cells: GroupedRequest = {
    ...toMatchRequest(view),
    group_by: [...pivot.rows, pivot.columns].map(groupKey),
    metrics: [measureMetric(pivot.measure)],
    limit: CELL_LIMIT,
    totals: true,
  };
  return { cells, rows, columns: keyGroups(view, [pivot.columns], pivot.measure, COLUMN_LIMIT) };
}

/** The pivot's call for the API panel: its cells and grand total. */
export function pivotApi(calls: PivotCalls): ApiView {
  return {
    call: { action: "datastore_aggregate", body: calls.cells },
    returns: calls.columns ? "api.returns.pivotColumns" : "api.returns.pivotRows",
  };
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === "";

/** The rows whose key at `at` is one of `values` (a value list, or a range over periods or
 *  bins), empty ones included when shown. null: nothing to narrow by. */
function keyFilter(key: PivotKey, values: unknown[]): Filters | null {
  const field = fieldKey(key.field);
  const present = values.filter((v) => !isEmpty(v));
  const empty: Filters = { [field]: { x_empty: true } };
  let some: Filters | null = null;
  if (present.length && key.period) {
    const starts = present.map(String).sort();
    const end = nextPeriod(starts[starts.length - 1], key.period);
    if (end) some = { [field]: { gte: starts[0], lt: end } };
  } else if (present.length && key.bin !== undefined) {
    const lows = present.map(Number);
    some = { [field]: { gte: Math.min(...lows), lt: Number((Math.max(...lows) + key.bin).toPrecision(12)) } };
  } else if (present.length) {
    some = { [field]: present as (string | number | boolean)[] };
  }
  if (!some) return present.length ? null : empty;
  return present.length < values.length ? { $or: [some, empty] } : some;
}

/**
 * The cells call again, narrowed to the rows and columns shown, when the first one was cut
 * (more combinations than it returns) and some rows or columns were left out; null otherwise.
 */
export function shownCellsCall(calls: PivotCalls, pivot: PivotSettings, cells: GroupedResult, rows: GroupedResult, columns: GroupedResult): GroupedRequest | null {
  if (cells.others.groups === 0 || !pivot.columns) return null;
  const narrow: Filters[] = [];
  if (rows.others.groups > 0) {
    pivot.rows.forEach((key, i) => {
      const f = keyFilter(key, [...new Set(rows.groups.map((g) => g.key[i]))]);
      if (f) narrow.push(f);
    });
  }
  if (columns.others.groups > 0) {
    const f = keyFilter(pivot.columns, columns.groups.map((g) => g.key[0]));
    if (f) narrow.push(f);
  }
  if (narrow.length === 0) return null;
  const own = calls.cells.filters;
  const req: GroupedRequest = { ...calls.cells, filters: { $and: own && Object.keys(own).length ? [own, ...narrow] : narrow } };
  // the grand total came with the first call
  delete req.totals;
  return req;
}
