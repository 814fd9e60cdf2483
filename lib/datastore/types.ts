// Field types: the one place that knows how a declared CKAN/PostgreSQL type name maps to
// a reported type, a storage class, and how values are cast on the way in and rendered on
// the way out (JSON records, PG-style text for csv/tsv/full text). Contract §2.

import { hasBrand, mark } from "../brand";

type ScalarType =
  | "text"
  | "int2"
  | "int4"
  | "int8"
  | "float4"
  | "float8"
  | "numeric"
  | "bool"
  | "date"
  | "time"
  | "timestamp"
  | "json";

/** Reported type name: PG's typname (`int4`, `_text` for arrays). */
export type TypeName = ScalarType | `_${Exclude<ScalarType, "json">}`;

export type Stored = string | number | bigint | null;

export class CastError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "CastError");
  }

  constructor(message?: string) {
    super(message);
    mark(this, "CastError");
  }
}

const ALIASES: Record<string, ScalarType> = {
  text: "text",
  varchar: "text",
  "character varying": "text",
  int: "int4",
  integer: "int4",
  int4: "int4",
  serial: "int4",
  bigint: "int8",
  int8: "int8",
  smallint: "int2",
  int2: "int2",
  float: "float8",
  float8: "float8",
  "double precision": "float8",
  real: "float4",
  float4: "float4",
  numeric: "numeric",
  decimal: "numeric",
  bool: "bool",
  boolean: "bool",
  date: "date",
  time: "time",
  "time without time zone": "time",
  timestamp: "timestamp",
  "timestamp without time zone": "timestamp",
  json: "json",
  jsonb: "json",
  nested: "json",
};

/** Resolves a declared type (`int`, `text[]`, `_int4`, `int[2]`) to its reported name, or null. */
export function resolveType(declared: unknown): TypeName | null {
  if (typeof declared !== "string") return null;
  let name = declared.trim().toLowerCase().replace(/\s+/g, " ");
  let isArray = false;
  const bracket = /^(.+?)\s*\[\s*\d*\s*\]$/.exec(name);
  if (bracket) {
    isArray = true;
    name = bracket[1];
  } else if (name.startsWith("_")) {
    isArray = true;
    name = name.slice(1);
  }
  // Own keys only: "constructor" or "toString" must not find Object's.
  const scalar = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  if (!scalar) return null;
  if (!isArray) return scalar;
  if (scalar === "json") return null;
  return `_${scalar}` as TypeName;
}

export function isArrayType(t: TypeName): boolean {
  return t.startsWith("_");
}

function elementType(t: TypeName): ScalarType {
  return (isArrayType(t) ? t.slice(1) : t) as ScalarType;
}

/** SQLite column declaration. Dates and times are ISO text, so text order is time order. */
export function sqliteType(t: TypeName): string {
  if (isArrayType(t)) return "TEXT";
  switch (t) {
    case "int2":
    case "int4":
    case "int8":
    case "bool":
      return "INTEGER";
    case "float4":
    case "float8":
      return "REAL";
    case "numeric":
      return "NUMERIC";
    default:
      return "TEXT";
  }
}

const NATIVE: Record<ScalarType, string> = {
  text: "text",
  int2: "smallint",
  int4: "integer",
  int8: "bigint",
  float4: "real",
  float8: "double precision",
  numeric: "numeric",
  bool: "boolean",
  date: "date",
  time: "time without time zone",
  timestamp: "timestamp without time zone",
  json: "nested",
};

/** PG's long type name, as datastore_info reports it in `schema.native_type`. */
export function nativeType(t: TypeName): string {
  return isArrayType(t) ? `${NATIVE[elementType(t)]}[]` : NATIVE[t as ScalarType];
}

// ---------------------------------------------------------------------------------------
// Casting values on the way in.

