// Display helpers for values, types and counts, in the reader's language and locale (a
// Translate from useT(), English by default). The server and hydration render in en-US, so
// counts read the same on both; values (numbers, dates) take the locale passed in by the caller.
import type { DatastoreField, Resource } from "@/lib/api-client";
import { english, numberFormat, type Translate } from "@/lib/i18n";

export function formatCount(n: number, locale = "en-US"): string {
  return numberFormat(locale).format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A total as shown: exact, or, when the server estimated it, "about" and three significant
 *  digits (13,110 → "about 13,100"): the digits past those are the sample's noise. */
export function totalText(n: number, estimated: boolean, t: Translate = english): string {
  if (!estimated) return formatCount(n, t.locale);
  const step = 10 ** Math.max(0, String(Math.trunc(n)).length - 3);
  return t("count.about", { count: Math.round(n / step) * step });
}

/** "1 record", "13,110 records", "about 13,100 records". */
export function totalRecords(n: number, estimated: boolean, t: Translate = english): string {
  return t("count.records", { count: n, total: totalText(n, estimated, t) });
}

/** The match count beside the search box: "About 13,100 of 3,000,000 records match". */
export function matchStatus(total: number, estimated: boolean, narrowed: boolean, fullCount: number | undefined, t: Translate = english): string {
  const match = totalText(total, estimated, t);
  const text =
    narrowed && fullCount !== undefined
      ? t("status.matchOf", { count: fullCount, match, all: formatCount(fullCount, t.locale) })
      : narrowed
        ? t("status.match", { count: total, total: match })
        : t("count.records", { count: total, total: match });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const NUMERIC = new Set(["int", "int2", "int4", "int8", "float4", "float8", "numeric"]);
const INTEGER = new Set(["int", "int2", "int4", "int8"]);

export function isNumericType(type: string): boolean {
  return NUMERIC.has(type);
}

export function isIntegerType(type: string): boolean {
  return INTEGER.has(type);
}

type TypeKind = "integer" | "number" | "bool" | "date" | "time" | "timestamp" | "json" | "text";

function typeKind(type: string): TypeKind {
  if (INTEGER.has(type)) return "integer";
  if (NUMERIC.has(type)) return "number";
  if (type === "bool") return "bool";
  if (type === "date") return "date";
  if (type === "time") return "time";
  if (type.startsWith("timestamp")) return "timestamp";
  if (type === "json") return "json";
  return "text";
}

/**
 * An API type in a few plain words, the one wording everywhere a type is shown: "number",
 * "whole number", "date", "date and time", "time", "text", "yes/no", "JSON", "list of text".
 */
export function typeInWords(type: string, t: Translate = english): string {
  if (type.startsWith("_")) return t(`type.list.${typeKind(type.slice(1))}`);
  return t(`type.${typeKind(type)}`);
}

const TYPED_AS: Partial<Record<TypeKind, string>> = { date: "YYYY-MM-DD", time: "HH:MM:SS", timestamp: "YYYY-MM-DDTHH:MM:SS" };

/** The type in words, with how a value is typed where that is not obvious: for filter hints. */
export function describeType(type: string, t: Translate = english): string {
  const kind = type.startsWith("_") ? null : typeKind(type);
  const words = typeInWords(type, t);
  const typed = kind === "bool" ? t("type.boolHint") : kind && TYPED_AS[kind];
  return typed ? `${words} (${typed})` : words;
}

/** The field's data dictionary description (`info.notes`), if any. */
export function fieldNotes(field: DatastoreField): string | null {
  const notes = field.info?.notes;
  return typeof notes === "string" && notes.trim() ? notes.trim() : null;
}

// Values in the reader's locale. The formatters are built once per locale and shape.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f as T;
}

/**
 * A number in the reader's locale, every stored digit kept; `grouping: false` for numbers that
 * name rather than count (years, codes). Exponent forms stay as they are.
 */
export function formatNumber(value: number | string, locale: string | undefined, grouping = true): string {
  const raw = String(value);
  const n = Number(value);
  if (!Number.isFinite(n) || /e/i.test(raw)) return raw;
  const decimals = raw.includes(".") ? raw.length - raw.indexOf(".") - 1 : 0;
  return cached(
    `n|${locale}|${decimals}|${grouping}`,
    () => new Intl.NumberFormat(locale, { useGrouping: grouping ? "auto" : false, minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  ).format(n);
}

/** Words in a field's id or label that say its numbers name something (a year, a code), so
 *  "2001" must not read "2,001". */
const NAMING_WORDS = new Set(["year", "yr", "id", "code", "zip", "zipcode", "fips", "iata", "icao", "isbn"]);

/** Whether the field's numbers are amounts, shown with the locale's digit grouping. */
export function groupsDigits(field: DatastoreField): boolean {
  const label = typeof field.info?.label === "string" ? field.info.label : "";
  const words = `${field.id} ${label}`.toLowerCase().split(/[^a-z]+/);
  return !words.some((w) => NAMING_WORDS.has(w));
}

const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(-?\d{4,})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** A stored date or timestamp (no time zone) as an instant read in UTC, so it shows as written. */
function utc(parts: string[]): Date | null {
  const [y, mo, d, h = "0", mi = "0", s = "0"] = parts;
  const t = new Date(0);
  // not Date.UTC, which reads years 0–99 as 1900–1999
  t.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  t.setUTCHours(Number(h), Number(mi), Number(s), 0);
  return Number.isNaN(t.getTime()) || t.getUTCMonth() !== Number(mo) - 1 || t.getUTCDate() !== Number(d) ? null : t;
}

/** "2012-01-31" → "Jan 31, 2012" (en-US); null when the text is not such a date. */
export function formatDate(iso: string, locale: string | undefined): string | null {
  const m = DATE.exec(iso);
  const t = m && utc(m.slice(1));
  if (!t) return null;
  return cached(`d|${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" })).format(t);
}

/** "2001-01-13T14:56:00" → "Jan 13, 2001, 2:56 PM" (en-US), seconds shown when not zero; null
 *  when the text is not such a timestamp. */
export function formatTimestamp(iso: string, locale: string | undefined): string | null {
  const m = TIMESTAMP.exec(iso);
  const t = m && utc(m.slice(1).filter((p) => p !== undefined));
  if (!t) return null;
  const seconds = t.getUTCSeconds() !== 0;
  return cached(
    `t|${locale}|${seconds}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: seconds ? "medium" : "short", timeZone: "UTC" }),
  ).format(t);
}

/** Numeric text that a double holds exactly (numeric fields may arrive as text). */
const EXACT_NUMBER = /^-?\d{1,15}(\.\d+)?$/;

/**
 * A value as the reader's locale writes it: numbers, dates and timestamps. null: shown as
 * stored (text, yes/no, JSON, lists, and anything that is not what its type says).
 */
export function formatValue(value: unknown, type: string, locale: string | undefined, grouping = true): string | null {
  if (NUMERIC.has(type)) {
    if (typeof value === "number") return formatNumber(value, locale, grouping);
    if (typeof value === "string" && EXACT_NUMBER.test(value) && value.replace(/^-|\./g, "").length <= 15) {
      return formatNumber(value, locale, grouping);
    }
    return null;
  }
  if (typeof value !== "string") return null;
  if (type === "date") return formatDate(value, locale);
  if (type.startsWith("timestamp")) return formatTimestamp(value, locale);
  return null;
}

/** A field's value in the reader's locale (see formatValue); `_id`, a record number, as stored. */
export function formatFieldValue(value: unknown, field: DatastoreField, locale: string | undefined): string | null {
  return field.id === "_id" ? null : formatValue(value, field.type, locale, groupsDigits(field));
}

/** One-line text of a cell value; objects and arrays as compact JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export const CELL_TEXT_MAX = 200;

export function truncate(text: string, max = CELL_TEXT_MAX): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max - 1)}…`, truncated: true };
}

export function resourceLabel(r: Pick<Resource, "id" | "name" | "aliases">): string {
  return r.name || r.aliases?.[0] || r.id;
}

/**
 * Columns to show from a search result: the API adds `rank` columns whenever `q` is set; they
 * are scores, not data, so they are shown only when the view asks for them by name.
 */
export function displayFields(
  resultFields: DatastoreField[],
  tableFields: DatastoreField[] | undefined,
  requested: string[] | null,
): DatastoreField[] {
  if (requested) return resultFields;
  const known = tableFields ? new Set(tableFields.map((f) => f.id)) : null;
  return resultFields.filter((f) => {
    if (f.id === "_id") return true;
    if (known) return known.has(f.id);
    return !(f.id === "rank" || f.id.startsWith("rank "));
  });
}

/** Case- and accent-insensitive match of every word against a resource's name, aliases and description. */
export function matchResources(resources: Resource[], term: string): Resource[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const words = fold(term).split(/\s+/).filter(Boolean);
  if (words.length === 0) return resources;
  return resources.filter((r) => {
    const hay = fold([r.name, r.id, ...(r.aliases ?? []), r.description].filter(Boolean).join(" "));
    return words.every((w) => hay.includes(w));
  });
}
