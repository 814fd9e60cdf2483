// The WHERE clause of a read or delete over `t` (the resource table): filters and full-text
// conditions, with every value a bound parameter and every identifier from the catalog.
import type { Filter, FtsCondition } from "../engine";
import { DatastoreError } from "../errors";
import { CastError, isArrayType, toStorage, type Stored, type TypeName } from "../types";
import { str } from "../validate";
import { ID_FIELD, type Internal, type StoredField } from "./catalog";
import { DEADLINE_CHECK } from "./deadline";
import { ftsTable } from "./fts-index";
import { compileFts, quoteIdent as q } from "./sql";

/** The rank of rows no positive term matched. A real, not an integer: SQLite reads
 *  `ORDER BY 0` as a column number. */
const NO_RANK = "0.0";

export class Where {
  parts: string[] = [];
  params: unknown[] = [];
  ftsJoin = "";
  /** The positive full-text expression (the first parameter when there is one). */
  ftsMatch: string | null = null;
  /** Rank expressions by rank column name ("rank", "rank <field>"). */
  ranks = new Map<string, string>();

  constructor(readonly r: Internal) {}

  private col(fieldId: string): StoredField {
    if (fieldId === "_id") return ID_FIELD;
    const f = this.r.columns.get(fieldId);
    if (!f) throw DatastoreError.field("filters", `field "${fieldId}" not in table`);
    return f;
  }

  filter(f: Filter): void {
    const field = this.col(f.field);
    const values: Stored[] = [];
    for (const v of f.values) {
      // A filter compares `= NULL`, which matches nothing (CKAN 2.11).
      if (v === null) continue;
      const stored = field === ID_FIELD ? toStorage("int8", v) : filterValue(field.type, v);
      if (stored !== null) values.push(stored);
    }
    if (values.length === 0) {
      this.parts.push("0");
      return;
    }
    const col = `t.${q(field.column)}`;
    this.parts.push(values.length === 1 ? `${col} = ?` : `${col} IN (${values.map(() => "?").join(", ")})`);
    this.params.push(...values);
  }

  /** Adds the full-text conditions and their rank expressions (`ranks`). */
  fullText(conds: FtsCondition[]): void {
    if (conds.length === 0) return;
    const fts = ftsTable(this.r.table);
    const fields = [...this.r.columns.values()];
    const positive: string[] = [];
    const positiveConds: FtsCondition[] = [];
    for (const c of conds) {
      if (c.tree === null || fields.length === 0) {
        this.parts.push("0");
        this.ranks.set(c.rank, NO_RANK);
        continue;
      }
      const compiled = compileFts(c.tree);
      const scoped = c.field === null ? compiled.expr : `${q(this.col(c.field).column)} : (${compiled.expr})`;
      if (compiled.negated) {
        this.parts.push(`t._id NOT IN (SELECT rowid FROM ${q(fts)} WHERE ${q(fts)} MATCH ?)`);
        this.params.push(scoped);
        this.ranks.set(c.rank, NO_RANK);
      } else {
        positive.push(`(${scoped})`);
        positiveConds.push(c);
      }
    }
    if (positive.length === 0) return;
    // The MATCH goes first in the parameter list: it sits in the JOIN, before the WHERE.
    this.ftsJoin = `JOIN ${q(fts)} ON ${q(fts)}.rowid = t._id AND ${q(fts)} MATCH ?`;
    this.ftsMatch = positive.join(" AND ");
    this.params.unshift(this.ftsMatch);
    for (const c of positiveConds) this.ranks.set(c.rank, bm25(fts, fields, c.field));
  }

  /** The condition, with the deadline check (see deadline.ts) unless `deadline` is false. */
  sql(deadline = true): string {
    return deadline ? allOf([...this.parts, DEADLINE_CHECK]) : allOf(this.parts);
  }
}

/**
 * FTS5's bm25 over the whole row, or over one field: one weight per column isolates the field.
 * bm25() takes at most 1000 arguments, so the widest tables rank a field's matches over the
 * whole row instead.
 */
function bm25(fts: string, fields: StoredField[], field: string | null): string {
  const weights = field === null || fields.length >= 1000 ? "" : fields.map((f) => (f.id === field ? ", 1.0" : ", 0.0")).join("");
  return `bm25(${q(fts)}${weights})`;
}

/** bm25 is ≤ 0, lower is better; CKAN's rank is in [0, 1), higher is better. */
export function bm25ToRank(raw: number | null): number {
  const s = raw === null ? 0 : -raw;
  return s / (1 + s);
}

/** ANDs conditions as a balanced tree, in order: SQLite refuses expressions over 1000 deep,
 *  which a plain chain of one condition per filter (or key column) would reach. */
export function allOf(parts: string[]): string {
  if (parts.length <= 8) return parts.join(" AND ");
  const mid = parts.length >> 1;
  return `(${allOf(parts.slice(0, mid))}) AND (${allOf(parts.slice(mid))})`;
}

/** Casts a filter value for comparison with a column (CKAN stringifies values for text). */
function filterValue(t: TypeName, v: unknown): Stored {
  if (t === "text") return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (t === "json") return JSON.stringify(v);
  if (isArrayType(t) && !Array.isArray(v)) throw new CastError(`malformed array literal: "${str(v)}"`);
  return toStorage(t, v);
}
