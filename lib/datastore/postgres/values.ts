// Values between JSON and PostgreSQL columns: what a field's column is declared as, how a JSON
// value is bound for it (cast exactly as types.ts casts for SQLite), and how each column type's
// text comes back as the JSON value the SQLite engine answers for the same cell.
import type pg from "pg";
import { CastError, isArrayType, toStorage, type Stored, type TypeName } from "../types";

const SCALAR_COLUMN: Record<string, string> = {
  text: "text",
  int2: "smallint",
  int4: "integer",
  int8: "bigint",
  float4: "real",
  float8: "double precision",
  numeric: "numeric",
  bool: "boolean",
  date: "date",
  time: "time",
  timestamp: "timestamp",
  // json, not jsonb: the text is kept as written, so keys keep their order and a value comes
  // back as SQLite (and CKAN, whose json columns are json) answer it. Comparisons and grouping
  // go through ::text, which is SQLite's own rule for these columns.
  json: "json",
};

/** The column declaration of a field type (`integer`, `text[]`…). */
export function columnType(t: TypeName): string {
  return isArrayType(t) ? `${SCALAR_COLUMN[t.slice(1)]}[]` : SCALAR_COLUMN[t];
}

/**
 * A JSON value as a bound parameter for a column of type t: cast by toStorage (so the same
 * values are refused, with the same CastError, and the same rounding applies), then given the
 * shape pg binds for the column: booleans as booleans, arrays as JS arrays (pg writes the
 * array literal), json as its JSON text.
 */
export function toParam(t: TypeName, value: unknown): unknown {
  return storedParam(t, toStorage(t, value));
}

/** A value as toStorage casts it, in the shape pg binds for a column of type t. */
export function storedParam(t: TypeName, stored: Stored): unknown {
  if (stored === null) return null;
  if (isArrayType(t)) {
    const items = JSON.parse(String(stored)) as unknown[];
    if (t === "_text") for (const item of items) noNul(item);
    return items;
  }
  if (t === "bool") return Number(stored) !== 0;
  return noNul(stored);
}

/** PostgreSQL text cannot hold NUL: refused as a bad value (409), not a server error. */
export function noNul<T>(v: T): T {
  if (typeof v === "string" && v.includes("\u0000")) throw new CastError('invalid byte sequence for encoding "UTF8": 0x00');
  return v;
}

// ---------------------------------------------------------------------------------------
// Text from the server → JSON values. Parsers are per pool (pgTypes), never pg's global ones.

type Parse = (text: string) => unknown;

const number: Parse = (s) => Number(s);
const bool: Parse = (s) => s === "t" || s === "true";
/** SQLite keeps timestamps to the second, "YYYY-MM-DDTHH:MM:SS" (types.ts castScalar). */
const timestamp: Parse = (s) => `${s.slice(0, 10)}T${s.slice(11, 19)}`;
const json: Parse = (s) => JSON.parse(s) as unknown;
const asText: Parse = (s) => s;

// OIDs are fixed for built-in types (pg_type.dat).
const SCALARS: [oid: number, arrayOid: number, parse: Parse][] = [
  [21, 1005, number], // int2
  [23, 1007, number], // int4
  [20, 1016, number], // int8: our integers stay within 2^53 (types.ts INT_RANGE)
  [700, 1021, number], // float4
  [701, 1022, number], // float8
  [1700, 1231, number], // numeric
  [16, 1000, bool],
  [1082, 1182, asText], // date: ISO DateStyle already "YYYY-MM-DD"
  [1083, 1183, asText], // time: "HH:MM:SS[.ffffff]"
  [1114, 1115, timestamp],
  [114, 199, json],
  [3802, 3807, json], // jsonb
  [25, 1009, asText],
  [1043, 1015, asText], // varchar
];

const PARSERS = new Map<number, Parse>();
for (const [oid, arrayOid, parse] of SCALARS) {
  PARSERS.set(oid, parse);
  PARSERS.set(arrayOid, (s) => parseArray(s, parse));
}

/**
 * A PostgreSQL array literal (`{1,NULL,"a b","x\"y"}`, nested braces for more dimensions) as
 * a JS array, each element through `parse`. Output literals only: elements are quoted when
 * they hold anything special, with backslash escapes inside quotes.
 */
export function parseArray(text: string, parse: Parse): unknown[] {
  // A lower bound other than 1 is written first (`[0:1]={…}`); the elements are what count.
  let pos = text.startsWith("[") ? text.indexOf("=") + 1 : 0;
  const read = (): unknown[] => {
    const out: unknown[] = [];
    pos++; // {
    if (text[pos] === "}") {
      pos++;
      return out;
    }
    for (;;) {
      if (text[pos] === "{") out.push(read());
      else if (text[pos] === '"') {
        let s = "";
        pos++;
        while (text[pos] !== '"') {
          if (text[pos] === "\\") pos++;
          s += text[pos++];
        }
        pos++;
        out.push(parse(s));
      } else {
        const start = pos;
        while (text[pos] !== "," && text[pos] !== "}") pos++;
        const s = text.slice(start, pos);
        out.push(s === "NULL" ? null : parse(s));
      }
      if (text[pos++] === "}") return out;
    }
  };
  return read();
}

/** The `types` of every pool's config: each column type's text as its JSON value. */
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format === "binary") return (v: Buffer) => v;
    return PARSERS.get(oid) ?? asText;
  }) as pg.CustomTypesConfig["getTypeParser"],
};
