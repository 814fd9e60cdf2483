// The Pivot tab's settings in the URL: `rows` (one or two keys), `columns` (one key) and
// `measure`. A key is a field id, with `:period` for a date grouped by a period or `:width` for
// a number grouped in bins (`date:month`, `delay:15`); a measure is `count` or `fn:field`
// (`avg:delay`). Reading never throws: what it cannot read is left out.
import { DEFAULT_VIEW, PERIODS, type Period } from "./types";

/** A key of datastore_aggregate's `group_by`, as its second form takes it. */
export type PivotKey = { field: string; period?: Period; bin?: number };

export const PIVOT_FNS = ["count", "sum", "avg", "min", "max"] as const;
export type PivotFn = (typeof PIVOT_FNS)[number];

/** `field` is null for count. */
export type PivotMeasure = { fn: PivotFn; field: string | null };

/** Empty `rows`: not chosen, the tab picks a field. */
export type PivotSettings = { rows: PivotKey[]; columns: PivotKey | null; measure: PivotMeasure };

export const MAX_PIVOT_ROWS = 2;

export const DEFAULT_PIVOT: PivotSettings = DEFAULT_VIEW.pivot;

/** `date:month` -> {field: "date", period: "month"}; the suffix is read from the last colon, so
 *  a field id may hold colons (a field named `a:month` is told apart once the fields are known). */
export function parsePivotKey(raw: string): PivotKey | null {
  const text = raw.trim();
  const at = text.lastIndexOf(":");
  if (at > 0) {
    const field = text.slice(0, at);
    const suffix = text.slice(at + 1);
    const period = PERIODS.find((p) => p === suffix);
    if (period) return { field, period };
    const bin = Number(suffix);
    if (/^\d*\.?\d+(e-?\d+)?$/i.test(suffix) && Number.isFinite(bin) && bin > 0) return { field, bin };
  }
  return text ? { field: text } : null;
}

export function formatPivotKey(key: PivotKey): string {
  if (key.period) return `${key.field}:${key.period}`;
  if (key.bin !== undefined) return `${key.field}:${key.bin}`;
  return key.field;
}

export function parseMeasure(raw: string | null): PivotMeasure {
  const text = raw?.trim() ?? "";
  const at = text.indexOf(":");
  const fn = PIVOT_FNS.find((f) => f === (at < 0 ? text : text.slice(0, at)));
  if (!fn || fn === "count") return DEFAULT_PIVOT.measure;
  const field = at < 0 ? "" : text.slice(at + 1).trim();
  return field ? { fn, field } : DEFAULT_PIVOT.measure;
}

export function formatMeasure(m: PivotMeasure): string {
  return m.fn === "count" || !m.field ? "count" : `${m.fn}:${m.field}`;
}

/** `rows=a,b` or, when a key holds a comma, `rows=a&rows=b` (as `fields`); a single key with a
 *  comma gets an empty second `rows=`, so it is not read as two. `columns` is one key. */
function readKeys(params: URLSearchParams, name: string, split: boolean): PivotKey[] {
  const all = params.getAll(name);
  const texts = split && all.length === 1 ? all[0].split(",") : all;
  const keys: PivotKey[] = [];
  for (const t of texts) {
    const key = parsePivotKey(t);
    if (key && !keys.some((k) => k.field === key.field)) keys.push(key);
  }
  return keys;
}

function appendRows(params: URLSearchParams, keys: PivotKey[]): void {
  const texts = keys.map(formatPivotKey);
  if (texts.some((t) => t.includes(","))) {
    for (const t of texts) params.append("rows", t);
    if (texts.length === 1) params.append("rows", "");
  } else if (texts.length) params.set("rows", texts.join(","));
}

export function readPivot(params: URLSearchParams): PivotSettings {
  const rows = readKeys(params, "rows", true).slice(0, MAX_PIVOT_ROWS);
  const columns = readKeys(params, "columns", false).find((k) => !rows.some((r) => r.field === k.field)) ?? null;
  return { rows, columns, measure: parseMeasure(params.get("measure")) };
}

export function writePivot(params: URLSearchParams, pivot: PivotSettings): void {
  appendRows(params, pivot.rows);
  if (pivot.columns) params.set("columns", formatPivotKey(pivot.columns));
  if (pivot.measure.fn !== "count") params.set("measure", formatMeasure(pivot.measure));
}
