"use client";
// The chart a view asks for, with its defaults settled, and the request that draws it. The
// Chart tab and the explorer's API panel both call this: the hints it fetches (the text fields'
// numbers of values, a date field's range) are shared through the query cache.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { histogramQuery, summaryQuery, type DatastoreField } from "@/lib/api-client";
import type { ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import type { ApiView } from "../api-panel";
import { needsHint, resolveChart, type ResolvedChart } from "./chart-fields";
import { chartCall, distinctRequest, rangeRequest, type ChartCall } from "./chart-request";

export type ChartPlan = {
  /** null until the resource's fields are known. */
  chart: ResolvedChart | null;
  /** null while a default still waits on its hint, or when there is nothing to draw. */
  call: ChartCall | null;
  /** The call for the API panel. */
  api: ApiView | null;
};

/** `fields`: the resource's fields (undefined while they load); `enabled`: the Chart tab shows. */
export function useChartPlan(view: ViewState, fields: DatastoreField[] | undefined, enabled: boolean): ChartPlan {
  const { session, ready } = useToken();
  const known = fields ?? [];
  const need = enabled && fields ? needsHint(view.chart, known) : null;
  const x = resolveChart(view.chart, known).x;

  const distinct = useQuery({
    ...summaryQuery(session, distinctRequest(view.resource_id ?? "", known)),
    enabled: ready && need === "distinct",
  });
  const range = useQuery({ ...histogramQuery(session, rangeRequest(view, x ?? "")), enabled: ready && need === "range" && x !== null });

  // a failed hint leaves the plain default (the first text field, months), never no chart
  const waiting = (need === "distinct" && distinct.isPending) || (need === "range" && x !== null && range.isPending);
  const summary = distinct.data;
  const { min, max } = range.data ?? {};
  return useMemo(() => {
    if (!fields || !enabled) return { chart: null, call: null, api: null };
    const chart = resolveChart(view.chart, fields, {
      distinct: summary ? new Map(summary.fields.map((f) => [f.id, f.distinct])) : null,
      range: min !== undefined ? { min, max } : null,
    });
    const call = waiting ? null : chartCall(view, chart);
    return { chart, call, api: call && { call, returns: "api.returns.chart" } };
  }, [fields, enabled, view, summary, min, max, waiting]);
}
