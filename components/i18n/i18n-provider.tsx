"use client";
// Gives the interface its language: useT() for words, useLocale() for numbers and dates,
// useLanguage() for the menu. <html lang> follows the language.
import { createContext, Fragment, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { messageParts, translator, type Lang, type MessageKey, type ParamArgs, type Translate } from "@/lib/i18n";
import { chooseLang, currentLang, currentLocale, SERVER_LANG, SERVER_LOCALE, subscribe } from "./language-store";

type I18n = { lang: Lang; locale: string; t: Translate };

const I18nContext = createContext<I18n>({ lang: SERVER_LANG, locale: SERVER_LOCALE, t: translator(SERVER_LANG, SERVER_LOCALE) });

export function I18nProvider({ children }: { children: ReactNode }) {
  const lang = useSyncExternalStore(subscribe, currentLang, () => SERVER_LANG);
  const locale = useSyncExternalStore(subscribe, currentLocale, () => SERVER_LOCALE);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo(() => ({ lang, locale, t: translator(lang, locale) }), [lang, locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** t("key") or t("key", { name }): the text in the reader's language. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

/** The locale numbers and dates are written in (e.g. fr-FR, de, en-US). */
export function useLocale(): string {
  return useContext(I18nContext).locale;
}

export function useLanguage(): { lang: Lang; setLang: (lang: Lang) => void } {
  return { lang: useContext(I18nContext).lang, setLang: chooseLang };
}

/** A message with elements in its placeholders (a link, a <code>), for where a string will not do. */
export function useRichT() {
  const { lang, locale } = useContext(I18nContext);
  return <K extends MessageKey>(key: K, ...args: ParamArgs<K, ReactNode>): ReactNode =>
    messageParts<ReactNode>(lang, locale, key, args[0] as Record<string, ReactNode> | undefined).map((part, i) => (
      <Fragment key={i}>{part}</Fragment>
    ));
}

/** A message for a server component (the layout): <T k="site.skip" />. */
export function T({ k }: { k: MessageKey }) {
  const { lang, locale } = useContext(I18nContext);
  return <>{messageParts(lang, locale, k).join("")}</>;
}
