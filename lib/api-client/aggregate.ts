// datastore_aggregate (our extension): rows grouped by one or two fields (a date by period, a
// number by bin), counted or summed on the server, for the Chart and Map tabs; its second form
// (several keys with their own period or bin, several measures, totals) for the Pivot tab.
import { queryOptions } from "@tanstack/react-query";
import type { MatchRequest, Period } from "@/lib/view-state";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";

export type AggregateMetric = "count" | "sum" | "avg" | "min" | "max";

export type AggregateRequest = MatchRequest & {
  group_by: string | string[];
  period?: Period;
  bin?: number;
  metric?: AggregateMetric;
  field?: string;
  limit?: number;
};

export type AggregateGroup = {
  /** One value per group_by field; null groups empty values. */
  key: unknown[];
  count: number;
  /** The metric (equal to count for count); null when the group has no numbers. */
  value: number | null;
  /** The smallest _id in the group. */
  _id: number;
};

export type AggregateResult = {
  resource_id: string;
  group_by: string[];
  period: Period | null;
  bin: number | null;
  metric: AggregateMetric;
  field: string | null;
  total: number;
  rows: number;
  partial: boolean;
  groups: AggregateGroup[];
  /** Groups past `limit`, and their rows. */
  others: { groups: number; count: number };
};

export function aggregateQuery(s: Session, req: AggregateRequest) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_aggregate", req] as const,
    queryFn: ({ signal }) => callAction<AggregateResult>("datastore_aggregate", req, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

/** A key of the second form: a field id, or a field with its own period or bin. */
export type GroupKey = string | { field: string; period?: Period; bin?: number };

export type MetricFn = AggregateMetric | "count_distinct";

/** A measure of the second form; its answer's name is `count` or `<fn>_<field>` unless named. */
export type MetricSpec = { fn: MetricFn; field?: string; name?: string };

/** datastore_aggregate's second form (docs/api.md): up to three keys, several measures,
 *  an order, a page of groups and totals over every matching row. */
export type GroupedRequest = MatchRequest & {
  group_by: GroupKey[];
  metrics: MetricSpec[];
  order_by?: string;
  limit?: number;
  offset?: number;
  totals?: boolean;
};

export type GroupedResult = {
  resource_id: string;
  group_by: { field: string; period?: Period; bin?: number }[];
  metrics: { name: string; fn: MetricFn; field?: string }[];
  total: number;
  groups: { key: unknown[]; values: Record<string, number | string | null> }[];
  others: { groups: number; count: number };
  totals?: { count: number; values: Record<string, number | string | null> };
  partial: boolean;
};

/** The default name of a measure in the answer. */
export function metricName(m: MetricSpec): string {
  return m.name ?? (m.fn === "count" ? "count" : `${m.fn}_${m.field}`);
}

export function groupedQuery(s: Session, req: GroupedRequest) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_aggregate", req] as const,
    queryFn: ({ signal }) => callAction<GroupedResult>("datastore_aggregate", req, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}
