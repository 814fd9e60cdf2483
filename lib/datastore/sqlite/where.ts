// The WHERE clause of a read or delete over `t`, in SQLite's dialect: the shared builder
// (../where.ts) with `?` placeholders, values as the columns store them, arrays compared by their
// order key (array-order.ts), and full text through the resource's FTS5 table.
import type { FtsCondition } from "../engine";
import { DEFAULT_LANGUAGE } from "../text-language";
import { isArrayType, type Stored } from "../types";
import { WhereBuilder, allOf } from "../where";
import type { Internal, StoredField } from "./catalog";
import { DEADLINE_CHECK } from "./deadline";
import { bm25Call } from "./fts-bm25";
import { ftsTable } from "./fts-index";
import { pastTextOf } from "./past-fts";
import { compileFts, quoteIdent as q } from "./sql";

/** The rank of rows no positive term matched. A real, not an integer: SQLite reads
 *  `ORDER BY 0` as a column number. */
const NO_RANK = "0.0";

export class Where extends WhereBuilder {
  readonly TRUE = "1";
  readonly FALSE = "0";
  params: unknown[] = [];
  ftsJoin = "";
  /** The positive full-text expression (the first parameter when there is one). */
  ftsMatch: string | null = null;
  /** At a past version: the temp table of its matches (past-fts.ts), and the column of each
   *  rank expression there. */
  pastRanks: { table: string; columns: Map<string, string> } | null = null;

  constructor(readonly r: Internal) {
    super(r.columns);
  }

  column(field: StoredField): string {
    return `t.${q(field.column)}`;
  }

  bind(_field: StoredField, value: Exclude<Stored, null>): string {
    this.params.push(value);
    return "?";
  }

  equatable(col: string): string {
    return col;
  }

  /** One rowid lookup per listed id, as the spread sample's condition (spread-sample.ts). */
  idIn(ids: number[]): string {
    this.params.push(JSON.stringify(ids));
    return "t._id IN (SELECT value FROM json_each(?))";
  }

  /** Arrays order element by element, as in PostgreSQL (array-order.ts). */
  ordered(expr: string, field: StoredField): string {
    return isArrayType(field.type) ? `ds_array_key(${expr})` : expr;
  }

  emptyArray(col: string): string {
    return `${col} = '[]'`;
  }

  /** Adds the full-text conditions and their rank expressions (`ranks`). */
  fullText(conds: FtsCondition[]): void {
    if (conds.length === 0) return;
    const fts = ftsTable(this.r.table);
    const fields = [...this.r.columns.values()];
    // At a past version (as_of), the rows then: today's unchanged ones and the images of the rest.
    const past = pastTextOf(this.r);
    const positive: string[] = [];
    const positiveConds: FtsCondition[] = [];
    for (const c of conds) {
      if (c.tree === null || fields.length === 0) {
        this.parts.push(this.FALSE);
        this.ranks.set(c.rank, NO_RANK);
        continue;
      }
      const index = this.r.language ?? DEFAULT_LANGUAGE;
      const compiled = compileFts(c.tree, { query: c.language ?? index, index });
      const scoped = c.field === null ? compiled.expr : `${q(this.col(c.field).column)} : (${compiled.expr})`;
      if (compiled.negated) {
        const matching = past ? past.matching(scoped) : { sql: `SELECT rowid FROM ${q(fts)} WHERE ${q(fts)} MATCH ?`, params: [scoped] };
        this.parts.push(`t._id NOT IN (${matching.sql})`);
        this.params.push(...matching.params);
        this.ranks.set(c.rank, NO_RANK);
      } else {
        positive.push(`(${scoped})`);
        positiveConds.push(c);
      }
    }
    if (positive.length === 0) return;
    if (past) {
      // A past version's matches and ranks, made once (past-fts.ts): a condition on the rows, and a
      // rank looked up by `_id`.
      const table = past.ranked(positive.join(" AND "), positiveConds.map((c) => c.field));
      this.parts.push(`t._id IN (SELECT id FROM temp.${q(table)})`);
      this.pastRanks = { table, columns: new Map() };
      positiveConds.forEach((c, k) => {
        const expr = `(SELECT s${k} FROM temp.${q(table)} WHERE id = t._id)`;
        this.ranks.set(c.rank, expr);
        this.pastRanks!.columns.set(expr, `s${k}`);
      });
      return;
    }
    // The MATCH goes first in the parameter list: it sits in the JOIN, before the WHERE.
    this.ftsJoin = `JOIN ${q(fts)} ON ${q(fts)}.rowid = t._id AND ${q(fts)} MATCH ?`;
    this.ftsMatch = positive.join(" AND ");
    this.params.unshift(this.ftsMatch);
    for (const c of positiveConds) this.ranks.set(c.rank, bm25Call(q(fts), fields, c.field));
  }

  /** The condition, with the deadline check (see deadline.ts) unless `deadline` is false. */
  sql(deadline = true): string {
    return deadline ? allOf([...this.parts, DEADLINE_CHECK]) : allOf(this.parts);
  }
}

/** bm25 is ≤ 0, lower is better; CKAN's rank is in [0, 1), higher is better. */
export function bm25ToRank(raw: number | null): number {
  const s = raw === null ? 0 : -raw;
  return s / (1 + s);
}
