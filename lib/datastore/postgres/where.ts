// The WHERE clause of a read or delete over `t`, in PostgreSQL's dialect: the shared builder
// (../where.ts) with `$n` placeholders (appended to the caller's list) cast to the column's type,
// json compared by its text, and full text as CKAN searches it. The values cast are the SQLite
// engine's, so both engines match the same rows and refuse the same values.
import type { Filter, FtsCondition } from "../engine";
import type { Stored } from "../types";
import { WhereBuilder } from "../where";
import { fieldVector, plainToTsquery, toTsquery, tsquery } from "./fts";
import { quoteIdent as q, type PgResource, type StoredField } from "./resource";
import { columnType, storedParam } from "./values";

/** The rank of rows no positive term matched (a negated or empty query). */
const NO_RANK = "0::real";

export class PgWhere extends WhereBuilder {
  readonly TRUE = "TRUE";
  readonly FALSE = "FALSE";
  /** The full-text conditions, apart from `parts` (a best-first page is full text alone). */
  fts: string[] = [];

  constructor(
    readonly r: PgResource,
    readonly params: unknown[],
  ) {
    super(r.columns);
  }

  column(field: StoredField): string {
    return `t.${q(field.column)}`;
  }

  /** PostgreSQL text holds no NUL, so such a value equals no stored text: as SQL NULL. */
  cast(field: StoredField, v: unknown): Stored {
    const value = super.cast(field, v);
    return field.type === "text" && typeof value === "string" && value.includes("\u0000") ? null : value;
  }

  /** The placeholder cast to the column's type. An integer bound stays bigint (or numeric, past
   *  2^53), which keeps the comparison on an integer column's btree (cross-type integer ops). */
  bind(field: StoredField, value: Exclude<Stored, null>): string {
    const t = field.type;
    if (this.isInteger(field)) return this.placeholder(value, typeof value === "bigint" || Number.isSafeInteger(value) ? "::int8" : "::numeric");
    if (t === "text" || t === "json") return this.placeholder(value, "::text");
    return this.placeholder(storedParam(t, value), `::${columnType(t)}`);
  }

  /** One lookup in the `_id` index per listed id, as the spread sample's condition (spread-sample.ts). */
  idIn(ids: number[]): string {
    return `t._id = ANY(${this.placeholder(ids, "::int8[]")})`;
  }

  private placeholder(value: unknown, cast: string): string {
    return `$${this.params.push(value)}${cast}`;
  }

  /** json has no equality: compared by its text, as SQLite compares its stored JSON. */
  equatable(col: string, field: StoredField): string {
    return field.type === "json" ? `${col}::text` : col;
  }

  /** Arrays compare element by element, natively (the order sqlite/array-order.ts imitates). */
  ordered(expr: string): string {
    return expr;
  }

  emptyArray(col: string): string {
    return `cardinality(${col}) = 0`;
  }

  /** Adds the full-text conditions and their rank expressions (`ranks`), CKAN's way. */
  fullText(conds: FtsCondition[]): void {
    for (const c of conds) {
      if (c.tree === null || this.r.columns.size === 0) {
        this.fts.push(this.FALSE);
        this.ranks.set(c.rank, NO_RANK);
        continue;
      }
      // A plain q goes to PostgreSQL's own parser, as CKAN's plainto_tsquery; the tree for tsquery syntax.
      const language = c.language ?? this.r.language;
      const query = c.text !== undefined ? plainToTsquery(this.placeholder(c.text, ""), language) : toTsquery(this.placeholder(tsquery(c.tree), ""), language);
      const vector = c.field === null ? "t._full_text" : fieldVector(this.col(c.field), "t", language);
      this.fts.push(`${vector} @@ ${query}`);
      this.ranks.set(c.rank, `ts_rank(${vector}, ${query}, 32)`);
    }
  }

  /** The whole condition (filters and full text); TRUE when there is none. */
  sql(): string {
    const all = [...this.parts, ...this.fts];
    return all.length ? all.join(" AND ") : "TRUE";
  }

  /** Whether anything narrows the rows. */
  get empty(): boolean {
    return this.parts.length === 0 && this.fts.length === 0;
  }
}

/** The condition of `filters` over `t`, its values appended to `params` (deletes use it). */
export function whereSql(r: PgResource, filters: Filter[], params: unknown[]): string {
  const w = new PgWhere(r, params);
  for (const f of filters) w.filter(f);
  return w.sql();
}
