"use client";
// Share: the link to what is on screen (a saved view's short address when it is one) and the
// <iframe> code that puts only its table, chart, map, summary or pivot on another page.
import { useId, useState } from "react";
import { viewLinks, type SavedView } from "@/lib/api-client/views";
import { serializeViewState, type ViewState } from "@/lib/view-state";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** The explorer's link and the embed page's, for a saved view or the view's own parameters. */
export function shareLinks(origin: string, view: ViewState, saved: SavedView | undefined) {
  if (saved) return viewLinks(origin, saved.id);
  const query = serializeViewState({ ...view, record: null }).toString();
  return { link: `${origin}/?${query}`, embed: `${origin}/embed?${query}` };
}

export function iframeCode(src: string, title: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<iframe src="${escape(src)}" title="${escape(title)}" width="100%" height="480" style="border: 1px solid #ccc" loading="lazy"></iframe>`;
}

export function ShareMenu({ view, saved, title }: { view: ViewState; saved: SavedView | undefined; title: string }) {
  const [open, setOpen] = useState(false);
  const baseId = useId();
  const links = open ? shareLinks(window.location.origin, view, saved) : null;
  return (
    <div className="relative" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <Button aria-expanded={open} aria-controls={`${baseId}-panel`} onClick={() => setOpen(!open)}>
        Share
      </Button>
      {open && links && (
        <div id={`${baseId}-panel`} className="absolute z-20 mt-1 w-[min(28rem,90vw)] space-y-3 rounded-md border bg-white p-3 shadow-lg dark:bg-zinc-900">
          <div className="space-y-1">
            <label htmlFor={`${baseId}-link`} className="block text-sm font-medium">
              Link
            </label>
            <input id={`${baseId}-link`} readOnly value={links.link} onFocus={(e) => e.target.select()} className="w-full rounded-md border px-2 py-1 font-mono text-xs" />
            <CopyButton text={links.link} label="Copy link" />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${baseId}-embed`} className="block text-sm font-medium">
              Embed code
            </label>
            <textarea
              id={`${baseId}-embed`}
              readOnly
              rows={4}
              value={iframeCode(links.embed, saved?.name ?? title)}
              onFocus={(e) => e.target.select()}
              className="w-full rounded-md border px-2 py-1 font-mono text-xs"
            />
            <CopyButton text={iframeCode(links.embed, saved?.name ?? title)} label="Copy embed code" />
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Only the sites the server allows (DATASTORE_EMBED_ORIGINS) may show it.</p>
          </div>
        </div>
      )}
    </div>
  );
}
