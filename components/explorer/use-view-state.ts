"use client";
// The view lives in the page URL. Reads come from Next's useSearchParams; writes use the History
// API (which Next keeps in sync) so a change costs no server round trip. Next applies that
// update in a transition, so the new view is also held locally until the URL catches up:
// controlled inputs (checkboxes, the limit select) never flick back to the old value.
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { parseViewState, serializeViewState, type ViewState } from "@/lib/view-state";

export type SetView = (next: ViewState, options?: { replace?: boolean }) => void;

export function useViewState(): [ViewState, SetView] {
  const params = useSearchParams();
  const key = params.toString();
  const fromUrl = useMemo(() => parseViewState(key), [key]);
  const [pending, setPending] = useState<{ from: string; view: ViewState } | null>(null);

  // the URL moved (our write landed, or back/forward): it is the truth again
  if (pending && pending.from !== key) setPending(null);

  const setView = useCallback<SetView>((next, options) => {
    const query = serializeViewState(next).toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (url === `${window.location.pathname}${window.location.search}`) return;
    setPending({ from: key, view: next });
    if (options?.replace) window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }, [key]);

  const view = pending && pending.from === key ? pending.view : fromUrl;
  return [view, setView];
}
