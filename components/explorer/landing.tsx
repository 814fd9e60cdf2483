"use client";
// With no resource chosen: what the page is for, and every resource as a card.
import { explainError, type Resource } from "@/lib/api-client";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { ResourceOption, useResources } from "./resource-picker";
import { SavedViewsList } from "./saved-views-list";

export function Landing({ onSelect }: { onSelect: (r: Resource) => void }) {
  const { resources, isLoading, error } = useResources();
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="space-y-3">
        <h2 className="text-lg font-semibold">
          Pick a resource to explore
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Choose a table below (or type its name in the Resource box). You can then search it, filter it, sort it, share
          the link to what you see, and download the rows.
        </p>
        {error ? (
          <Notice tone="error" title={explainError(error, "the resource list").title} role="alert" />
        ) : isLoading || !resources ? (
          <div role="status" className="grid gap-2 sm:grid-cols-2">
            <span className="sr-only">Loading resources…</span>
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-20" />
            ))}
          </div>
        ) : resources.length === 0 ? (
          <Notice title="There are no resources yet">
            <p>Resources appear here once data is loaded with the API. Private resources need a token to be listed.</p>
          </Notice>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {resources.map((r) => (
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
        )}
      </div>
      <SavedViewsList resources={resources} />
    </div>
  );
}
