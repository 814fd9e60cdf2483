"use client";
// The reader's language and locale as the browser holds them: the language menu's cookie, else
// navigator.languages. Server rendering and hydration use English (en-US), as the prerendered
// pages are; the browser's choice follows at once, so hydration never mismatches.
import { formatLocale, LANG_COOKIE, langFromCookie, pickLanguage, type Lang } from "@/lib/i18n";

export const SERVER_LANG: Lang = "en";
export const SERVER_LOCALE = "en-US";

const listeners = new Set<() => void>();

export function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener("languagechange", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("languagechange", onChange);
  };
}

function preferences(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language].filter(Boolean);
}

export function currentLang(): Lang {
  return langFromCookie(document.cookie) ?? pickLanguage(preferences()) ?? SERVER_LANG;
}

export function currentLocale(): string {
  return formatLocale(langFromCookie(document.cookie), preferences(), SERVER_LOCALE);
}

/** Remembers the reader's choice for a year and tells every subscriber. */
export function chooseLang(lang: Lang) {
  document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
  for (const listener of listeners) listener();
}
