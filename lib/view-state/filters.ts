// Filter chips <-> the API's `filters` object. One chip per field; several values on a chip are
// an any-of list; chips are ANDed (as the API ANDs the keys).
import type { Filters, Scalar } from "./types";

export type Chip = { field: string; values: Scalar[] };

function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

export function chipsFromFilters(filters: Filters): Chip[] {
  return Object.entries(filters).map(([field, value]) => ({
    field,
    values: Array.isArray(value) ? value : [value],
  }));
}

/** Returns a new filters object with the field's chip replaced (or removed when no values). */
export function withChip(filters: Filters, field: string, values: Scalar[]): Filters {
  const next: Filters = {};
  let placed = false;
  for (const [key, value] of Object.entries(filters)) {
    if (key !== field) {
      next[key] = value;
    } else if (values.length > 0) {
      next[key] = values.length === 1 ? values[0] : values;
      placed = true;
    }
  }
  if (!placed && values.length > 0) next[field] = values.length === 1 ? values[0] : values;
  return next;
}

export function withoutChip(filters: Filters, field: string): Filters {
  return withChip(filters, field, []);
}

export function formatScalar(value: Scalar): string {
  if (value === null) return "null";
  return String(value);
}

/** `origin: SEA or PDX` */
export function describeChip(chip: Chip): string {
  return `${chip.field}: ${chip.values.map(formatScalar).join(" or ")}`;
}

/** Same value for filtering purposes (the API casts, so 1877 and "1877" mean the same). */
export function sameValue(a: Scalar, b: Scalar): boolean {
  return a === b || (a !== null && b !== null && String(a) === String(b));
}

/** Sanitises untrusted input (a URL) into a filters object, dropping what the API can't take. */
export function coerceFilters(input: unknown): Filters {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return {};
  const out: Filters = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    // field names never start with "_" (except _id): this also keeps out "__proto__"
    if (!key || (key.startsWith("_") && key !== "_id")) continue;
    if (isScalar(value)) {
      out[key] = value;
    } else if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) {
      out[key] = value;
    }
  }
  return out;
}
