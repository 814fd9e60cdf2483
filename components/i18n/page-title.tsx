"use client";
// The tab's title in the reader's language: a page's metadata title is written in English when the
// page is prerendered, before the browser's language is known; this sets it again once it is.
import { useEffect } from "react";
import { messageParts, type MessageKey } from "@/lib/i18n";
import { useT } from "./i18n-provider";

export function PageTitle({ k }: { k: MessageKey }) {
  const t = useT();
  useEffect(() => {
    document.title = `${messageParts(t.lang, t.locale, k).join("")} · Datastore Explorer`;
  }, [t, k]);
  return null;
}
