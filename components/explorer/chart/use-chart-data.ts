"use client";
// Fetches a chart's call with the query options of its action, so its result is shared with
// anything else asking the same (the line's range and the histogram are one request).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  aggregateQuery,
  callAction,
  histogramQuery,
  noRetryOnClientErrors,
  queryKeys,
  type AggregateRequest,
  type HistogramRequest,
  type SearchResult,
  type Session,
} from "@/lib/api-client";
import { useToken } from "@/components/token/token-provider";
import type { ChartData } from "./chart-numbers";
import type { ChartCall, ScatterRequest } from "./chart-request";

function scatterQuery(s: Session, req: ScatterRequest) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_search", req] as const,
    queryFn: ({ signal }) => callAction<SearchResult>("datastore_search", req, s, signal),
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}

// stand-ins for the calls not made (their queries are disabled)
const NO_AGGREGATE: AggregateRequest = { resource_id: "", group_by: "" };
const NO_HISTOGRAM: HistogramRequest = { resource_id: "", field: "", bins: 1 };
const NO_SCATTER: ScatterRequest = { resource_id: "", filters: {}, fields: [], sample: 1, include_total: true };

export function useChartData(call: ChartCall | null) {
  const { session, ready } = useToken();
  const aggregate = useQuery({
    ...aggregateQuery(session, call?.action === "datastore_aggregate" ? call.body : NO_AGGREGATE),
    enabled: ready && call?.action === "datastore_aggregate",
  });
  const histogram = useQuery({
    ...histogramQuery(session, call?.action === "datastore_histogram" ? call.body : NO_HISTOGRAM),
    enabled: ready && call?.action === "datastore_histogram",
  });
  const scatter = useQuery({
    ...scatterQuery(session, call?.action === "datastore_search" ? call.body : NO_SCATTER),
    enabled: ready && call?.action === "datastore_search",
  });
  const action = call?.action;
  const active = action === "datastore_aggregate" ? aggregate : action === "datastore_histogram" ? histogram : action ? scatter : null;
  // one object per result, so the drawing effect runs when the numbers change, not every render
  const data = useMemo((): ChartData | undefined => {
    if (action === "datastore_aggregate") return aggregate.data && { kind: "aggregate", result: aggregate.data };
    if (action === "datastore_histogram") return histogram.data && { kind: "histogram", result: histogram.data };
    if (action === "datastore_search") return scatter.data && { kind: "scatter", result: scatter.data };
    return undefined;
  }, [action, aggregate.data, histogram.data, scatter.data]);
  return {
    data,
    error: active?.error ?? null,
    fetching: active?.isFetching ?? false,
    refetch: () => void active?.refetch(),
  };
}
