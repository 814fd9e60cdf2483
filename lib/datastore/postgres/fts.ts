// Full text on PostgreSQL, as CKAN has it: a row's `_full_text` tsvector over all its values,
// in the resource's language, and our parsed `q` tree (full-text.ts) as tsquery text bound to
// to_tsquery in the search's language.
import type { FtsNode } from "../full-text";
import { DEFAULT_LANGUAGE, languageOf } from "../text-language";
import { quoteIdent as q, type StoredField } from "./resource";

/** The text search configuration of CKAN's default language. */
export const FTS_CONFIG = DEFAULT_LANGUAGE;

/**
 * A language's text search configuration, as an SQL literal: PostgreSQL's own for english (as
 * CKAN, and as every resource made before languages), else ours, which unaccents first
 * (migrations.ts), in the engine's schema.
 */
export function ftsConfig(language: string = DEFAULT_LANGUAGE): string {
  const lang = languageOf(language) ?? DEFAULT_LANGUAGE;
  return lang === DEFAULT_LANGUAGE ? `'${FTS_CONFIG}'` : `'ds_${lang}'`;
}

/**
 * A row's tsvector: every field's value as text, space-separated (NULLs skipped). `alias` names
 * the row: `t` in reads and the bulk loader's UPDATE, `NEW` in the per-table trigger.
 */
export function fullTextExpression(columns: StoredField[], alias = "t", language = DEFAULT_LANGUAGE): string {
  return `to_tsvector(${ftsConfig(language)}, ${joined(columns.map((f) => `${alias}.${q(f.column)}::text`))})`;
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

/** One field's tsvector, for a condition on that field (`q` as an object), read in the
 *  search's language as CKAN reads it. */
export function fieldVector(field: StoredField, alias = "t", language = DEFAULT_LANGUAGE): string {
  return `to_tsvector(${ftsConfig(language)}, ${alias}.${q(field.column)}::text)`;
}

/** A tsquery from bound tsquery text (see tsquery()). */
export function toTsquery(placeholder: string, language = DEFAULT_LANGUAGE): string {
  return `to_tsquery(${ftsConfig(language)}, ${placeholder})`;
}

/** PostgreSQL's own reading of a plain q (CKAN's `plain: true`). */
export function plainToTsquery(placeholder: string, language = DEFAULT_LANGUAGE): string {
  return `plainto_tsquery(${ftsConfig(language)}, ${placeholder})`;
}

/** A word as a quoted tsquery operand: no character of it can be read as tsquery syntax. */
function lexeme(word: string, prefix: boolean): string {
  return `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`;
}

/**
 * Our query tree as tsquery text, to bind to to_tsquery(<config>, $n): each word quoted (the
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
