// TanStack Query options per API call. Keys hold the request (so equal views share a cache
// entry) and an auth epoch that changes whenever the token does: never the token itself.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { TOTAL_ESTIMATION_THRESHOLD, type MatchRequest, type SearchRequest } from "@/lib/view-state";
import { ApiError } from "./errors";
import { callAction, type Auth } from "./fetch";
import type { HistogramResult, InfoResult, Resource, ResourceSearchResult, SearchResult, ValueCountsResult } from "./types";

/** The token to send plus a number that changes with it (the only auth part of a key). */
export type Session = Auth & { epoch: number };

const RESOURCE_LIST_LIMIT = 1000;

export const queryKeys = {
  all: (s: Session) => ["datastore", s.epoch] as const,
  resources: (s: Session, nameTerm: string) => [...queryKeys.all(s), "resource_search", nameTerm] as const,
  resource: (s: Session, id: string) => [...queryKeys.all(s), "resource_show", id] as const,
  info: (s: Session, id: string) => [...queryKeys.all(s), "datastore_info", id] as const,
  search: (s: Session, req: SearchRequest) => [...queryKeys.all(s), "datastore_search", req] as const,
  count: (s: Session, req: MatchRequest) => [...queryKeys.all(s), "count", req] as const,
  valueCounts: (s: Session, req: ValueCountsRequest) => [...queryKeys.all(s), "datastore_value_counts", req] as const,
  histogram: (s: Session, req: HistogramRequest) => [...queryKeys.all(s), "datastore_histogram", req] as const,
  whoami: (s: Session) => [...queryKeys.all(s), "datastore_whoami"] as const,
};

export function noRetryOnClientErrors(failureCount: number, error: Error) {
  if (error instanceof ApiError && error.kind !== "network" && error.kind !== "server") return false;
  return failureCount < 2;
}

/** All resources the session may see, or those whose name contains `nameTerm`. */
export function resourcesQuery(s: Session, nameTerm = "") {
  return queryOptions({
    queryKey: queryKeys.resources(s, nameTerm),
    queryFn: ({ signal }) =>
      callAction<ResourceSearchResult>(
        "resource_search",
        nameTerm ? { query: `name:${nameTerm}`, limit: RESOURCE_LIST_LIMIT } : { limit: RESOURCE_LIST_LIMIT },
        s,
        signal,
      ),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
    placeholderData: keepPreviousData,
  });
}

export function resourceQuery(s: Session, id: string) {
  return queryOptions({
    queryKey: queryKeys.resource(s, id),
    queryFn: ({ signal }) => callAction<Resource>("resource_show", { id }, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

export function infoQuery(s: Session, resourceId: string) {
  return queryOptions({
    queryKey: queryKeys.info(s, resourceId),
    queryFn: ({ signal }) => callAction<InfoResult>("datastore_info", { resource_id: resourceId }, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

export function searchQuery(s: Session, req: SearchRequest) {
  return queryOptions({
    queryKey: queryKeys.search(s, req),
    queryFn: ({ signal }) =>
      callAction<SearchResult>("datastore_search", { ...req, include_total: true }, s, signal),
    // while the next page loads, keep showing this one, but never another resource's rows
    // (or rows read with another token, or as of another moment: past rows never stand in for
    // current ones)
    placeholderData: (previous, previousQuery) => {
      const key = previousQuery?.queryKey;
      const before = key?.[3] as SearchRequest | undefined;
      return key && key[1] === s.epoch && before?.resource_id === req.resource_id && before?.as_of === req.as_of ? previous : undefined;
    },
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}

/** Number of matching rows only (limit 0): used to explain an empty result. Large ones may be
 *  estimated, as on the explorer's own searches. */
export function countQuery(s: Session, req: MatchRequest) {
  return queryOptions({
    queryKey: queryKeys.count(s, req),
    queryFn: async ({ signal }) => {
      const r = await callAction<SearchResult>(
        "datastore_search",
        { ...req, limit: 0, include_total: true, total_estimation_threshold: TOTAL_ESTIMATION_THRESHOLD },
        s,
        signal,
      );
      return { total: r.total ?? 0, estimated: Boolean(r.total_was_estimated) };
    },
    staleTime: 10_000,
    retry: noRetryOnClientErrors,
  });
}

export type ValueCountsRequest = MatchRequest & { field: string; limit: number };

export function valueCountsQuery(s: Session, req: ValueCountsRequest) {
  return queryOptions({
    queryKey: queryKeys.valueCounts(s, req),
    queryFn: ({ signal }) => callAction<ValueCountsResult>("datastore_value_counts", req, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

export type HistogramRequest = MatchRequest & { field: string; bins: number };

/** The spread of a number or date field; the signal cancels it when the editor moves on. */
export function histogramQuery(s: Session, req: HistogramRequest) {
  return queryOptions({
    queryKey: queryKeys.histogram(s, req),
    queryFn: ({ signal }) => callAction<HistogramResult>("datastore_histogram", req, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

export type Whoami = {
  scope: "read" | "write" | "admin" | null;
  name: string | null;
  /** The token's limits (null: none). */
  resources?: string[] | null;
  actions?: string[] | null;
};

/** What the session's token may do (datastore_whoami): which controls a page offers. */
export function whoamiQuery(s: Session) {
  return queryOptions({
    queryKey: queryKeys.whoami(s),
    queryFn: ({ signal }) => callAction<Whoami>("datastore_whoami", {}, s, signal),
    staleTime: 60_000,
    retry: noRetryOnClientErrors,
  });
}
