"use client";
// Views: a resource's saved views by name, each opening at its short address /v/<id>; and, when
// what is on screen is one of them, its name (and the fields it named that are gone).
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { viewsQuery, type SavedView } from "@/lib/api-client/views";
import { serializeViewState, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";

/** A view's query string as compared: without the resource (one resource's views are listed),
 *  the open record or the page. */
function comparable(query: string): string {
  const params = new URLSearchParams(query);
  for (const key of ["resource_id", "id", "record", "offset"]) params.delete(key);
  return params.toString();
}

/** The saved view on screen, if what is on screen is one. */
export function currentSavedView(views: SavedView[] | undefined, view: ViewState): SavedView | undefined {
  const now = comparable(serializeViewState(view).toString());
  return views?.find((v) => comparable(v.query) === now);
}

export function useResourceViews(resourceId: string | null) {
  const { session, ready } = useToken();
  return useQuery({ ...viewsQuery(session, resourceId), enabled: ready && Boolean(resourceId) });
}

export function ViewsMenu({ view }: { view: ViewState }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const views = useResourceViews(view.resource_id);
  const list = views.data ?? [];
  return (
    <div className="relative" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <Button aria-expanded={open} aria-controls="saved-views-list" onClick={() => setOpen(!open)}>
        {views.data ? t("views.buttonCount", { count: list.length }) : t("views.button")}
      </Button>
      {open && (
        <div id="saved-views-list" className="absolute z-20 mt-1 w-72 rounded-md border bg-white p-2 shadow-lg dark:bg-zinc-900">
          {views.isError ? (
            <p className="p-1 text-sm">{t("views.listFailed")}</p>
          ) : !views.data ? (
            <p role="status" className="p-1 text-sm">{t("views.loading")}</p>
          ) : list.length === 0 ? (
            <p className="p-1 text-sm">{t("views.noneHere")}</p>
          ) : (
            <ul aria-label={t("views.saved")} className="max-h-80 space-y-1 overflow-auto">
              {list.map((v) => (
                <li key={v.id}>
                  <Link href={`/v/${encodeURIComponent(v.id)}`} className="block rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800">
                    <span className="font-medium">{v.name}</span>
                    {v.private && <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400">{t("views.private")}</span>}
                    {v.description && <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">{v.description}</span>}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** The name of the saved view on screen, and the fields it named that its resource lost. */
export function SavedViewNote({ view }: { view: ViewState }) {
  const views = useResourceViews(view.resource_id);
  const t = useT();
  const saved = currentSavedView(views.data, view);
  if (!saved) return null;
  return (
    <p className="text-sm text-zinc-700 dark:text-zinc-300">
      {t("views.current")} <strong>{saved.name}</strong>
      {saved.description && ` — ${saved.description}`}
      {saved.missing_fields.length > 0 && (
        <span role="note" className="block text-amber-800 dark:text-amber-300">
          {t("views.missingFields", { fields: saved.missing_fields.join(", ") })}
        </span>
      )}
    </p>
  );
}
