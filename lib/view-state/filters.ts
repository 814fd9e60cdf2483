// Filter chips <-> the API's `filters` object. One chip per key, ANDed as the API ANDs keys: a
// field that is any of some values, none of them, within a range, empty or not empty; anything
// else the API takes (a `$or` group, `gt`, a mixed list) is kept as it is and shown as JSON.
// What each operator takes and its words come from the API's own operator registry.
import { OPERATORS, formatScalar, fromDay, operatorNamed, rangeWords, toDay } from "../datastore/operators";
import type { Translate } from "../i18n";
import type { FieldFilter, Filters, Operators, Scalar } from "./types";

export { formatScalar };

/** A range bound as the API takes it: a number, or an ISO date / timestamp string. */
export type Bound = string | number;

export type Chip =
  | { kind: "is"; field: string; values: Scalar[] }
  | { kind: "not"; field: string; values: Scalar[] }
  /** Both bounds inclusive (gte / lte); null: open on that side. */
  | { kind: "range"; field: string; from: Bound | null; to: Bound | null }
  | { kind: "empty"; field: string; empty: boolean }
  /** Kept as written; `field` is null for a `$or` / `$and` group. */
  | { kind: "other"; key: string; field: string | null; value: FieldFilter | Filters[] };

const MAX_DEPTH = 10;

function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isBound(value: unknown): value is Bound {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOperators(value: unknown): value is Operators {
  if (!isDict(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([op, v]) => operatorNamed(op)?.inUrl(v) === true);
}

function isFieldFilter(value: unknown): value is FieldFilter {
  if (isScalar(value) || isOperators(value)) return true;
  return Array.isArray(value) && value.length > 0 && value.every((v) => isScalar(v) || isOperators(v));
}

/** The key of a field in a filters object: CKAN reads `$$x` as the field `$x`. */
export function fieldKey(field: string): string {
  return field.startsWith("$") ? `$${field}` : field;
}

/** The field a key names, or null for an operator (`$or`, `$and`). */
function keyField(key: string): string | null {
  if (key.startsWith("$$")) return key.slice(1);
  return key.startsWith("$") ? null : key;
}

function isFieldKey(key: string): boolean {
  const field = keyField(key);
  // field names never start with "_" (except _id): this also keeps out "__proto__"
  return Boolean(field) && !(field!.startsWith("_") && field !== "_id");
}

function isGroup(value: unknown, depth: number): value is Filters[] {
  return depth <= MAX_DEPTH && Array.isArray(value) && value.length > 0 && value.every((d) => isFilters(d, depth));
}

/** Whole and valid: a group with one bad member is not kept in part (that would widen it). */
function isFilters(value: unknown, depth: number): value is Filters {
  if (!isDict(value)) return false;
  return Object.entries(value).every(([key, v]) =>
    key === "$or" || key === "$and" ? isGroup(v, depth + 1) : isFieldKey(key) && isFieldFilter(v),
  );
}

/**
 * Sanitises untrusted input (a URL) into a filters object. Each key is kept whole or dropped
 * whole; a top-level list (an OR of objects) becomes the `$or` group it means.
 */
export function coerceFilters(input: unknown): Filters {
  if (Array.isArray(input)) return isGroup(input, 1) ? { $or: input } : {};
  if (!isDict(input)) return {};
  const out: Filters = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === "$or" || key === "$and" ? isGroup(value, 1) : isFieldKey(key) && isFieldFilter(value)) {
      out[key] = value as FieldFilter | Filters[];
    }
  }
  return out;
}

function chipFromEntry(key: string, value: FieldFilter | Filters[]): Chip {
  const field = keyField(key);
  const other: Chip = { kind: "other", key, field, value };
  if (field === null) return other;
  if (isScalar(value)) return { kind: "is", field, values: [value] };
  if (Array.isArray(value)) return value.every(isScalar) ? { kind: "is", field, values: value as Scalar[] } : other;
  if (!isOperators(value)) return other;
  const ops = Object.keys(value);
  if (ops.length === 1 && typeof value.x_empty === "boolean") return { kind: "empty", field, empty: value.x_empty };
  if (ops.length === 1 && value.x_not_in !== undefined) {
    return { kind: "not", field, values: Array.isArray(value.x_not_in) ? value.x_not_in : [value.x_not_in] };
  }
  const { gte, lte } = value;
  if (ops.every((op) => op === "gte" || op === "lte") && (gte === undefined || isBound(gte)) && (lte === undefined || isBound(lte))) {
    return { kind: "range", field, from: gte ?? null, to: lte ?? null };
  }
  return other;
}

