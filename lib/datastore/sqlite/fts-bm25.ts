// FTS5's bm25 for a row another index matched: the same formula (SQLite's fts5_aux.c) over the
// live index's statistics (its row count, mean row length in tokens, and each phrase's row
// count), so a row ranks as it would in the live index. A past row that only a small index
// of the temp schema holds (past-fts.ts) then ranks on the scale of today's rows.
import type { StoredField } from "./catalog";
import type { DB } from "./connection";
import { quoteIdent as q } from "./sql";

/** A MATCH expression as FTS5 reads it: phrases (in the order written), AND, OR, binary NOT. */
export type MatchNode = { op: "phrase"; index: number; text: string; column: string | null } | { op: "and" | "or" | "not"; children: MatchNode[] };

/**
 * Parses the expressions sql.ts compiles (quoted words, `*` prefixes, parentheses, AND, OR,
 * NOT, and `"column" : (…)` filters); FTS5 binds NOT tighter than AND, AND than OR.
 */
export function parseMatch(expr: string): { tree: MatchNode; phrases: Extract<MatchNode, { op: "phrase" }>[] } {
  const tokens = expr.match(/"(?:[^"]|"")*"|\*|\(|\)|:|AND|OR|NOT/g) ?? [];
  const phrases: Extract<MatchNode, { op: "phrase" }>[] = [];
  let at = 0;
  const binary = (op: "and" | "or" | "not", word: string, next: (column: string | null) => MatchNode) => (column: string | null): MatchNode => {
    const children = [next(column)];
    while (tokens[at] === word) {
      at++;
      children.push(next(column));
    }
    return children.length === 1 ? children[0] : { op, children };
  };
  const primary = (column: string | null): MatchNode => {
    const t = tokens[at++];
    if (t === "(") {
      const inner = or(column);
      at++; // ")"
      return inner;
    }
    if (tokens[at] === ":") {
      at++;
      return primary(t.slice(1, -1).replace(/""/g, '"'));
    }
    const prefix = tokens[at] === "*";
    if (prefix) at++;
    const phrase = { op: "phrase" as const, index: phrases.length, text: prefix ? `${t} *` : t, column };
    phrases.push(phrase);
    return phrase;
  };
  // NOT is binary and left-associative: a NOT b NOT c is (a NOT b) NOT c.
  const not = (column: string | null): MatchNode => {
    let node = primary(column);
    while (tokens[at] === "NOT") {
      at++;
      node = { op: "not", children: [node, primary(column)] };
    }
    return node;
  };
  const and = binary("and", "AND", not);
  const or = binary("or", "OR", and);
  return { tree: or(null), phrases };
}

/** The live index's totals: rows, and tokens in all its columns (FTS5's averages record). */
export interface IndexTotals {
  rows: number;
  tokens: number;
}

/** The values of a record of SQLite varints, as FTS5 writes its records. */
function varints(blob: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < blob.length; ) {
    let v = 0;
    for (let n = 0; ; n++) {
      const b = blob[i++];
      if (n === 8) {
        v = v * 256 + b;
        break;
      }
      v = v * 128 + (b & 0x7f);
      if (b < 0x80) break;
    }
    out.push(v);
  }
  return out;
}

export function indexTotals(db: DB, schema: string, fts: string): IndexTotals {
  const blob = db.prepare(`SELECT block FROM ${schema}.${q(`${fts}_data`)} WHERE id = 1`).pluck().get() as Uint8Array | undefined;
  if (!blob) return { rows: 0, tokens: 0 };
  const [rows, ...columns] = varints(blob);
  return { rows, tokens: columns.reduce((a, b) => a + b, 0) };
}

/** A row's length in tokens, from its `_docsize` record (one varint a column). */
export function rowTokens(sizes: Uint8Array): number {
  return varints(sizes).reduce((a, b) => a + b, 0);
}

/** Each phrase's idf as bm25 computes it from the rows that hold it (`held`) among `rows`. */
export function idfs(totals: IndexTotals, held: number[]): number[] {
  return held.map((n) => {
    const idf = Math.log((totals.rows - n + 0.5) / (n + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  });
}

/**
 * bm25 (≤ 0, lower is better) of a row: `counts[phrase]` maps a column to how often the phrase
 * occurs there, `tokens` is the row's length. As FTS5 does, a phrase counts only within parts of
 * the expression that match the row (its fts5ExprCheckPoslists), each column by its weight.
 */
export function bm25(tree: MatchNode, counts: Map<string, number>[], tokens: number, idf: number[], totals: IndexTotals, weights: Map<string, number> | null): number {
  const freq = new Array<number>(idf.length).fill(0);
  const kept = (node: MatchNode): number[] | null => {
    if (node.op === "phrase") return counts[node.index].size > 0 ? [node.index] : null;
    const parts = node.children.map(kept);
    if (node.op === "and") return parts.every((p) => p !== null) ? (parts as number[][]).flat() : null;
    if (node.op === "or") return parts.some((p) => p !== null) ? parts.flatMap((p) => p ?? []) : null;
    return parts[0] !== null && parts[1] === null ? parts[0] : null;
  };
  for (const i of kept(tree) ?? []) {
    for (const [column, n] of counts[i]) freq[i] += n * (weights ? (weights.get(column) ?? 0) : 1);
  }
  const k1 = 1.2;
  const b = 0.75;
  const avgdl = totals.tokens / totals.rows;
  let score = 0;
  for (let i = 0; i < idf.length; i++) score += (idf[i] * (freq[i] * (k1 + 1.0))) / (freq[i] + k1 * (1 - b + (b * tokens) / avgdl));
  return -1.0 * score;
}

/** bm25's column weights for a rank over one field (the others weigh 0), or none: the whole row.
 *  bm25() takes at most 1000 arguments, so the widest tables rank a field over the whole row. */
export function bm25Weights(fields: StoredField[], field: string | null): number[] | null {
  return field === null || fields.length >= 1000 ? null : fields.map((f) => (f.id === field ? 1 : 0));
}

/** FTS5's bm25() over the index named `index` (quoted), the whole row or one field. */
export function bm25Call(index: string, fields: StoredField[], field: string | null): string {
  const weights = bm25Weights(fields, field);
  return `bm25(${index}${weights ? weights.map((w) => `, ${w.toFixed(1)}`).join("") : ""})`;
}
