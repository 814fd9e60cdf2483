"use client";
// The view lives in the page URL. Reads come from Next's useSearchParams; writes use the History
// API (which Next keeps in sync) so a change costs no server round trip.
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseViewState, viewToQueryString, type ViewState } from "@/lib/view-state";

export type SetView = (next: ViewState, options?: { replace?: boolean }) => void;

export function useViewState(): [ViewState, SetView] {
  const params = useSearchParams();
  const key = params.toString();
  const view = useMemo(() => parseViewState(key), [key]);
  const setView = useCallback<SetView>((next, options) => {
    const url = `${window.location.pathname}${viewToQueryString(next)}`;
    if (url === `${window.location.pathname}${window.location.search}`) return;
    if (options?.replace) window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }, []);
  return [view, setView];
}
