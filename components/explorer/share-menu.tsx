"use client";
// Share: the link to what is on screen (a saved view's short address when it is one) and the
// <iframe> code that puts only its table, chart, map, summary or pivot on another page; and the
// link to this version, which pins `as_of` to the version on screen (or the current one), so it
// shows the same rows after the table changes.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { infoQuery } from "@/lib/api-client";
import { viewLinks, type SavedView } from "@/lib/api-client/views";
import { serializeViewState, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** The explorer's link and the embed page's, for a saved view or the view's own parameters. */
export function shareLinks(origin: string, view: ViewState, saved: SavedView | undefined) {
  if (saved) return viewLinks(origin, saved.id);
  const query = serializeViewState({ ...view, record: null }).toString();
  return { link: `${origin}/?${query}`, embed: `${origin}/embed?${query}` };
}

/** The view's own link with `as_of` pinned to a version (never a saved view's short address,
 *  which follows the current data). */
export function pinnedLink(origin: string, view: ViewState, version: number): string {
  return `${origin}/?${serializeViewState({ ...view, record: null, as_of: version }).toString()}`;
}

export function iframeCode(src: string, title: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<iframe src="${escape(src)}" title="${escape(title)}" width="100%" height="480" style="border: 1px solid #ccc" loading="lazy"></iframe>`;
}

export function ShareMenu({
  view,
  saved,
  title,
  readVersion,
  keepsHistory,
}: {
  view: ViewState;
  saved: SavedView | undefined;
  title: string;
  /** With `as_of`: the version the view shows. */
  readVersion: number | undefined;
  /** False when the resource keeps no history: no version to link to. */
  keepsHistory: boolean;
}) {
  const t = useT();
  const { session, ready } = useToken();
  const [open, setOpen] = useState(false);
  const baseId = useId();
  const links = open ? shareLinks(window.location.origin, view, saved) : null;
  // the current version, read afresh when the menu opens: writes from elsewhere move it
  const info = useQuery({ ...infoQuery(session, view.resource_id ?? ""), staleTime: 0, enabled: ready && open && view.as_of === null && keepsHistory });
  const version = view.as_of !== null ? readVersion : info.data?.meta.version;
  return (
    <div className="relative" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <Button aria-expanded={open} aria-controls={`${baseId}-panel`} onClick={() => setOpen(!open)}>
        {t("share.button")}
      </Button>
      {open && links && (
        <div id={`${baseId}-panel`} className="absolute z-20 mt-1 w-[min(28rem,90vw)] space-y-3 rounded-md border bg-white p-3 shadow-lg dark:bg-zinc-900">
          <div className="space-y-1">
            <label htmlFor={`${baseId}-link`} className="block text-sm font-medium">
              {t("share.link")}
            </label>
            <input id={`${baseId}-link`} readOnly value={links.link} onFocus={(e) => e.target.select()} className="w-full rounded-md border px-2 py-1 font-mono text-xs" />
            <CopyButton text={links.link} label={t("explorer.copyLink")} />
          </div>
          {keepsHistory && (
            <div className="space-y-1">
              <label htmlFor={`${baseId}-pinned`} className="block text-sm font-medium">
                {t("history.share.pinned")}
              </label>
              {version === undefined ? (
                <p role="status" className="text-xs">
                  {t("history.share.pinnedLoading")}
                </p>
              ) : (
                <>
                  <input
                    id={`${baseId}-pinned`}
                    readOnly
                    value={pinnedLink(window.location.origin, view, version)}
                    onFocus={(e) => e.target.select()}
                    aria-describedby={`${baseId}-pinned-hint`}
                    className="w-full rounded-md border px-2 py-1 font-mono text-xs"
                  />
                  <CopyButton text={pinnedLink(window.location.origin, view, version)} label={t("history.share.copyPinned")} />
                  <p id={`${baseId}-pinned-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
                    {t("history.share.pinnedHint", { version: String(version) })}
                  </p>
                </>
              )}
            </div>
          )}
          <div className="space-y-1">
            <label htmlFor={`${baseId}-embed`} className="block text-sm font-medium">
              {t("share.embed")}
            </label>
            <textarea
              id={`${baseId}-embed`}
              readOnly
              rows={4}
              value={iframeCode(links.embed, saved?.name ?? title)}
              onFocus={(e) => e.target.select()}
              className="w-full rounded-md border px-2 py-1 font-mono text-xs"
            />
            <CopyButton text={iframeCode(links.embed, saved?.name ?? title)} label={t("share.copyEmbed")} />
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("share.embedOrigins")}</p>
          </div>
        </div>
      )}
    </div>
  );
}
