// Looks a key up in the catalogue for a language and fills its placeholders: numbers in the
// reader's locale, a plural form picked by Intl.PluralRules from `count`. Pure, no React: the
// hook (components/i18n) and tests call it. The English text types each key's placeholders.
import { catalogue, type MessageKey } from "./catalogue";
import type { Plural, Text } from "./catalogue/define";
import type { Lang } from "./languages";

type Placeholders<S> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type English<K extends MessageKey> = (typeof catalogue)[K]["en"];
export type ParamName<K extends MessageKey> = English<K> extends string
  ? Placeholders<English<K>>
  : Placeholders<English<K> extends Plural ? English<K>["other"] : never> | "count";
/** t(key) for a text without placeholders, t(key, { name: … }) for one with them. */
export type ParamArgs<K extends MessageKey, V = string | number> = [ParamName<K>] extends [never] ? [] : [Record<ParamName<K>, V>];

export const PLACEHOLDER = /\{(\w+)\}/g;

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

export function numberFormat(locale: string): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, (f = new Intl.NumberFormat(locale)));
  return f;
}

function pick(text: Text, lang: Lang, count: unknown): string {
  if (typeof text === "string") return text;
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  const n = typeof count === "number" ? count : Number(count);
  return text[rules.select(Number.isFinite(n) ? n : 0)] ?? text.other;
}

/** The text for a key with each `{name}` split out, in order: the caller joins or wraps the parts. */
export function messageParts<V>(lang: Lang, locale: string, key: MessageKey, params?: Record<string, V>): (string | V)[] {
  const entry = catalogue[key] as Record<Lang, Text> | undefined;
  // an unknown key shows itself rather than nothing: TypeScript and the lint rule make it rare
  if (!entry) return [String(key)];
  const text = pick(entry[lang] ?? entry.en, lang, params?.count);
  const parts: (string | V)[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const value = params?.[m[1]];
    if (value === undefined) parts.push(m[0]);
    else parts.push(typeof value === "number" ? numberFormat(locale).format(value) : value);
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function translate<K extends MessageKey>(lang: Lang, locale: string, key: K, ...args: ParamArgs<K>): string {
  return messageParts<string | number>(lang, locale, key, args[0] as Record<string, string | number> | undefined).join("");
}

/** t(key, params), which also says its language and the locale its numbers are written in. */
export type Translate = (<K extends MessageKey>(key: K, ...args: ParamArgs<K>) => string) & { lang: Lang; locale: string };

export function translator(lang: Lang, locale: string): Translate {
  const t = <K extends MessageKey>(key: K, ...args: ParamArgs<K>) => translate(lang, locale, key, ...args);
  return Object.assign(t, { lang, locale });
}

/** English in en-US: the default of helpers that build text outside React, and of their tests. */
export const english: Translate = translator("en", "en-US");

/** A phrase set inside a sentence ("(the server could not be reached)"): lower-cased but in
 *  German, whose nouns keep their capital. */
export function inSentence(text: string, lang: Lang): string {
  return lang === "de" ? text : text.charAt(0).toLowerCase() + text.slice(1);
}
