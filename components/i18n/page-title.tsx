"use client";
// The tab's title in the reader's language: a page's metadata title is written in English when the
// page is prerendered, before the browser's language is known; this sets it again once it is.
// Next commits the metadata's <title> after the page's effects have run, so the title is set
// again whenever the head changes while the page is shown.
import { useEffect } from "react";
import { messageParts, type MessageKey } from "@/lib/i18n";
import { useT } from "./i18n-provider";

export function PageTitle({ k }: { k: MessageKey }) {
  const t = useT();
  useEffect(() => {
    const title = `${messageParts(t.lang, t.locale, k).join("")} · Datastore Explorer`;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [t, k]);
  return null;
}
