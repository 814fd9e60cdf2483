// The WHERE clause of a read or delete over `t` (the resource table): filters and full-text
// conditions, with every value a bound parameter and every identifier from the catalog.
import type { Filter, FtsCondition } from "../engine";
import { DatastoreError } from "../errors";
import { CastError, isArrayType, toStorage, type Stored, type TypeName } from "../types";
import { pyStr } from "../filters";
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

  /** ANDs a filter tree (engine.ts Filter) into the condition. */
  filter(f: Filter): void {
    this.parts.push(this.compile(f));
  }

  private compile(f: Filter): string {
    switch (f.op) {
      case "and":
        return f.of.length ? `(${allOf(f.of.map((x) => this.compile(x)))})` : "1";
      case "or":
        return f.of.length ? `(${anyOf(f.of.map((x) => this.compile(x)))})` : "0";
      case "empty": {
        const { col, field } = this.column(f.field);
        const blank = field.type === "text" ? ` OR ${col} = ''` : isArrayType(field.type) ? ` OR ${col} = '[]'` : "";
        return f.empty ? `(${col} IS NULL${blank})` : `NOT (${col} IS NULL${blank})`;
      }
      case "in":
      case "not_in": {
        const { col, field } = this.column(f.field);
        const values = f.values.map((v) => this.cast(field, v)).filter((v) => v !== null);
        if (f.op === "not_in") return values.length ? `(${col} IS NULL OR ${col} NOT IN (${this.bind(values)}))` : "1";
        if (values.length === 0) return "0";
        return values.length === 1 ? `${col} = ${this.bind(values)}` : `${col} IN (${this.bind(values)})`;
      }
      default: {
        const { col, field } = this.column(f.field);
        const v = this.cast(field, f.value);
        // SQL NULL compares as unknown: the row does not match (CKAN).
        if (v === null) return "0";
        // Stored timestamps are whole seconds; the cast drops a bound's fraction, so a bound
        // between two seconds moves the comparison to the whole second on its other side.
        let op = f.op;
        if (field.type === "timestamp" && hasFraction(f.value)) {
          if (op === "eq") return "0";
          op = op === "lt" ? "lte" : op === "gte" ? "gt" : op;
        }
        if (op === "eq") return `${col} = ${this.bind([v])}`;
        if (field.type === "json") throw new CastError(`operator does not exist: json ${SQL_OPS[op]} unknown`);
        // Arrays order element by element, as in PostgreSQL (array-order.ts).
        if (isArrayType(field.type)) return `ds_array_key(${col}) ${SQL_OPS[op]} ds_array_key(${this.bind([v])})`;
        return `${col} ${SQL_OPS[op]} ${this.bind([v])}`;
      }
    }
  }

  private column(fieldId: string): { col: string; field: StoredField } {
    const field = this.col(fieldId);
    return { col: `t.${q(field.column)}`, field };
  }

  private bind(values: Stored[]): string {
    this.params.push(...values);
    return values.map(() => "?").join(", ");
  }

  /** A filter value as the column stores it; null for SQL NULL. A JSON number compared with
   *  an integer column stays as it is (PostgreSQL compares `int4 > 5.5` exactly, and a
   *  bound past the type's range is no error there). */
  private cast(field: StoredField, v: unknown): Stored {
    const integer = field === ID_FIELD || INTEGER_TYPES.has(field.type);
    if (integer && typeof v === "number" && Number.isFinite(v)) return v;
    if (field === ID_FIELD) return v === null ? null : toStorage("int8", v);
    return filterValue(field.type, v);
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

const SQL_OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

const INTEGER_TYPES = new Set<TypeName>(["int2", "int4", "int8"]);

/** True for a timestamp text with a non-zero fraction of a second ("…:05.25"). */
function hasFraction(v: unknown): boolean {
  return typeof v === "string" && /\d:\d{2}\.\d*[1-9]/.test(v);
}

/** ORs conditions as a balanced tree (see allOf). */
function anyOf(parts: string[]): string {
  if (parts.length <= 8) return parts.join(" OR ");
  const mid = parts.length >> 1;
  return `(${anyOf(parts.slice(0, mid))}) OR (${anyOf(parts.slice(mid))})`;
}

/** Casts a filter value for comparison with a column. CKAN 2.12 passes every value for a text
 *  field through Python's str() first, so `null` there is the text "None". */
function filterValue(t: TypeName, v: unknown): Stored {
  if (t === "text") return pyStr(v);
  if (v === null) return null;
  if (t === "json") return JSON.stringify(v);
  if (isArrayType(t) && !Array.isArray(v)) throw new CastError(`malformed array literal: "${str(v)}"`);
  return toStorage(t, v);
}
