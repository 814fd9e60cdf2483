"use client";
// The header's language menu: the choice applies at once and is remembered in a cookie.
import { LANGUAGE_NAMES, LANGUAGES, isLang } from "@/lib/i18n";
import { useLanguage, useT } from "./i18n-provider";

export function LanguageMenu() {
  const t = useT();
  const { lang, setLang } = useLanguage();
  return (
    <label className="flex items-center gap-1.5 text-sm">
      <span className="font-medium">{t("language.label")}</span>
      <select
        value={lang}
        onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}
        className="rounded-md border bg-white px-2 py-1 text-sm dark:bg-zinc-900"
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
