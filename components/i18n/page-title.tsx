"use client";
// The tab's title in the reader's language (the prerendered <title> is English).
import { useEffect } from "react";
import { messageParts, type MessageKey } from "@/lib/i18n";
import { useT } from "./i18n-provider";
import { keepInHead } from "./keep-in-head";

export function PageTitle({ k }: { k: MessageKey }) {
  const t = useT();
  useEffect(() => {
    const title = `${messageParts(t.lang, t.locale, k).join("")} · Datastore Explorer`;
    return keepInHead(() => {
      if (document.title !== title) document.title = title;
    });
  }, [t, k]);
  return null;
}
