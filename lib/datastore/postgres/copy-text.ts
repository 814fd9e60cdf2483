// JSON values as fields of COPY's text format (bulk-load.ts), cast exactly as write() casts them
// (values.ts toParam, over types.ts toStorage): the same values are refused with the same
// messages, and a value loaded by COPY reads back equal to the same value written by write().
// A field is the value's text with backslash, tab, newline and carriage return escaped; NULL
// is `\N`; arrays are PostgreSQL array literals, every element quoted.
import { isStoredDate, isStoredTimestamp } from "../stored-dates";
import { CastError, isArrayType, toStorage, type TypeName } from "../types";
import { noNul, toParam } from "./values";

/** One value as one field of a COPY text row; throws CastError for a value the column refuses. */
export type FieldEncoder = (value: unknown) => string;

export const NULL_FIELD = "\\N";

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
/** SPECIAL, and NUL (refused): one scan finds a text value that needs nothing done. */
const SPECIAL_OR_NUL = /[\\\t\n\r\0]/;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** Text as a COPY field: the four characters COPY's text format reads specially, escaped. */
export function escapeField(s: string): string {
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : s;
}

/**
 * Values toStorage lets through that PostgreSQL's own input refuses, refused here with the
 * server's message (write() gets that message from the server): year 0, which PostgreSQL's
 * calendar does not have, and reals outside float4's range.
 */
function checkServerRange(t: TypeName, text: string, value: number | string): void {
  if ((t === "date" || t === "timestamp") && text.startsWith("0000")) throw new CastError(`date/time field value out of range: "${text}"`);
  if (t === "float4") {
    const n = value as number;
    const f = Math.fround(n);
    if (!Number.isFinite(f) || (f === 0 && n !== 0)) throw new CastError(`"${text}" is out of range for type real`);
  }
}

/** An array element inside a literal: quoted, with backslash and double quote escaped. */
function arrayElement(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  const s = String(v);
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

// Fast paths: a string already in the form toStorage would store is that form, checked in place
// at a fraction of the general parser's cost (imports from CSV are mostly such strings).

/** Digits that always fit each integer type, so a plain run of them needs no range check. */
const INT_DIGITS: Record<string, number> = { int2: 4, int4: 9, int8: 15 };

/** An optional minus and 1..most digits, no leading zero: what String(Number(s)) gives back. */
function plainInteger(s: string, most: number): boolean {
  const from = s.charCodeAt(0) === 45 ? 1 : 0;
  const n = s.length - from;
  if (n < 1 || n > most || (s.charCodeAt(from) === 48 && (n > 1 || from === 1))) return false;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Casts for every column type: fast paths for what imports carry most (strings in stored form). */
export function fieldEncoder(t: TypeName): FieldEncoder {
  if (isArrayType(t)) {
    const element = t.slice(1) as TypeName;
    return (value) => {
      const items = toParam(t, value) as unknown[] | null;
      if (items === null) return NULL_FIELD;
      for (const item of items) if (item !== null && typeof item !== "boolean") checkServerRange(element, String(item), item as number | string);
      return escapeField(`{${items.map(arrayElement).join(",")}}`);
    };
  }
  switch (t) {
    case "text":
      return (value) => {
        if (typeof value === "string") return SPECIAL_OR_NUL.test(value) ? escapeField(noNul(value)) : value;
        const s = toStorage(t, value);
        return s === null ? NULL_FIELD : escapeField(noNul(String(s)));
      };
    case "int2":
    case "int4":
    case "int8": {
      const most = INT_DIGITS[t];
      return (value) => {
        if (typeof value === "string" && plainInteger(value, most)) return value;
        const s = toStorage(t, value);
        return s === null ? NULL_FIELD : String(s);
      };
    }
    case "bool":
      return (value) => {
        const s = toStorage(t, value);
        return s === null ? NULL_FIELD : Number(s) !== 0 ? "t" : "f";
      };
    case "json":
      // JSON text never holds a raw tab or newline, but its escapes start with a backslash.
      return (value) => {
        const s = toStorage(t, value);
        return s === null ? NULL_FIELD : escapeField(String(s));
      };
    case "float4":
      return (value) => {
        const s = toStorage(t, value);
        if (s === null) return NULL_FIELD;
        const text = String(s);
        checkServerRange(t, text, s as number);
        return text;
      };
    case "date":
    case "timestamp":
      return (value) => {
        if (typeof value === "string" && (t === "date" ? isStoredDate(value) : isStoredTimestamp(value))) return value;
        const s = toStorage(t, value);
        if (s === null) return NULL_FIELD;
        const text = String(s);
        checkServerRange(t, text, text);
        return text;
      };
    default:
      // float8, numeric, time: digits and punctuation only, nothing to escape.
      return (value) => {
        const s = toStorage(t, value);
        return s === null ? NULL_FIELD : String(s);
      };
  }
}
