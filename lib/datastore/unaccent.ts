// PostgreSQL's unaccent, in JS: each character its rule names is replaced (unaccent-rules.ts),
// every other kept. The text search configurations of every language but english fold a word
// with it before stop words and the stemmer (postgres/migrations.ts), and SQLite's full-text
// words do the same (sqlite/fts-words.ts), so `eleve` and `élève` meet on both engines.
import { UNACCENT_RULES } from "./unaccent-rules";

const RULES = new Map(Object.entries(UNACCENT_RULES));
// Only characters a rule names need the map: a quick test lets plain words through untouched.
const RULED = new RegExp(`[${[...RULES.keys()].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join("")}]`, "u");

export function unaccent(word: string): string {
  if (!RULED.test(word)) return word;
  let out = "";
  for (const ch of word) out += RULES.get(ch) ?? ch;
  return out;
}
