"use client";
// Above the tabs: the saved view on screen, Save view, the resource's Views, and Share.
import type { ViewState } from "@/lib/view-state";
import { SaveView } from "./save-view";
import { ShareMenu } from "./share-menu";
import { currentSavedView, SavedViewNote, useResourceViews, ViewsMenu } from "./views-menu";

export function ViewToolbar({ view, resourcePrivate, title }: { view: ViewState; resourcePrivate: boolean; title: string }) {
  const views = useResourceViews(view.resource_id);
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Saved views and sharing">
        <ViewsMenu view={view} />
        <SaveView view={view} resourcePrivate={resourcePrivate} />
        <ShareMenu view={view} saved={currentSavedView(views.data, view)} title={title} />
      </div>
      <SavedViewNote view={view} />
    </div>
  );
}
