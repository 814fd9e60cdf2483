"use client";
// The page's meta description in the reader's language (the layout's metadata writes it in English).
import { useEffect } from "react";
import { useT } from "./i18n-provider";
import { keepInHead } from "./keep-in-head";

export function SiteDescription() {
  const t = useT();
  useEffect(() => {
    const description = t("site.description");
    return keepInHead(() => {
      // the prerendered head's, and the one Next commits again with a page's metadata
      for (const meta of document.head.querySelectorAll<HTMLMetaElement>('meta[name="description"]')) {
        if (meta.content !== description) meta.content = description;
      }
    });
  }, [t]);
  return null;
}