export function chipsFromFilters(filters: Filters): Chip[] {
  return Object.entries(filters).map(([key, value]) => chipFromEntry(key, value));
}

export function chipKey(chip: Chip): string {
  return chip.kind === "other" ? chip.key : fieldKey(chip.field);
}

/** The chip of a field, if it has one. */
export function chipForField(filters: Filters, field: string): Chip | undefined {
  const key = fieldKey(field);
  return Object.hasOwn(filters, key) ? chipFromEntry(key, filters[key]) : undefined;
}

/** The chip's value in the filters object; undefined for a chip that says nothing (no values, no bounds). */
export function chipValue(chip: Chip): FieldFilter | Filters[] | undefined {
  switch (chip.kind) {
    case "is":
      return chip.values.length === 0 ? undefined : chip.values.length === 1 ? chip.values[0] : chip.values;
    case "not":
      return chip.values.length === 0 ? undefined : { x_not_in: chip.values };
    case "range": {
      if (chip.from === null && chip.to === null) return undefined;
      const ops: Operators = {};
      if (chip.from !== null) ops.gte = chip.from;
      if (chip.to !== null) ops.lte = chip.to;
      return ops;
    }
    case "empty":
      return { x_empty: chip.empty };
    case "other":
      return chip.value;
  }
}

/** A new filters object with the chip's key replaced in place (or added, or removed when the chip says nothing). */
export function withChip(filters: Filters, chip: Chip): Filters {
  const key = chipKey(chip);
  const value = chipValue(chip);
  const next: Filters = {};
  for (const [k, v] of Object.entries(filters)) {
    if (k !== key) next[k] = v;
    else if (value !== undefined) next[k] = value;
  }
  if (value !== undefined && !Object.hasOwn(next, key)) next[key] = value;
  return next;
}

export function withoutChip(filters: Filters, key: string): Filters {
  const next: Filters = {};
  for (const [k, v] of Object.entries(filters)) if (k !== key) next[k] = v;
  return next;
}

export function filtersFromChips(chips: Chip[]): Filters {
  return chips.reduce<Filters>((filters, chip) => withChip(filters, chip), {});
}

/** What a person would say: `delay: 60 to 120`, `state: not CA or OR`, `county: is empty`. */
export function describeChip(chip: Chip): string {
  switch (chip.kind) {
    case "is":
      return `${chip.field}: ${OPERATORS.in.words(chip.values)}`;
    case "not":
      return `${chip.field}: ${OPERATORS.x_not_in.words(chip.values)}`;
    case "range":
      return `${chip.field}: ${rangeWords(chip.from, chip.to)}`;
    case "empty":
      return `${chip.field}: ${OPERATORS.x_empty.words(chip.empty)}`;
    case "other":
      return chip.field === null ? JSON.stringify({ [chip.key]: chip.value }) : `${chip.field}: ${JSON.stringify(chip.value)}`;
  }
}

/** describeChip in the reader's language: the operator registry's words in English, else the catalogue's (lib/i18n). */
export function chipInWords(chip: Chip, t: Translate): string {
  if (t.lang === "en" || chip.kind === "other") return describeChip(chip);
  const or = (values: Scalar[]) => values.map(formatScalar).join(t("chip.or"));
  switch (chip.kind) {
    case "is":
      return `${chip.field}: ${or(chip.values)}`;
    case "not":
      return `${chip.field}: ${t("chip.not", { values: or(chip.values) })}`;
    case "range": {
      const { from, to } = chip;
      const words =
        from != null && to != null
          ? t("chip.range", { from: String(fromDay(from)), to: String(toDay(to)) })
          : from != null
            ? t("chip.from", { from: String(fromDay(from)) })
            : t("chip.upTo", { to: String(toDay(to ?? null)) });
      return `${chip.field}: ${words}`;
    }
    case "empty":
      return `${chip.field}: ${chip.empty ? t("chip.empty") : t("chip.notEmpty")}`;
  }
}

/** Same value for filtering purposes (the API casts, so 1877 and "1877" mean the same). */
export function sameValue(a: Scalar, b: Scalar): boolean {
  return a === b || (a !== null && b !== null && String(a) === String(b));
}