const INT_RE = /^[+-]?\d+$/;
const NUM_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(["t", "true", "y", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["f", "false", "n", "no", "off", "0"]);
const INT_RANGE: Record<string, [number, number]> = {
  int2: [-32768, 32767],
  int4: [-2147483648, 2147483647],
  int8: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function describe(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function syntaxError(pgType: string, value: unknown): CastError {
  return new CastError(`invalid input syntax for type ${pgType}: "${describe(value)}"`);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

const ISO_DT =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASH_DT = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/** Parses the date/timestamp spellings CKAN accepts; returns [y, m, d, H, M, S] or null. */
function parseDateTime(raw: string): number[] | null {
  const s = raw.trim();
  let m = ISO_DT.exec(s);
  if (m) {
    const parts = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number);
    return validDate(parts[0], parts[1], parts[2]) && parts[3] < 24 && parts[4] < 60 && parts[5] < 60
      ? parts
      : null;
  }
  m = SLASH_DT.exec(s);
  if (m) {
    // PG's default DateStyle is MDY; a first field above 12 can only be a day.
    let [a, b] = [Number(m[1]), Number(m[2])];
    if (a > 12) [a, b] = [b, a];
    const parts = [Number(m[3]), a, b, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
    return validDate(parts[0], parts[1], parts[2]) && parts[3] < 24 && parts[4] < 60 && parts[5] < 60
      ? parts
      : null;
  }
  return null;
}

// The strptime formats CKAN tries when guessing (`_DATE_FORMATS`); nothing looser.
const GUESS_DATE_FORMATS = [
  /^\d{4}-\d{1,2}-\d{1,2}$/,
  /^\d{4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{2}:\d{2}$/,
  /^\d{4}-\d{1,2}-\d{1,2}T\d{1,2}:\d{2}:\d{2}Z$/,
  /^\d{1,2}\/\d{1,2}\/\d{4}$/,
  /^\d{1,2}-\d{1,2}-\d{4}$/,
];

function looksLikeTimestamp(s: string): boolean {
  return GUESS_DATE_FORMATS.some((re) => re.test(s)) && parseDateTime(s) !== null;
}

function castScalar(t: ScalarType, value: unknown): Stored {
  if (value === null || value === undefined) return null;
  if (t === "json") return JSON.stringify(value);
  if (value === "" && t !== "text") return null;
  switch (t) {
    case "text":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return JSON.stringify(value);
    case "int2":
    case "int4":
    case "int8": {
      let n: number;
      if (typeof value === "number" && Number.isFinite(value)) n = Math.round(value);
      else if (typeof value === "string" && INT_RE.test(value.trim())) n = Number(value.trim());
      else throw syntaxError(t === "int8" ? "bigint" : t === "int2" ? "smallint" : "integer", value);
      const [lo, hi] = INT_RANGE[t];
      if (n < lo || n > hi) throw new CastError(`value "${describe(value)}" is out of range for type ${NATIVE[t]}`);
      return n;
    }
    case "float4":
    case "float8":
    case "numeric": {
      if (typeof value === "number" && Number.isFinite(value)) return value;
      if (typeof value === "string" && NUM_RE.test(value.trim())) return Number(value.trim());
      throw syntaxError(NATIVE[t], value);
    }
    case "bool": {
      if (typeof value === "boolean") return value ? 1 : 0;
      if (typeof value === "string") {
        const w = value.trim().toLowerCase();
        if (TRUE_WORDS.has(w)) return 1;
        if (FALSE_WORDS.has(w)) return 0;
      }
      throw syntaxError("boolean", value);
    }
    case "date":
    case "timestamp": {
      const p = typeof value === "string" ? parseDateTime(value) : null;
      if (!p) throw syntaxError(NATIVE[t], value);
      const date = `${pad(p[0], 4)}-${pad(p[1])}-${pad(p[2])}`;
      return t === "date" ? date : `${date}T${pad(p[3])}:${pad(p[4])}:${pad(p[5])}`;
    }
    case "time": {
      const m = typeof value === "string" ? /^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/.exec(value.trim()) : null;
      const [h, min, sec, frac] = m ? [m[1], m[2], m[3] ?? 0, m[4] ?? 0].map(Number) : [NaN, NaN, NaN, NaN];
      // PostgreSQL allows hour 24 only as exactly 24:00:00.
      if (!m || h > 24 || min > 59 || sec > 59 || (h === 24 && (min > 0 || sec > 0 || frac > 0))) {
        throw syntaxError("time without time zone", value);
      }
      return `${pad(Number(m[1]))}:${m[2]}:${m[3] ?? "00"}${m[4] ?? ""}`;
    }
  }
}

/** Casts an incoming JSON value to what the column stores. Throws CastError (→ 409). */
export function toStorage(t: TypeName, value: unknown): Stored {
  if (!isArrayType(t)) return castScalar(t as ScalarType, value);
  if (value === null || value === undefined || value === "") return null;
  if (!Array.isArray(value)) throw new CastError(`malformed array literal: "${describe(value)}"`);
  const el = elementType(t);
  return JSON.stringify(value.map((v) => fromStorage(el, castScalar(el, v))));
}

// ---------------------------------------------------------------------------------------
// Rendering stored values on the way out.

/** Whether fromStorage gives a stored cell of this type back as it is (a number or a string,
 *  read without big integers), so a reader may skip it. */
export function storedAsIs(t: TypeName): boolean {
  return !isArrayType(t) && t !== "json" && t !== "bool";
}

/** The JSON value of a stored cell, as search records show it. */
export function fromStorage(t: TypeName, v: Stored): unknown {
  if (v === null) return null;
  if (isArrayType(t) || t === "json") return JSON.parse(String(v));
  if (t === "bool") return Number(v) !== 0;
  if (typeof v === "bigint") return Number(v);
  return v;
}

/** Python's json.dumps spacing, which PG keeps in the stored text of CKAN's json columns. */
export function pythonJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** PG text rendering of a JSON value (csv/tsv cells): t/f booleans, compact JSON arrays,
 *  Python-spaced JSON, and the word `null` for a NULL array or json cell (CKAN quirk). */
export function toText(t: TypeName, value: unknown): string | null {
  if (isArrayType(t)) return value === null ? "null" : JSON.stringify(value);
  if (t === "json") return value === null ? "null" : pythonJson(value);
  if (value === null || value === undefined) return null;
  if (t === "bool") return value ? "t" : "f";
  return String(value);
}

// ---------------------------------------------------------------------------------------
// Type guessing from the first record (contract §2).

/** Returns the declared type name CKAN would guess for a first-record value. */
export function guessType(value: unknown): string {
  if (value !== null && typeof value === "object") return "json";
  if (typeof value === "boolean") return "int";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") {
    const s = value.trim();
    if (INT_RE.test(s)) return "integer";
    if (NUM_RE.test(s)) return "numeric";
    if (looksLikeTimestamp(s)) return "timestamp";
  }
  return "text";
}
