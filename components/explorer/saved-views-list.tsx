"use client";
// The landing page's saved views: every view the token in use may see, by name, with its
// resource, each opening at its short address.
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { Resource } from "@/lib/api-client";
import { viewsQuery } from "@/lib/api-client/views";
import { useToken } from "@/components/token/token-provider";
import { Skeleton } from "@/components/ui/skeleton";
import { resourceLabel } from "./format";

export function SavedViewsList({ resources }: { resources: Resource[] | undefined }) {
  const { session, ready } = useToken();
  const views = useQuery({ ...viewsQuery(session, null), enabled: ready });
  const t = useT();
  const resourceName = (id: string) => {
    const r = resources?.find((x) => x.id === id);
    return r ? resourceLabel(r) : id;
  };
  return (
    <section aria-labelledby="saved-views-heading" className="space-y-3">
      <h2 id="saved-views-heading" className="text-lg font-semibold">
        {t("views.saved")}
      </h2>
      {views.isError ? (
        <p className="text-sm">{t("views.listFailed")}</p>
      ) : !views.data ? (
        <div role="status">
          <span className="sr-only">{t("views.loadingShort")}</span>
          <Skeleton className="h-16" />
        </div>
      ) : views.data.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("views.noneYet")}</p>
      ) : (
        <ul className="space-y-2">
          {views.data.map((v) => (
            <li key={v.id}>
              <Link href={`/v/${encodeURIComponent(v.id)}`} className="block rounded-lg border p-3 hover:bg-zinc-50 dark:hover:bg-zinc-900">
                <span className="block font-medium">{v.name}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {resourceName(v.resource_id)}
                  {v.private && ` · ${t("views.private")}`}
                </span>
                {v.description && <span className="mt-1 block text-sm text-zinc-700 dark:text-zinc-300">{v.description}</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
