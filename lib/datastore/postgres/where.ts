// The WHERE clause of a read or delete over `t` (the resource table): filters and full-text
// conditions, with every value a bound parameter ($n, appended to the caller's list) and every
// identifier from the catalog. Values are cast as equality casts them in the SQLite engine
// (sqlite/where.ts), so both engines match the same rows and refuse the same values.
import type { Filter, FtsCondition } from "../engine";
import { DatastoreError } from "../errors";
import { pyStr } from "../filters";
import { CastError, isArrayType, toStorage, type TypeName } from "../types";
import { str } from "../validate";
import { fieldVector, plainToTsquery, toTsquery, tsquery } from "./fts";
import { ID_FIELD, quoteIdent as q, type PgResource, type StoredField } from "./resource";
import { columnType, toParam } from "./values";

/** A value to bind, and the cast its placeholder needs. */
interface Bound {
  value: unknown;
  cast: string;
}

/** The rank of rows no positive term matched (a negated or empty query). */
const NO_RANK = "0::real";

export class PgWhere {
  parts: string[] = [];
  /** Rank expressions by rank column name ("rank", "rank <field>"). */
  ranks = new Map<string, string>();
  /** The full-text conditions, apart from `parts` (a best-first page is full text alone). */
  fts: string[] = [];

  constructor(
    readonly r: PgResource,
    readonly params: unknown[],
  ) {}

  field(fieldId: string): StoredField {
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
        return f.of.length ? `(${f.of.map((x) => this.compile(x)).join(" AND ")})` : "TRUE";
      case "or":
        return f.of.length ? `(${f.of.map((x) => this.compile(x)).join(" OR ")})` : "FALSE";
      case "empty": {
        const { col, field } = this.column(f.field);
        const blank = field.type === "text" ? ` OR ${col} = ''` : isArrayType(field.type) ? ` OR cardinality(${col}) = 0` : "";
        return f.empty ? `(${col} IS NULL${blank})` : `NOT (${col} IS NULL${blank})`;
      }
      case "in":
      case "not_in": {
        const { col, field } = this.column(f.field);
        const values = f.values
          .map((v) => this.value(field, v))
          .filter((v): v is Bound => v !== null)
          .map((v) => this.bind(v));
        const lhs = field.type === "json" ? `${col}::text` : col;
        if (f.op === "not_in") return values.length ? `(${col} IS NULL OR ${lhs} NOT IN (${values.join(", ")}))` : "TRUE";
        if (values.length === 0) return "FALSE";
        return values.length === 1 ? `${lhs} = ${values[0]}` : `${lhs} IN (${values.join(", ")})`;
      }
      default: {
        const { col, field } = this.column(f.field);
        // Stored timestamps are whole seconds; the cast drops a bound's fraction, so a bound
        // between two seconds moves the comparison to the whole second on its other side.
        const value = this.value(field, f.value);
        // SQL NULL compares as unknown: the row does not match (CKAN).
        if (value === null) return "FALSE";
        let op = f.op;
        if (field.type === "timestamp" && hasFraction(f.value)) {
          if (op === "eq") return "FALSE";
          op = op === "lt" ? "lte" : op === "gte" ? "gt" : op;
        }
        if (field.type === "json" && op !== "eq") throw new CastError(`operator does not exist: json ${SQL_OPS[op]} unknown`);
        const v = this.bind(value);
        if (op === "eq") return field.type === "json" ? `${col}::text = ${v}` : `${col} = ${v}`;
        // Arrays compare element by element, natively (the order sqlite/array-order.ts imitates).
        return `${col} ${SQL_OPS[op]} ${v}`;
      }
    }
  }

  private column(fieldId: string): { col: string; field: StoredField } {
    const field = this.field(fieldId);
    return { col: `t.${q(field.column)}`, field };
  }

  private bind(b: Bound): string {
    return `$${this.params.push(b.value)}${b.cast}`;
  }

  /**
   * A filter value cast for comparison with the field's column (and the SQL cast its parameter
   * needs), or null for SQL NULL. A JSON number compared with an integer column stays as it is:
   * `int4 > 5.5` compares exactly, and a bound past the column's range is no error (as SQLite
   * compares).
   */
  private value(field: StoredField, v: unknown): Bound | null {
    const integer = field === ID_FIELD || INTEGER_TYPES.has(field.type);
    if (integer && typeof v === "number" && Number.isFinite(v)) {
      // A bigint bound keeps the comparison on the column's btree (cross-type integer ops).
      return { value: v, cast: Number.isSafeInteger(v) ? "::int8" : "::numeric" };
    }
    if (field === ID_FIELD) return v === null ? null : { value: toStorage("int8", v), cast: "::int8" };
    const t = field.type;
    if (t === "text") {
      // PostgreSQL text holds no NUL, so such a value equals no stored text: as SQL NULL.
      const text = pyStr(v);
      return text.includes("\u0000") ? null : { value: text, cast: "::text" };
    }
    if (v === null) return null;
    if (t === "json") return { value: JSON.stringify(v), cast: "::text" };
    if (isArrayType(t) && !Array.isArray(v)) throw new CastError(`malformed array literal: "${str(v)}"`);
    const p = toParam(t, v);
    return p === null ? null : { value: p, cast: `::${columnType(t)}` };
  }

  /** Adds the full-text conditions and their rank expressions (`ranks`), CKAN's way. */
  fullText(conds: FtsCondition[]): void {
    for (const c of conds) {
      if (c.tree === null || this.r.columns.size === 0) {
        this.fts.push("FALSE");
        this.ranks.set(c.rank, NO_RANK);
        continue;
      }
      // A plain q goes to PostgreSQL's own parser, as CKAN's plainto_tsquery; the tree for tsquery syntax.
      const query = c.text !== undefined ? plainToTsquery(this.bind({ value: c.text, cast: "" })) : toTsquery(this.bind({ value: tsquery(c.tree), cast: "" }));
      const vector = c.field === null ? "t._full_text" : fieldVector(this.field(c.field));
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

const SQL_OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

const INTEGER_TYPES = new Set<TypeName>(["int2", "int4", "int8"]);

/** True for a timestamp text with a non-zero fraction of a second ("…:05.25"). */
function hasFraction(v: unknown): boolean {
  return typeof v === "string" && /\d:\d{2}\.\d*[1-9]/.test(v);
}
