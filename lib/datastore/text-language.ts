// A resource's full-text language (CKAN's `language`: a PostgreSQL text search configuration
// name), the same on both engines: the names taken, the default, how a word is folded before
// stop words and the stemmer, and each language's stop words. english is PostgreSQL's own
// configuration, unchanged (no unaccent); every other folds accents first (unaccent.ts).
import type { ErrorBag } from "./errors";
import { STOP_WORD_LISTS } from "./stop-words";
import { unaccent } from "./unaccent";

export const DEFAULT_LANGUAGE = "english";

/**
 * PostgreSQL's configurations that a Snowball stemmer of both engines covers (its greek,
 * hindi, indonesian, lithuanian, nepali, serbian and yiddish have none in JS; tamil has one,
 * but FTS5 cuts its words at their vowel signs), and `simple`, which folds and lowercases but
 * neither stems nor drops a word.
 */
export const LANGUAGES: readonly string[] = [
  "simple", "arabic", "armenian", "basque", "catalan", "danish", "dutch", "english", "finnish", "french", "german",
  "hungarian", "irish", "italian", "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish", "turkish",
];
const KNOWN = new Set(LANGUAGES);

/** A configuration name as PostgreSQL reads it (case does not matter), if we take it. */
export function languageOf(value: unknown): string | undefined {
  const name = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return name !== undefined && KNOWN.has(name) ? name : undefined;
}

/** `language` of datastore_create: absent is the default (undefined); an unknown one is a 409
 *  that names those taken. */
export function parseLanguage(value: unknown, bag: ErrorBag): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const lang = languageOf(value);
  if (lang === undefined) bag.add("language", `"${typeof value === "string" ? value : JSON.stringify(value)}" is not a supported language; use one of: ${LANGUAGES.join(", ")}`);
  return lang;
}

/**
 * The language a search reads its words in: its own `language`, else the resource's. CKAN
 * reads them in `language` or the site's default (ckan.datastore.default_fts_lang); a
 * resource's own language is that default here, as it is the language its index was built in.
 */
export function searchLanguage(requested: string | undefined, resource: { language?: string }): string {
  return (requested && languageOf(requested)) ?? resource.language ?? DEFAULT_LANGUAGE;
}

const STOP_WORDS = new Map<string, ReadonlySet<string>>();

function stopWords(language: string): ReadonlySet<string> {
  let set = STOP_WORDS.get(language);
  if (!set) STOP_WORDS.set(language, (set = new Set(STOP_WORD_LISTS[language]?.split(" ") ?? [])));
  return set;
}

/**
 * A word as the language's dictionary reads it: unaccented (but in english) and lowercased.
 * Stop words are looked up in this form, as PostgreSQL looks up the unaccented word: a
 * stop word spelled with an accent (French `été`) is one only as spelled.
 */
export function foldWord(word: string, language: string): string {
  return (language === DEFAULT_LANGUAGE ? word : unaccent(word)).toLowerCase();
}

/** Whether the language's dictionary drops this word (folded or not). */
export function isStopWordIn(word: string, language: string): boolean {
  return stopWords(language).has(foldWord(word, language));
}
