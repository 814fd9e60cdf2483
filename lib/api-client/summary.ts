// datastore_summary (our extension): every field of the rows a search matches, for the
// Summary tab. Shapes as docs/api.md "Actions" documents them.
import { queryOptions } from "@tanstack/react-query";
import type { MatchRequest } from "@/lib/view-state";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";
import type { HistogramBin } from "./types";

export type SummaryField = {
  id: string;
  type: string;
  /** Rows where the value is empty (NULL or ""), among `rows`. */
  empty: number;
  distinct: number;
  distinct_estimated: boolean;
  /** Text, yes/no and other non-numeric values: the most common ones. */
  top?: { value: unknown; count: number }[];
  /** Numbers, dates and timestamps. */
  min?: number | string | null;
  max?: number | string | null;
  bins?: HistogramBin[];
};

export type SummaryResult = {
  resource_id: string;
  /** Rows the search matches (may be estimated on big tables). */
  total: number;
  /** Rows the figures were computed over: `total`, or a sample when `partial` (its counts
   *  then scaled to `total`). */
  rows: number;
  partial: boolean;
  fields: SummaryField[];
};

export type SummaryRequest = MatchRequest & { fields?: string[]; top?: number; bins?: number; budget_ms?: number };

export function summaryQuery(s: Session, req: SummaryRequest) {
  return queryOptions({
    queryKey: [...queryKeys.all(s), "datastore_summary", req] as const,
    queryFn: ({ signal }) => callAction<SummaryResult>("datastore_summary", req, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}
