// Full-text query parsing, engine-neutral (contract §6.3). A `q` becomes a small boolean tree
// of words; each engine compiles the tree to its own index syntax (FTS5 here, tsquery later).
// Plain `q`: every word must match, punctuation separates words except inside a number (13.4,
// -4, 1.5e-3 are one word each, as PostgreSQL's parser reads them), the stop words of the
// search's language are dropped as PostgreSQL does (text-language.ts). `plain: false`: tsquery
// operators & | ! ( ) and `word:*`.

import { hasBrand, mark } from "../brand";
import { DEFAULT_LANGUAGE, isStopWordIn } from "./text-language";

export type FtsNode =
  | { op: "term"; word: string; prefix: boolean }
  | { op: "and" | "or"; children: FtsNode[] }
  | { op: "not"; child: FtsNode };

/** Thrown for a tsquery that does not parse; the action turns it into 409 `query`. */
export class FtsSyntaxError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "FtsSyntaxError");
  }

  constructor(message?: string) {
    super(message);
    mark(this, "FtsSyntaxError");
  }
}

/**
 * A number PostgreSQL's parser keeps whole though it holds punctuation: decimals and versions
 * (13.4, 1.2.3), a minus sign (-4) and an exponent (1.5e-3). It starts where no letter or
 * digit precedes it: PG also reads the `-19` of `covid-19` and the `-01` of `2001-01-14` as
 * signed numbers, which hides such rows from `19` or `01`; here those hyphens separate words.
 * A plus stays punctuation (+4 is 4; PG keeps +4 and 1e+5 whole): rare in data, and one
 * character less to look for in every text value the index reads. Index text is cut by this
 * same pattern, so a word found here is one token there. No capture groups.
 */
export const NUMBER_PATTERN = String.raw`(?<![\p{L}\p{N}\p{M}])(?:-\d+(?:\.\d+)*(?:[eE]-?\d+)?|\d+(?:\.\d+)+(?:[eE]-?\d+)?|\d+[eE]-\d+)`;
const WORD = `${NUMBER_PATTERN}|[\\p{L}\\p{N}\\p{M}]+`;
const WORD_RE = new RegExp(WORD, "gu");

/**
 * The T of an ISO date-time (2001-01-14T21:55:00) separates words, so a search for the day
 * finds the row, as in PostgreSQL (whose parser ends its -14 at the T). Index text takes the
 * same cut first (`splitDateTime`).
 */
const DATE_TIME_T = /(?<=\d-\d\d)T(?=\d\d:)/g;

export function splitDateTime(text: string): string {
  return text.replace(DATE_TIME_T, " ");
}

/** Whether the language's stop words hold this word (text-language.ts). */
export function isStopWord(word: string, language = DEFAULT_LANGUAGE): boolean {
  return isStopWordIn(word, language);
}

/** Splits text into index words: numbers (NUMBER_PATTERN), else runs of letters, digits and marks. */
export function words(text: string): string[] {
  return splitDateTime(text).match(WORD_RE) ?? [];
}

/** A plain `q`: all words, ANDed. Null when nothing is left to search (matches nothing). */
export function parsePlain(q: string, language = DEFAULT_LANGUAGE): FtsNode | null {
  const terms = words(q)
    .filter((w) => !isStopWord(w, language))
    .map((word): FtsNode => ({ op: "term", word, prefix: false }));
  if (terms.length === 0) return null;
  return terms.length === 1 ? terms[0] : { op: "and", children: terms };
}

type Token = { kind: "word"; word: string; prefix: boolean } | { kind: "&" | "|" | "!" | "(" | ")" };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  const re = new RegExp(String.raw`\s*(?:([&|!()])|(${WORD})(:\*)?|(\S))`, "gu");
  let m: RegExpExecArray | null;
  while ((m = re.exec(q)) !== null) {
    if (m[0].trim() === "") break;
    if (m[1]) tokens.push({ kind: m[1] as "&" | "|" | "!" | "(" | ")" });
    else if (m[2]) tokens.push({ kind: "word", word: m[2], prefix: Boolean(m[3]) });
    else throw new FtsSyntaxError(`syntax error in tsquery: "${q}"`);
  }
  return tokens;
}

/**
 * A `plain: false` query in tsquery syntax. Precedence as PostgreSQL: ! binds tightest,
 * then &, then |. Stop words drop out of the tree. Null when only stop words remain.
 */
export function parseTsQuery(q: string, language = DEFAULT_LANGUAGE): FtsNode | null {
  const tokens = tokenize(q);
  if (tokens.length === 0) throw new FtsSyntaxError("empty tsquery");
  let pos = 0;
  const peek = () => tokens[pos];
  const fail = (): never => {
    throw new FtsSyntaxError(`syntax error in tsquery: "${q}"`);
  };

  // Each parser returns a node, or null for a subtree made only of stop words.
  const parseOr = (): FtsNode | null => {
    const parts = [parseAnd()];
    while (peek()?.kind === "|") {
      pos++;
      parts.push(parseAnd());
    }
    return combine("or", parts);
  };
  const parseAnd = (): FtsNode | null => {
    const parts = [parseUnary()];
    while (peek()?.kind === "&") {
      pos++;
      parts.push(parseUnary());
    }
    return combine("and", parts);
  };
  const parseUnary = (): FtsNode | null => {
    const t = peek();
    if (!t) return fail();
    if (t.kind === "!") {
      pos++;
      const child = parseUnary();
      return child && { op: "not", child };
    }
    if (t.kind === "(") {
      pos++;
      const inner = parseOr();
      if (peek()?.kind !== ")") fail();
      pos++;
      return inner;
    }
    if (t.kind === "word") {
      pos++;
      return isStopWord(t.word, language) ? null : { op: "term", word: t.word, prefix: t.prefix };
    }
    return fail();
  };

  const tree = parseOr();
  if (pos !== tokens.length) fail();
  return tree;
}

function combine(op: "and" | "or", parts: (FtsNode | null)[]): FtsNode | null {
  const kept = parts.filter((p): p is FtsNode => p !== null);
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0] : { op, children: kept };
}

/** The words a tree searches for, for highlighting and explanations. */
export function termsOf(node: FtsNode): string[] {
  if (node.op === "term") return [node.word];
  if (node.op === "not") return [];
  return node.children.flatMap(termsOf);
}
