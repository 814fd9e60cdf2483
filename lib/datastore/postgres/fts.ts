// Full text on PostgreSQL, as CKAN has it: a row's `_full_text` tsvector (english) over all its
// values, and our parsed `q` tree (full-text.ts) as tsquery text bound to to_tsquery.
import type { FtsNode } from "../full-text";
import { quoteIdent as q, type StoredField } from "./resource";

/** The text search configuration, CKAN's default. */
export const FTS_CONFIG = "english";

/**
 * A row's tsvector: every field's value as text, space-separated (NULLs skipped). `alias` names
 * the row: `t` in reads and the bulk loader's UPDATE, `NEW` in the per-table trigger.
 */
export function fullTextExpression(columns: StoredField[], alias = "t"): string {
  return `to_tsvector('${FTS_CONFIG}', ${joined(columns.map((f) => `${alias}.${q(f.column)}::text`))})`;
}

/** A function takes at most 100 arguments: wider rows are joined in groups, then the groups. */
const MAX_JOINED = 99;

/** Texts joined by spaces, NULLs skipped. */
function joined(texts: string[]): string {
  if (texts.length <= MAX_JOINED) return `concat_ws(' '${texts.map((v) => `, ${v}`).join("")})`;
  const groups: string[] = [];
  for (let i = 0; i < texts.length; i += MAX_JOINED) groups.push(joined(texts.slice(i, i + MAX_JOINED)));
  return joined(groups);
}

/** One field's tsvector, for a condition on that field (`q` as an object). */
export function fieldVector(field: StoredField, alias = "t"): string {
  return `to_tsvector('${FTS_CONFIG}', ${alias}.${q(field.column)}::text)`;
}

/** A tsquery from bound tsquery text (see tsquery()). */
export function toTsquery(placeholder: string): string {
  return `to_tsquery('${FTS_CONFIG}', ${placeholder})`;
}

/** PostgreSQL's own reading of a plain q (CKAN's `plain: true`). */
export function plainToTsquery(placeholder: string): string {
  return `plainto_tsquery('${FTS_CONFIG}', ${placeholder})`;
}

/** A word as a quoted tsquery operand: no character of it can be read as tsquery syntax. */
function lexeme(word: string, prefix: boolean): string {
  return `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`;
}

/**
 * Our query tree as tsquery text, to bind to to_tsquery('english', $n): each word quoted (the
 * configuration still stems it and drops stop words), operators & | ! and parentheses.
 * A null tree (only stop words) matches no row: the caller writes FALSE instead.
 */
export function tsquery(tree: FtsNode): string {
  switch (tree.op) {
    case "term":
      return lexeme(tree.word, tree.prefix);
    case "not":
      return `!(${tsquery(tree.child)})`;
    case "and":
    case "or":
      return tree.children.map((c) => `(${tsquery(c)})`).join(tree.op === "and" ? " & " : " | ");
  }
}
