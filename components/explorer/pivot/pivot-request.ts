// The datastore_aggregate calls behind a pivot (the API's second form). With Columns: the cells
// (rows' keys and the column key, with totals over every matching row), the rows alone (their
// totals across all columns, the largest first when there are too many to show) and the columns
// alone. Without Columns the rows' call is the whole pivot. Pure.
import { metricName, type GroupKey, type GroupedRequest, type MetricSpec } from "@/lib/api-client";
import { toMatchRequest, type PivotKey, type PivotMeasure, type PivotSettings, type ViewState } from "@/lib/view-state";
import type { ApiView } from "../api-panel";

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

/** A page of the groups of `keys`: in key order when every key has a period or a bin, else the
 *  groups with the most rows (the count read alongside the measure for that). */
function keyGroups(view: ViewState, keys: PivotKey[], measure: PivotMeasure, limit: number): GroupedRequest {
  const metric = measureMetric(measure);
  const byCount = keys.some((k) => !k.period && k.bin === undefined);
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
    returns: calls.columns
      ? "the pivot's cells and its grand total (its row and column totals come from the same call grouped by the rows alone and by the columns alone)"
      : "the pivot's rows and its total",
  };
}
