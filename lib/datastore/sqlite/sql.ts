// SQL building blocks for the SQLite engine. Identifiers are quoted by quoteIdent only, and
// only ever built from names the catalog generated (table `ds_…`, columns `c1…`); every value
// is a bound parameter.
import type { FtsNode } from "../full-text";
import { DEFAULT_LANGUAGE } from "../text-language";
import { ftsText } from "./fts-text";
import { queryPieces } from "./fts-words";

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The view a resource's full-text index reads: its values as text, booleans as true/false. */
export function ftsSource(table: string): string {
  return `${table}_text`;
}

/** An FTS5 string literal: a word or prefix, quoted so no character is FTS syntax. */
function ftsLiteral(word: string, prefix: boolean): string {
  return `"${word.replace(/"/g, '""')}"${prefix ? " *" : ""}`;
}

/** The languages a query's words are read in, and the one its index was built in. */
export interface FtsLanguages {
  query: string;
  index: string;
}

const ENGLISH: FtsLanguages = { query: DEFAULT_LANGUAGE, index: DEFAULT_LANGUAGE };

/**
 * A word as FTS5 terms, its numbers spelled as the index spells them (fts-text.ts) and its
 * tokens as the index holds them (fts-words.ts). A word the tokenizer cuts in two would be a
 * phrase, which the index (detail=column) cannot answer: its pieces are ANDed instead, as
 * PostgreSQL's plainto_tsquery ANDs the lexemes of such a word.
 */
function ftsTerm(word: string, prefix: boolean, lang: FtsLanguages): string {
  const pieces = queryPieces(ftsText(word), lang.query, lang.index);
  if (pieces.length <= 1) return ftsLiteral(pieces[0] ?? word, prefix);
  return `(${pieces.map((p, i) => ftsLiteral(p, prefix && i === pieces.length - 1)).join(" AND ")})`;
}

export interface FtsExpr {
  expr: string;
  negated: boolean; // true: the rows wanted are those NOT matching expr
}

/**
 * Compiles a query tree to an FTS5 expression. FTS5 has only binary NOT (`a NOT b`), so
 * negations inside an AND become `(positives) NOT (negatives)`; a tree that is negative at
 * the top comes back `negated` and the caller excludes its matches. An OR with negated
 * parts is rewritten by De Morgan (`a | !b` = `!(b NOT a)`), so every tree compiles.
 */
export function compileFts(node: FtsNode, lang: FtsLanguages = ENGLISH): FtsExpr {
  switch (node.op) {
    case "term":
      return { expr: ftsTerm(node.word, node.prefix, lang), negated: false };
    case "not": {
      const inner = compileFts(node.child, lang);
      return { expr: inner.expr, negated: !inner.negated };
    }
    case "and":
      return compileAnd(node.children.map((c) => compileFts(c, lang)));
    case "or": {
      const parts = node.children.map((c) => compileFts(c, lang));
      if (parts.every((p) => !p.negated)) return { expr: parts.map((p) => `(${p.expr})`).join(" OR "), negated: false };
      // a | b = !(!a & !b)
      const inner = compileAnd(parts.map((p) => ({ expr: p.expr, negated: !p.negated })));
      return { expr: inner.expr, negated: !inner.negated };
    }
  }
}

function compileAnd(parts: FtsExpr[]): FtsExpr {
  const pos = parts.filter((p) => !p.negated).map((p) => `(${p.expr})`);
  const neg = parts.filter((p) => p.negated).map((p) => `(${p.expr})`);
  if (pos.length === 0) return { expr: neg.join(" OR "), negated: true };
  const positive = pos.join(" AND ");
  return { expr: neg.length ? `(${positive}) NOT (${neg.join(" OR ")})` : positive, negated: false };
}
