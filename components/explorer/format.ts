// Display helpers for values and counts.
import type { DatastoreField, Resource } from "@/lib/api-client";

const integer = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return integer.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A total as shown: exact, or, when the server estimated it, "about" and three significant
 *  digits (13,110 → "about 13,100"): the digits past those are the sample's noise. */
export function totalText(n: number, estimated: boolean): string {
  if (!estimated) return formatCount(n);
  const step = 10 ** Math.max(0, String(Math.trunc(n)).length - 3);
  return `about ${formatCount(Math.round(n / step) * step)}`;
}

/** "1 record", "13,110 records", "about 13,100 records". */
export function totalPlural(n: number, estimated: boolean, one: string, many = `${one}s`): string {
  return `${totalText(n, estimated)} ${n === 1 ? one : many}`;
}

/** The match count beside the search box: "About 13,100 of 3,000,000 records match". */
export function matchStatus(total: number, estimated: boolean, narrowed: boolean, fullCount: number | undefined): string {
  const text =
    narrowed && fullCount !== undefined
      ? `${totalText(total, estimated)} of ${plural(fullCount, "record")} match`
      : `${totalPlural(total, estimated, "record")}${narrowed ? " match" : ""}`;
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

/** Plain-words description of an API type, for tooltips and hints. */
export function describeType(type: string): string {
  if (INTEGER.has(type)) return "whole number";
  if (NUMERIC.has(type)) return "number";
  if (type === "bool") return "true or false";
  if (type === "date") return "date (YYYY-MM-DD)";
  if (type === "time") return "time (HH:MM:SS)";
  if (type.startsWith("timestamp")) return "date and time (YYYY-MM-DDTHH:MM:SS)";
  if (type === "json") return "JSON";
  if (type.startsWith("_")) return "list";
  return "text";
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
