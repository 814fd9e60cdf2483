"use client";
// With no resource chosen: the catalog, a page at a time, found by words, sorted, without the
// resources that have no data table unless asked; or (a word typed) every table searched for it.
// Its state is in the URL (use-catalog-state.ts), so a reload or a link shows the same page.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { Resource } from "@/lib/api-client";
import { CATALOG_ORDERS, catalogQuery, type CatalogOrder } from "@/lib/api-client/catalog";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { ResourceOption } from "./resource-picker";
import { SavedViewsList } from "./saved-views-list";
import { SearchAllResults } from "./search-all-results";
import { CATALOG_PAGE, useCatalogState } from "./use-catalog-state";
import { useDebounced } from "./use-debounced";

const ORDER_LABEL = { name: "landing.sort.name", "last_modified desc": "landing.sort.modified", "rows desc": "landing.sort.rows" } as const;

export function Landing({ onSelect }: { onSelect: (r: Resource) => void }) {
  const t = useT();
  const { session, ready } = useToken();
  const [state, setState] = useCatalogState();
  const [draft, setDraft] = useState(state.q);
  const typed = useDebounced(draft, 300);
  useEffect(() => {
    if (typed !== state.q) setState({ q: typed, page: 1, inside: false }, { replace: true });
  }, [typed]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new word moves the URL
  const request = { q: state.q, order_by: state.order, offset: (state.page - 1) * CATALOG_PAGE, limit: CATALOG_PAGE, all: state.all };
  const list = useQuery({ ...catalogQuery(session, request), enabled: ready && !state.inside });
  const ids = { find: useId(), sort: useId() };
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / CATALOG_PAGE)) : 1;

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="space-y-3">
        <h2 className="text-lg font-semibold">{t("landing.title")}</h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("landing.intro")}</p>
        <form role="search" onSubmit={(e) => e.preventDefault()} className="flex flex-wrap items-end gap-3">
          <div className="min-w-48 flex-1">
            <label htmlFor={ids.find} className="mb-1 block text-sm font-medium">
              {t("landing.find")}
            </label>
            <input
              id={ids.find}
              type="search"
              value={draft}
              placeholder={t("landing.findHint")}
              onChange={(e) => setDraft(e.target.value)}
              className="w-full rounded-md border bg-white px-3 py-2 text-base dark:bg-zinc-900"
            />
          </div>
          <div>
            <label htmlFor={ids.sort} className="mb-1 block text-sm font-medium">
              {t("landing.sort")}
            </label>
            <select
              id={ids.sort}
              value={state.order}
              onChange={(e) => setState({ order: e.target.value as CatalogOrder, page: 1 })}
              className="rounded-md border bg-white px-2 py-2 dark:bg-zinc-900"
            >
              {CATALOG_ORDERS.map((o) => (
                <option key={o} value={o}>
                  {t(ORDER_LABEL[o])}
                </option>
              ))}
            </select>
          </div>
          <label className="flex items-center gap-2 py-2 text-sm">
            <input type="checkbox" checked={state.all} onChange={(e) => setState({ all: e.target.checked, page: 1 })} />
            {t("landing.showNoTable")}
          </label>
        </form>
        {state.q.trim() && (
          <button
            type="button"
            aria-pressed={state.inside}
            onClick={() => setState({ inside: !state.inside })}
            className="rounded-md border px-3 py-1.5 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
          >
            {state.inside ? t("landing.backToList") : t("landing.searchInside", { q: state.q.trim() })}
          </button>
        )}
        {state.inside ? (
          <SearchAllResults q={state.q.trim()} />
        ) : list.error ? (
          <Notice tone="error" title={t("landing.listError")} role="alert" />
        ) : !list.data ? (
          <div role="status" className="grid gap-2 sm:grid-cols-2">
            <span className="sr-only">{t("landing.loading")}</span>
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-20" />
            ))}
          </div>
        ) : list.data.count === 0 && !state.q.trim() ? (
          <Notice title={t("landing.empty.title")}>
            <p>{t("landing.empty.body")}</p>
          </Notice>
        ) : (
          <>
            <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
              {state.q.trim() ? t("landing.countMatching", { count: list.data.count, q: state.q.trim() }) : t("landing.count", { count: list.data.count })}
            </p>
            <ul className="grid gap-2 sm:grid-cols-2">
              {list.data.results.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    onClick={() => onSelect(r)}
                    className="h-full w-full rounded-lg border p-3 text-left hover:bg-zinc-50 dark:hover:bg-zinc-900"
                  >
                    <ResourceOption resource={r} />
                  </button>
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label={t("landing.pages")} className="flex items-center gap-3 text-sm">
                <button type="button" disabled={state.page <= 1} onClick={() => setState({ page: state.page - 1 })} className="rounded-md border px-3 py-1.5 disabled:opacity-50">
                  {t("landing.previous")}
                </button>
                <span>{t("landing.page", { page: Math.min(state.page, pages), pages })}</span>
                <button type="button" disabled={state.page >= pages} onClick={() => setState({ page: state.page + 1 })} className="rounded-md border px-3 py-1.5 disabled:opacity-50">
                  {t("landing.next")}
                </button>
              </nav>
            )}
          </>
        )}
      </div>
      <SavedViewsList resources={list.data?.results} />
    </div>
  );
}
