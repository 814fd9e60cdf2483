// The operators of `filters` (contract §6.2a), each defined once, as Datasette's filters.py
// defines its own: the value it takes, the condition it makes in SQL (written through an engine's
// SqlWriter, which alone knows quoting, casts and placeholders), how a row in memory meets it,
// and its words in the explorer's chips. No server imports: lib/view-state reads it in the browser.
import type { Filter } from "./engine";
import { CastError, isArrayType, type Stored, type TypeName } from "./types";

export type Scalar = string | number | boolean | null;

/** A condition on one field: a Filter that is not an and/or group. */
export type LeafFilter = Exclude<Filter, { op: "and" | "or" }>;
type Leaf<Op extends LeafFilter["op"]> = Extract<LeafFilter, { op: Op }>;
type Compare = Leaf<"eq" | "gt" | "gte" | "lt" | "lte">;
type CompareOp = Compare["op"];

/** What an operator asks of an engine to write its condition; `F` is the engine's field. */
export interface SqlWriter<F extends { type: TypeName } = { type: TypeName }> {
  readonly TRUE: string;
  readonly FALSE: string;
  /** The field a filter names, `_id` included; 409 on `filters` for one the resource lacks. */
  col(id: string): F;
  /** The field's column in the row being read. */
  column(field: F): string;
  /** A column as `=` and IN compare it (json by its text on PostgreSQL). */
  equatable(col: string, field: F): string;
  /** A side of <, <=, >, >= (an array by its order key on SQLite). */
  ordered(expr: string, field: F): string;
  /** The column holds an empty array. */
  emptyArray(col: string): string;
  /** A filter value as the field's column compares it; null for SQL NULL, which matches no row. */
  cast(field: F, value: unknown): Stored;
  /** A cast value bound as a parameter: its placeholder. */
  bind(field: F, value: Exclude<Stored, null>): string;
}

/** A value of a row in memory, and a filter value cast to compare with it (null: SQL NULL). */
type Cell = string | number | null;

interface Operator<L extends LeafFilter, V> {
  /** The condition a value makes; null when this operator does not take the value. */
  parse(field: string, value: unknown): L | null;
  /** What it takes, said after CKAN's "Unknown filter operation" message when refused. */
  takes?: string;
  /** The values an explorer URL may carry: JSON scalars (the API casts them). */
  inUrl(value: unknown): value is V;
  sql<F extends { type: TypeName }>(w: SqlWriter<F>, f: L): string;
  matches(cell: Cell, f: L, cast: (v: unknown) => Cell): boolean;
  /** Its words in an explorer chip ("not SEA"); without them a chip shows the condition as written. */
  words?(value: V): string;
}

const SIGNS = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** A scalar, or a non-empty list of them. */
function isScalarOrList(v: unknown): v is Scalar | Scalar[] {
  return isScalar(v) || (Array.isArray(v) && v.length > 0 && v.every(isScalar));
}

function isBoolean(v: unknown): v is boolean {
  return typeof v === "boolean";
}

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** True for a timestamp text with a non-zero fraction of a second ("…:05.25"). */
function hasFraction(v: unknown): boolean {
  return typeof v === "string" && /\d:\d{2}\.\d*[1-9]/.test(v);
}

/** `inUrl`: a scalar; `eq` takes a list too (an array column's value). */
function compare<V>(op: CompareOp, inUrl: (value: unknown) => value is V): Operator<Compare, V> {
  return {
    parse: (field, value) => ({ op, field, value }),
    inUrl,
    sql(w, f) {
      const field = w.col(f.field);
      const col = w.column(field);
      const v = w.cast(field, f.value);
      // SQL NULL compares as unknown: the row does not match (CKAN).
      if (v === null) return w.FALSE;
      // Stored timestamps are whole seconds; the cast drops a bound's fraction, so a bound
      // between two seconds moves the comparison to the whole second on its other side.
      let o: CompareOp = f.op;
      if (field.type === "timestamp" && hasFraction(f.value)) {
        if (o === "eq") return w.FALSE;
        o = o === "lt" ? "lte" : o === "gte" ? "gt" : o;
      }
      if (o === "eq") return `${w.equatable(col, field)} = ${w.bind(field, v)}`;
      if (field.type === "json") throw new CastError(`operator does not exist: json ${SIGNS[o]} unknown`);
      return `${w.ordered(col, field)} ${SIGNS[o]} ${w.ordered(w.bind(field, v), field)}`;
    },
    matches(cell, f, cast) {
      const v = cast(f.value);
      if (v === null || cell === null) return false;
      return f.op === "eq" ? cell === v : f.op === "gt" ? cell > v : f.op === "gte" ? cell >= v : f.op === "lt" ? cell < v : cell <= v;
    },
  };
}

/** The values of a list bound for the field's column, SQL NULLs left out (they match nothing). */
function boundList<F extends { type: TypeName }>(w: SqlWriter<F>, field: F, values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const v = w.cast(field, value);
    if (v !== null) out.push(w.bind(field, v));
  }
  return out;
}

