// datastore_aggregate (our extension): rows grouped by one or two fields (a date by period, a
// number by bin), counted or summed on the server, for the Chart and Map tabs.
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
