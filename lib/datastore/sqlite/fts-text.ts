// Numbers as one full-text token (full-text.ts NUMBER_PATTERN). FTS5's unicode61 tokenizer
// cuts 13.4 at the dot and drops the sign of -4, and no tokenizer can be written in JS here;
// but it keeps private-use characters inside a token, so the view the index reads and every
// query word spell a number's dot and minus as private-use characters.
import type Database from "better-sqlite3";
import { NUMBER_PATTERN, splitDateTime } from "../full-text";
import { DEFAULT_LANGUAGE } from "../text-language";
import type { TypeName } from "../types";
import { indexWords } from "./fts-words";

/** The tokenizer of an english full-text index; unicode61 keeps private-use characters in tokens. */
export const FTS_TOKENIZER = "porter unicode61 remove_diacritics 2";

/** The tokenizer of an index in `language`: porter stems english; other languages come to it
 *  stemmed already (fts-words.ts), to be cut at the spaces. */
export function ftsTokenizer(language: string): string {
  return language === DEFAULT_LANGUAGE ? FTS_TOKENIZER : "unicode61 remove_diacritics 2";
}

// U+E000, U+E001: nothing folds or stems into them, and data rarely holds them.
const DOT = 0xe000;
const MINUS = 0xe001;
const JOINER: Record<string, string> = { ".": String.fromCharCode(DOT), "-": String.fromCharCode(MINUS) };

const NUMBER_RE = new RegExp(NUMBER_PATTERN, "gu");
const WORD_START = /^[\p{L}\p{N}\p{M}]/u;

/**
 * Text as the index should read it: each number's dots and minus made private-use, a space
 * after a number that runs into letters (13.4kg is 13.4 and kg, as in PostgreSQL), and one for
 * the T of a date-time. The same function rewrites query words (sql.ts), so a word matches
 * the token its number became. Existing indexes hold what this (and ftsColumnExpr) returned
 * when they were built, and FTS5 unindexes a row by reading it back through the view: any
 * change to either needs a migration that rebuilds every index.
 */
export function ftsText(text: string): string {
  const split = splitDateTime(text);
  return split.replace(NUMBER_RE, (n: string, at: number) => {
    const joined = n.replace(/[.-]/g, (c) => JOINER[c]);
    return WORD_START.test(split.slice(at + n.length, at + n.length + 2)) ? `${joined} ` : joined;
  });
}

/** `ds_fts_text(value)`: ftsText of a text, or of a number as JavaScript prints it;
 *  `ds_fts_words(text, language)`: the text's lexemes in that language (fts-words.ts). */
export function registerFtsFunctions(db: Database.Database): void {
  db.function("ds_fts_text", { deterministic: true }, (v: unknown) =>
    typeof v === "string" ? ftsText(v) : typeof v === "number" || typeof v === "bigint" ? ftsText(String(v)) : v,
  );
  db.function("ds_fts_words", { deterministic: true }, (v: unknown, language: unknown) =>
    typeof v === "string" && typeof language === "string" ? indexWords(v, language) : v,
  );
}

const char = (code: number) => `char(${code})`;

/** Below this, %.15g prints a float without e+ (999999999999999.9 prints as 1e+15). */
const FAST_FLOAT = "999999999999999";

/**
 * One column of the view the index reads: ftsText of the value's text, booleans as
 * true/false. Most values never reach JS (a call costs about what indexing the value does):
 * - text: ftsText changes only a dot or minus before a digit; two GLOBs that open with that
 *   literal find one in a fast scan (a pattern opening with a class such as [-.] scans
 *   character by character instead).
 * - numbers: their text is one number, so every dot and minus joins. Floats print as %.15g,
 *   as records show them (4, not SQLite's 4.0; 13.4); from 1e15 on, JS prints them.
 * - dates need nothing, date-times only their T.
 * In another language than english, text and booleans are then read as that language's
 * lexemes (ds_fts_words): every such value reaches JS; numbers and dates hold no word to stem.
 */
export function ftsColumnExpr(col: string, type: TypeName, language = DEFAULT_LANGUAGE): string {
  const expr = englishColumnExpr(col, type);
  if (language === DEFAULT_LANGUAGE || NO_WORDS.has(type)) return expr;
  return `ds_fts_words(${expr}, '${language.replace(/'/g, "''")}')`;
}

const NO_WORDS = new Set<TypeName>(["int2", "int4", "int8", "float4", "float8", "numeric", "date", "timestamp"]);

function englishColumnExpr(col: string, type: TypeName): string {
  switch (type) {
    case "bool":
      return `CASE ${col} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`;
    case "int2":
    case "int4":
    case "int8":
      return `CASE WHEN ${col} < 0 THEN ${char(MINUS)} || substr(${col}, 2) ELSE ${col} END`;
    case "float4":
    case "float8":
    case "numeric": {
      const text = `printf('%.15g', ${col})`;
      return (
        `CASE WHEN ${col} > -${FAST_FLOAT} AND ${col} < ${FAST_FLOAT} THEN replace(replace(${text}, '.', ${char(DOT)}), '-', ${char(MINUS)})` +
        ` WHEN ${col} IS NOT NULL THEN ds_fts_text(${col}) END`
      );
    }
    case "date":
      return col; // YYYY-MM-DD (types.ts)
    case "timestamp":
      return `replace(${col}, 'T', ' ')`; // YYYY-MM-DDTHH:MM:SS
    default:
      return `CASE WHEN ${col} GLOB '*.[0-9]*' OR ${col} GLOB '*-[0-9]*' THEN ds_fts_text(${col}) ELSE ${col} END`;
  }
}