const anyOf = {
  // CKAN builds SQL for `in` too, though its docs do not name it.
  parse: (field, value) => ({ op: "in", field, values: asList(value) }),
  inUrl: isScalarOrList,
  sql(w, f) {
    const field = w.col(f.field);
    const values = boundList(w, field, f.values);
    if (values.length === 0) return w.FALSE;
    const lhs = w.equatable(w.column(field), field);
    return values.length === 1 ? `${lhs} = ${values[0]}` : `${lhs} IN (${values.join(", ")})`;
  },
  matches: (cell, f, cast) => f.values.some((v) => cast(v) !== null && cast(v) === cell),
  words: (values: Scalar | Scalar[]) => asList(values).map(formatScalar).join(" or "),
} satisfies Operator<Leaf<"in">, Scalar | Scalar[]>;

/** Our extension `x_not_in`: none of the values; rows where the field is empty pass. */
const noneOf = {
  parse: (field, value) => (isScalar(value) || (Array.isArray(value) && value.every(isScalar)) ? { op: "not_in", field, values: asList(value) } : null),
  takes: "a value or a list of values",
  inUrl: isScalarOrList,
  sql(w, f) {
    const field = w.col(f.field);
    const col = w.column(field);
    const values = boundList(w, field, f.values);
    return values.length ? `(${col} IS NULL OR ${w.equatable(col, field)} NOT IN (${values.join(", ")}))` : w.TRUE;
  },
  matches: (cell, f, cast) => cell === null || !f.values.some((v) => cast(v) === cell),
  words: (values: Scalar | Scalar[]) => `not ${anyOf.words(values)}`,
} satisfies Operator<Leaf<"not_in">, Scalar | Scalar[]>;

/** Our extension `x_empty`: the field is NULL, "" (text) or [] (arrays); false negates it. */
const empty = {
  parse: (field, value) => (typeof value === "boolean" ? { op: "empty", field, empty: value } : null),
  takes: "true or false",
  inUrl: isBoolean,
  sql(w, f) {
    const field = w.col(f.field);
    const col = w.column(field);
    const blank = field.type === "text" ? ` OR ${col} = ''` : isArrayType(field.type) ? ` OR ${w.emptyArray(col)}` : "";
    return f.empty ? `(${col} IS NULL${blank})` : `NOT (${col} IS NULL${blank})`;
  },
  matches: (cell, f) => (cell === null || cell === "") === f.empty,
  words: (isEmpty: boolean) => (isEmpty ? "is empty" : "is not empty"),
} satisfies Operator<Leaf<"empty">, boolean>;

/** Every operator, by the name `filters` spells it with in a field's dict of operators. Our
 *  extensions carry an `x_` prefix, apart from any operator CKAN may add. */
export const OPERATORS = {
  eq: compare("eq", isScalarOrList),
  gt: compare("gt", isScalar),
  gte: compare("gte", isScalar),
  lt: compare("lt", isScalar),
  lte: compare("lte", isScalar),
  in: anyOf,
  x_not_in: noneOf,
  x_empty: empty,
};

export type OperatorName = keyof typeof OPERATORS;

/** A field's operators, as `filters` (and the explorer's URL) spells them; several are ANDed. */
export type OperatorValues = { [N in OperatorName]?: (typeof OPERATORS)[N] extends { inUrl(v: unknown): v is infer V } ? V : never };

const BY_NAME = new Map<string, Operator<LeafFilter, unknown>>(Object.entries(OPERATORS));

/** The operator `filters` names so (own names only: never `constructor` or `__proto__`). */
export function operatorNamed(name: string): Operator<LeafFilter, unknown> | undefined {
  return BY_NAME.get(name);
}

/** Each filter's operator, by the `op` it parses to. */
const BY_OP: Record<LeafFilter["op"], Operator<LeafFilter, unknown>> = {
  eq: OPERATORS.eq,
  gt: OPERATORS.gt,
  gte: OPERATORS.gte,
  lt: OPERATORS.lt,
  lte: OPERATORS.lte,
  in: OPERATORS.in,
  not_in: OPERATORS.x_not_in,
  empty: OPERATORS.x_empty,
};

/** A condition on one field as SQL, in the writer's dialect. */
export function conditionSql<F extends { type: TypeName }>(w: SqlWriter<F>, f: LeafFilter): string {
  return BY_OP[f.op].sql(w, f);
}

/** Whether a row's value in memory meets a condition (`cast`: a filter value as that cell compares). */
export function conditionMatches(cell: Cell, f: LeafFilter, cast: (v: unknown) => Cell): boolean {
  return BY_OP[f.op].matches(cell, f, cast);
}

// ------------------------------------------------------------------------------------ words

/** A value as a chip shows it: null and "" made visible. */
export function formatScalar(value: Scalar): string {
  if (value === null) return "null";
  if (value === "") return '""';
  return String(value);
}

/** A timestamp range over whole days reads as dates: from midnight, to the day's last second. */
export const fromDay = (v: Scalar) => (typeof v === "string" ? v.replace(/T00:00(:00)?$/, "") : v);
export const toDay = (v: Scalar) => (typeof v === "string" ? v.replace(/T23:59:59$/, "") : v);

/** The words of `gte` and `lte` on one field, both or either: "60 to 120", "from 60", "up to 120". */
export function rangeWords(gte: Scalar | undefined, lte: Scalar | undefined): string {
  if (gte != null && lte != null) return `${fromDay(gte)} to ${toDay(lte)}`;
  return gte != null ? `from ${fromDay(gte)}` : `up to ${toDay(lte ?? null)}`;
}
