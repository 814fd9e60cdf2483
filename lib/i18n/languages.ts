// The interface's languages, and how a reader's preferences pick one. Pure: used by the
// browser's language store and by tests. English is the catalogue's source and the fallback.
export const LANGUAGES = ["en", "fr", "de"] as const;
export type Lang = (typeof LANGUAGES)[number];

/** Each language in its own words, for the language menu (the same in every language). */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", fr: "Français", de: "Deutsch" };

/** The cookie the language menu sets: a reader's choice outranks the browser's languages. */
export const LANG_COOKIE = "lang";

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

function base(tag: string): string {
  return tag.toLowerCase().split(/[-_]/)[0];
}

/** The first of the reader's preferred tags (navigator.languages order) that we speak. */
export function pickLanguage(preferences: readonly string[]): Lang | undefined {
  for (const tag of preferences) {
    const lang = base(tag);
    if (isLang(lang)) return lang;
  }
  return undefined;
}

/**
 * The locale numbers and dates are written in. With a language chosen from the menu: the reader's
 * first tag in that language (fr-CA keeps its region), else the language itself. Otherwise the
 * browser's first preference, as before there was a menu, even where the words fall back to English.
 */
export function formatLocale(chosen: Lang | undefined, preferences: readonly string[], fallback = "en-US"): string {
  if (chosen) return preferences.find((tag) => base(tag) === chosen) ?? (chosen === "en" ? fallback : chosen);
  return preferences[0] || fallback;
}

/** The language named in a Cookie header or document.cookie, if it is one we speak. */
export function langFromCookie(cookie: string): Lang | undefined {
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`));
  const value = match?.[1];
  return isLang(value) ? value : undefined;
}
