// The one request behind a chart, built from the view (search, filters, chart settings): the
// chart fetches it and the API panel shows it, so what a program gets is what the chart drew.
import type { AggregateRequest, DatastoreField, HistogramRequest, SummaryRequest } from "@/lib/api-client";
import { fieldKey, toMatchRequest, type Filters, type MatchRequest, type ViewState } from "@/lib/view-state";
import { barCandidates, resolveChart, type ChartHints, type ResolvedChart } from "./chart-fields";

/** Bars past this many values are counted in "and N more values". */
export const BAR_LIMIT = 30;
/** Points of a line: 13 years of days; a finer series is cut (and says so). */
export const LINE_LIMIT = 5_000;
/** Rows a scatter plot reads: about this many, spread evenly through the whole match
 *  (datastore_search's `sample`), not its first rows. */
export const SCATTER_SAMPLE = 2_000;
export const HISTOGRAM_BINS = 30;

export type ScatterRequest = MatchRequest & {
  filters: Filters;
  fields: string[];
  sample: number;
  include_total: true;
};

export type ChartCall =
  | { action: "datastore_aggregate"; body: AggregateRequest }
  | { action: "datastore_search"; body: ScatterRequest }
  | { action: "datastore_histogram"; body: HistogramRequest };

/** The view's filters and, ANDed, "these fields are not empty". */
export function withValues(filters: Filters, fields: string[]): Filters {
  const extra: Filters = {};
  for (const f of fields) extra[fieldKey(f)] = { x_empty: false };
  const clash = Object.keys(extra).some((k) => Object.hasOwn(filters, k));
  if (!clash) return { ...filters, ...extra };
  return { $and: [filters, extra] };
}

export function rangeRequest(view: ViewState, field: string): HistogramRequest {
  return { ...toMatchRequest(view), field, bins: HISTOGRAM_BINS };
}

/** The text fields' numbers of values over the whole resource (not the search, so the default
 *  stays put while the search changes). Only to pick a default: a quick estimate will do. */
export function distinctRequest(resourceId: string, fields: DatastoreField[]): SummaryRequest {
  return { resource_id: resourceId, fields: barCandidates(fields), top: 1, bins: 1, budget_ms: DISTINCT_BUDGET_MS };
}

const DISTINCT_BUDGET_MS = 500;

export function chartCall(view: ViewState, chart: ResolvedChart): ChartCall | null {
  const { type, x, y, agg, period } = chart;
  if (!view.resource_id || !x) return null;
  const match = toMatchRequest(view);
  switch (type) {
    case "bar":
    case "line": {
      const body: AggregateRequest = { ...match, group_by: x };
      if (type === "line" && period) body.period = period;
      body.metric = agg;
      if (agg !== "count" && y) body.field = y;
      body.limit = type === "bar" ? BAR_LIMIT : LINE_LIMIT;
      return { action: "datastore_aggregate", body };
    }
    case "scatter": {
      if (!y) return null;
      const pair = x === y ? [x] : [x, y];
      return {
        action: "datastore_search",
        body: {
          ...match,
          filters: withValues(match.filters ?? {}, pair),
          fields: ["_id", ...pair],
          sample: SCATTER_SAMPLE,
          include_total: true,
        },
      };
    }
    case "histogram":
      return { action: "datastore_histogram", body: rangeRequest(view, x) };
  }
}

/** The chart's request for a view, with the defaults the hints allow. */
export function chartRequest(view: ViewState, fields: DatastoreField[], hints?: ChartHints): ChartCall | null {
  return chartCall(view, resolveChart(view.chart, fields, hints));
}
