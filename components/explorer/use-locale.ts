"use client";
// The reader's locale, for numbers and dates in the table, the record view and the summary.
// The server (and hydration) render in en-US, as the page's counts are; the browser's own
// locale follows at once, so a server-rendered value never mismatches.
import { useSyncExternalStore } from "react";

export const SERVER_LOCALE = "en-US";

function subscribe(onChange: () => void) {
  window.addEventListener("languagechange", onChange);
  return () => window.removeEventListener("languagechange", onChange);
}

export function useLocale(): string {
  return useSyncExternalStore(
    subscribe,
    () => navigator.language || SERVER_LOCALE,
    () => SERVER_LOCALE,
  );
}
