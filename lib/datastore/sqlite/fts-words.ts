// Full-text words in a resource's language. FTS5's porter stems english only, and a tokenizer
// cannot be written in JS here, so for every other language the view the index reads spells
// each word as PostgreSQL's configuration would (unaccented, lowercased, stop words dropped,
// Snowball-stemmed: indexWords, SQL function ds_fts_words), and query words are read the same
// way (queryPieces); FTS5's unicode61 then only splits what it is given at the spaces.
// An index holds what these returned when it was built and unindexes a row by reading it
// again: a new stemmer (snowball-stemmers), stop list or unaccent rule needs a migration that
// rebuilds every index not in english.
import { newStemmer, type Stemmer } from "snowball-stemmers";
import { DEFAULT_LANGUAGE, foldWord, isStopWordIn } from "../text-language";

// What the unicode61 tokenizer splits words at, near enough: anything but letters, digits,
// private use and the Latin diacritics it folds away (measured: U+0301 is kept, U+0305 or a
// Devanagari nukta splits). Marks newer than its Unicode 6.1 tables are kept by it, split here.
// A double quote (never in a parsed word) is left to sql.ts's escaping of query words.
export const TOKEN_BREAK = /[^"\p{L}\p{N}\p{Co}\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331]+/u;

/** A token that holds a digit or a number's joiner (fts-text.ts) is not a word to stem:
 *  PostgreSQL reads it as a number or a numword, which no configuration stems. */
const NOT_A_WORD = /[\p{N}\p{Co}]/u;

/** Languages whose Snowball stemmer we run: those of text-language.ts but simple. */
const STEMMERS = new Map<string, Stemmer | null>();

function stemmer(language: string): Stemmer | null {
  let s = STEMMERS.get(language);
  if (s === undefined) STEMMERS.set(language, (s = language === "simple" ? null : newStemmer(language)));
  return s;
}

/** Lexemes found before, per language: data repeats its words, and stemming is the cost. */
const MEMO = new Map<string, Map<string, string | null>>();
const MEMO_WORDS = 50_000;

/**
 * A token as the language's configuration makes it a lexeme: unaccented (but in english),
 * lowercased, then null for a stop word, else stemmed (simple: as folded), as PostgreSQL's
 * `unaccent, <language>_stem` mapping does (postgres/migrations.ts).
 */
export function lexeme(token: string, language: string): string | null {
  let memo = MEMO.get(language);
  if (!memo) MEMO.set(language, (memo = new Map()));
  const known = memo.get(token);
  if (known !== undefined) return known;
  const folded = foldWord(token, language);
  let out: string | null;
  if (NOT_A_WORD.test(folded)) out = folded;
  else if (isStopWordIn(folded, language)) out = null;
  // PostgreSQL keeps the word when its stem comes out empty (Turkish `sunuz`).
  else out = stemmer(language)?.stem(folded) || folded;
  if (memo.size >= MEMO_WORDS) memo.clear();
  memo.set(token, out);
  return out;
}

/** Short values read before, per language: a column of categories repeats whole values. */
const VALUES = new Map<string, Map<string, string>>();
const MEMO_VALUES = 20_000;
const SHORT_VALUE = 64;

/** Text as a non-english index reads it: its lexemes, space-separated. */
export function indexWords(text: string, language: string): string {
  if (text.length > SHORT_VALUE) return lexemesOf(text, language);
  let memo = VALUES.get(language);
  if (!memo) VALUES.set(language, (memo = new Map()));
  let out = memo.get(text);
  if (out === undefined) {
    out = lexemesOf(text, language);
    if (memo.size >= MEMO_VALUES) memo.clear();
    memo.set(text, out);
  }
  return out;
}

function lexemesOf(text: string, language: string): string {
  let out = "";
  for (const token of text.split(TOKEN_BREAK)) {
    if (token === "") continue;
    const word = lexeme(token, language);
    if (word !== null) out = out === "" ? word : `${out} ${word}`;
  }
  return out;
}

/**
 * A query word's tokens (its numbers already spelled as the index spells them), as the index
 * in `index` language holds them when read in `query` language. An english index stems with
 * FTS5's porter, so english words go to it as they are; every other pair is stemmed here.
 * A token that is a stop word is left out (the whole word is, by the query parser).
 */
export function queryPieces(spelled: string, query: string, index: string): string[] {
  const tokens = spelled.split(TOKEN_BREAK).filter((p) => p !== "");
  if (query === DEFAULT_LANGUAGE && index === DEFAULT_LANGUAGE) return tokens;
  const words = tokens.map((t) => lexeme(t, query)).filter((w): w is string => w !== null);
  return words.length ? words : tokens;
}
