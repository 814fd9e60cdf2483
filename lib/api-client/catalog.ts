// The catalog as the landing page and the picker ask for it: resource_search with `q`,
// `order_by`, paging and `has_table` (docs/api.md), and datastore_search_all's answer across
// every table. Keys hold the request, so equal questions share one cache entry.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";
import type { ResourceSearchResult } from "./types";

/** What the landing page sorts by: resource_search's `order_by`. */
export const CATALOG_ORDERS = ["name", "last_modified desc", "rows desc"] as const;
export type CatalogOrder = (typeof CATALOG_ORDERS)[number];

export type CatalogRequest = {
  q: string;
  order_by: CatalogOrder;
  offset: number;
  limit: number;
  /** Resources without a data table too. */
  all: boolean;
};

export type SearchAllResult = {
  results: { resource_id: string; name: string; total: number; records: Record<string, unknown>[] }[];
  partial: boolean;
  not_searched: string[];
};

export const catalogKeys = {
  page: (s: Session, req: CatalogRequest) => [...queryKeys.all(s), "resource_search", "page", req] as const,
  searchAll: (s: Session, q: string) => [...queryKeys.all(s), "datastore_search_all", q] as const,
};

export function catalogQuery(s: Session, req: CatalogRequest) {
  const params: Record<string, unknown> = { order_by: req.order_by, offset: req.offset, limit: req.limit };
  if (req.q.trim()) params.q = req.q.trim();
  if (!req.all) params.has_table = true;
  return queryOptions({
    queryKey: catalogKeys.page(s, req),
    queryFn: ({ signal }) => callAction<ResourceSearchResult>("resource_search", params, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
    placeholderData: keepPreviousData,
  });
}

/** Matches per table for `q`, three records each. */
export function searchAllQuery(s: Session, q: string) {
  return queryOptions({
    queryKey: catalogKeys.searchAll(s, q),
    queryFn: ({ signal }) => callAction<SearchAllResult>("datastore_search_all", { q, limit: 3 }, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}
