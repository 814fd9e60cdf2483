"use client";
// Above the tabs: the saved view on screen, Save view, the resource's Views, Share, and As of
// (the table as it was at a date and time).
import { useT } from "@/components/i18n/i18n-provider";
import type { HistoryInfo } from "@/lib/api-client";
import type { AsOf, ViewState } from "@/lib/view-state";
import { AsOfPicker } from "./as-of-picker";
import { SaveView } from "./save-view";
import { ShareMenu } from "./share-menu";
import { currentSavedView, SavedViewNote, useResourceViews, ViewsMenu } from "./views-menu";

export function ViewToolbar({
  view,
  resourceId,
  resourcePrivate,
  title,
  read,
  history,
  onAsOf,
}: {
  view: ViewState;
  /** The resource's own id (view.resource_id may be an alias). */
  resourceId: string;
  resourcePrivate: boolean;
  title: string;
  /** With `as_of`: the version the search read and its time. */
  read: { version: number; time: string | null } | undefined;
  /** What the resource's history keeps (datastore_info), once known. */
  history: HistoryInfo | undefined;
  onAsOf: (asOf: AsOf | null) => void;
}) {
  const views = useResourceViews(view.resource_id);
  const t = useT();
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t("views.toolbar")}>
          <ViewsMenu view={view} />
          <SaveView view={view} resourceId={resourceId} resourcePrivate={resourcePrivate} />
          <ShareMenu
            view={view}
            saved={currentSavedView(views.data, view)}
            title={title}
            readVersion={read?.version}
            keepsHistory={history?.enabled !== false}
          />
        </div>
        <AsOfPicker asOf={view.as_of} readTime={read?.time ?? undefined} history={history} onChange={onAsOf} />
      </div>
      <SavedViewNote view={view} />
    </div>
  );
}
