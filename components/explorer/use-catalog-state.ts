"use client";
// The landing page's state in the URL: `find` (words), `order_by` (resource_search's), `page`,
// `all=1` (resources without a data table too), `inside=1` (every table searched for the words).
// A bad value degrades to its default. Written with the History API, as use-view-state.ts does.
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { CATALOG_ORDERS, type CatalogOrder } from "@/lib/api-client/catalog";

/** Resources a page of the landing page shows. */
export const CATALOG_PAGE = 24;

export type CatalogState = { q: string; order: CatalogOrder; page: number; all: boolean; inside: boolean };

export function parseCatalogState(params: URLSearchParams): CatalogState {
  const order = params.get("order_by");
  const page = Number(params.get("page"));
  return {
    q: params.get("find") ?? "",
    order: CATALOG_ORDERS.includes(order as CatalogOrder) ? (order as CatalogOrder) : "name",
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    all: params.get("all") === "1",
    inside: params.get("inside") === "1" && Boolean(params.get("find")?.trim()),
  };
}

export function serializeCatalogState(s: CatalogState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.q) out.set("find", s.q);
  if (s.order !== "name") out.set("order_by", s.order);
  if (s.page > 1) out.set("page", String(s.page));
  if (s.all) out.set("all", "1");
  if (s.inside && s.q.trim()) out.set("inside", "1");
  return out;
}

export function useCatalogState(): [CatalogState, (patch: Partial<CatalogState>, options?: { replace?: boolean }) => void] {
  const params = useSearchParams();
  const key = params.toString();
  const fromUrl = useMemo(() => parseCatalogState(new URLSearchParams(key)), [key]);
  const [pending, setPending] = useState<{ from: string; state: CatalogState } | null>(null);
  if (pending && pending.from !== key) setPending(null);
  const state = pending?.from === key ? pending.state : fromUrl;

  const set = useCallback(
    (patch: Partial<CatalogState>, options?: { replace?: boolean }) => {
      const next = { ...state, ...patch };
      const query = serializeCatalogState(next).toString();
      const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
      if (url === `${window.location.pathname}${window.location.search}`) return;
      setPending({ from: key, state: next });
      if (options?.replace) window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [state, key],
  );
  return [state, set];
}
