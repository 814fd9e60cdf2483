"use client";
// "Search inside every table": datastore_search_all's answer, each table with its count of
// matching rows and its first matches, each opening the explorer on that table searched for `q`.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { searchAllQuery } from "@/lib/api-client/catalog";
import { serializeViewState, updateView, viewForResource } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";

/** A record's values in a line, `_id` and empty values left out. */
function line(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([k, v]) => !k.startsWith("_") && v !== null && v !== "")
    .map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : String(v)))
    .join(" · ");
}

export function SearchAllResults({ q }: { q: string }) {
  const t = useT();
  const { session, ready } = useToken();
  const found = useQuery({ ...searchAllQuery(session, q), enabled: ready && q !== "" });
  if (found.error) return <Notice tone="error" title={t("landing.inside.error")} role="alert" />;
  if (!found.data)
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">{t("landing.inside.loading")}</span>
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  const { results, not_searched: left } = found.data;
  return (
    <section aria-labelledby="search-all-heading" className="space-y-2">
      <h3 id="search-all-heading" className="font-semibold">
        {t("landing.inside.heading", { q })}
      </h3>
      {results.length === 0 && <p role="status">{t("landing.inside.none", { q })}</p>}
      <ul className="space-y-2">
        {results.map((r) => (
          <li key={r.resource_id} className="rounded-lg border p-3">
            <Link href={`/?${serializeViewState(updateView(viewForResource(r.resource_id), { q })).toString()}`} className="font-medium text-blue-700 underline dark:text-blue-300">
              {r.name || r.resource_id}
            </Link>{" "}
            <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("landing.inside.matches", { count: r.total })}</span>
            <ul className="mt-1 space-y-0.5 text-sm text-zinc-700 dark:text-zinc-300">
              {r.records.map((rec, i) => (
                <li key={i} className="truncate">
                  {line(rec)}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {left.length > 0 && <p className="text-sm">{t("landing.inside.partial", { count: left.length })}</p>}
    </section>
  );
}
