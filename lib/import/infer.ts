// Column types from a sample of rows: each value has a kind, a column's type is the join of
// its kinds over the sample (ints and decimals make numeric, dates and timestamps make
// timestamp, anything else mixed makes text). A value met later that its column cannot hold
// widens the type the same way (see `widen`), and the import starts over with it.
import { CastError, toStorage, type TypeName } from "../datastore/types";

export type Kind = "empty" | "bool" | "int" | "bigint" | "float" | "decimal" | "date" | "timestamp" | "json" | "text";

const INT_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const BOOL_WORDS = new Set(["true", "false", "t", "f", "yes", "no", "y", "n"]);
const INT4_MAX = 2147483647;

function validAs(t: TypeName, s: string): boolean {
  try {
    toStorage(t, s);
    return true;
  } catch (e) {
    if (e instanceof CastError) return false;
    throw e;
  }
}

function intKind(n: number): Kind {
  if (Math.abs(n) <= INT4_MAX) return "int";
  return Number.isSafeInteger(n) ? "bigint" : "decimal";
}

/** The kind of one value, as read from a file. */
export function kindOf(v: unknown): Kind {
  if (v === null || v === undefined || v === "") return "empty";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? intKind(v) : "float";
    case "bigint":
      return Number.isSafeInteger(Number(v)) ? intKind(Number(v)) : "text";
    case "object":
      return "json";
    case "string":
      break;
    default:
      return "text";
  }
  const s = (v as string).trim(); // the casts trim too
  if (s === "") return "text";
  if (INT_RE.test(s)) {
    // Leading zeros are identifiers (zip codes, ids): keep them as text.
    const digits = s.replace(/^[+-]/, "");
    if (digits.length > 1 && digits.startsWith("0")) return "text";
    const n = Number(s);
    return Number.isSafeInteger(n) ? intKind(n) : "text";
  }
  if (DECIMAL_RE.test(s)) return Number.isFinite(Number(s)) ? "decimal" : "text";
  if (BOOL_WORDS.has(s.toLowerCase())) return "bool";
  if (ISO_DATE_RE.test(s)) return validAs("date", s) ? "date" : "text";
  if (ISO_TIMESTAMP_RE.test(s)) return validAs("timestamp", s) ? "timestamp" : "text";
  return "text";
}

const NUMERIC: Kind[] = ["int", "bigint", "float", "decimal"];

/** The least kind holding both. */
export function join(a: Kind, b: Kind): Kind {
  if (a === b || b === "empty") return a;
  if (a === "empty") return b;
  if (a === "json" || b === "json") return "json";
  if (NUMERIC.includes(a) && NUMERIC.includes(b)) {
    if (a === "decimal" || b === "decimal") return "decimal";
    if (a === "float" || b === "float") return (a === "bigint" || b === "bigint") ? "decimal" : "float";
    return "bigint"; // int + bigint
  }
  if ((a === "date" && b === "timestamp") || (a === "timestamp" && b === "date")) return "timestamp";
  return "text";
}

const TYPE_OF: Record<Kind, TypeName> = {
  empty: "text",
  bool: "bool",
  int: "int4",
  bigint: "int8",
  float: "float8",
  decimal: "numeric",
  date: "date",
  timestamp: "timestamp",
  json: "json",
  text: "text",
};

const KIND_OF_TYPE: Partial<Record<TypeName, Kind>> = {
  bool: "bool",
  int2: "int",
  int4: "int",
  int8: "bigint",
  float4: "float",
  float8: "float",
  numeric: "decimal",
  date: "date",
  timestamp: "timestamp",
  json: "json",
  text: "text",
};

function typeOfKind(k: Kind): TypeName {
  return TYPE_OF[k];
}

/** Per-column kinds over a sample; columns with no value at all become text. */
export class TypeSampler {
  readonly kinds: Kind[];
  constructor(width: number) {
    this.kinds = new Array<Kind>(width).fill("empty");
  }

  add(row: unknown[]): void {
    const kinds = this.kinds;
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] === "text") continue;
      const k = kindOf(row[i]);
      if (k !== "empty") kinds[i] = join(kinds[i], k);
    }
  }

  types(): TypeName[] {
    return this.kinds.map(typeOfKind);
  }
}

/**
 * The type a column must widen to for `value` to load, or null when it already fits or
 * no wider type would help. Checks what the casts alone would let through with a loss:
 * a JSON fraction into an integer column (rounded) and a time into a date column (dropped).
 */
export function widen(current: TypeName, value: unknown): TypeName | null {
  const have = KIND_OF_TYPE[current];
  if (!have) return null; // array and time columns are only ever declared, never inferred
  const next = typeOfKind(join(have, kindOf(value)));
  return next === current ? null : next;
}

/** True when the casts would load `value` into a column of type `t` without losing part of it. */
export function fitsLosslessly(t: TypeName, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if ((t === "int4" || t === "int8" || t === "int2") && typeof value === "number") return Number.isInteger(value);
  if (t === "date" && typeof value === "string") return kindOf(value) !== "timestamp";
  return true;
}
