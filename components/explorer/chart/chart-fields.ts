// Which fields each chart can draw, and the chart a view gets when the URL leaves a setting
// out: the settings the URL holds, checked against the resource's fields, with defaults filled
// in. Pure: the chart, its request and the API panel all read the same choice.
import type { DatastoreField } from "@/lib/api-client";
import type { ChartAgg, ChartSettings, ChartType, Period } from "@/lib/view-state";
import { isNumericType } from "../format";

export function isTemporal(f: DatastoreField): boolean {
  return f.type === "date" || f.type.startsWith("timestamp");
}

/** A field whose values can be grouped: not JSON, not a list. */
function isScalarField(f: DatastoreField): boolean {
  return f.type !== "json" && !f.type.startsWith("_");
}

/** Fields a chart type may put on its first axis (x). */
export function xChoices(type: ChartType, fields: DatastoreField[]): DatastoreField[] {
  switch (type) {
    case "bar":
      return fields.filter(isScalarField);
    case "line":
      return fields.filter(isTemporal);
    case "scatter":
      return fields.filter((f) => isNumericType(f.type));
    case "histogram":
      return fields.filter((f) => isNumericType(f.type) || isTemporal(f));
  }
}

/** Fields the measure (sum, average) or the scatter's second axis may read. */
export function yChoices(fields: DatastoreField[]): DatastoreField[] {
  return fields.filter((f) => isNumericType(f.type));
}

/** A bar chart reads best over a field of a few values; this many at most. */
export const FEW_VALUES = 50;

/**
 * The bar chart's default: the first text (or yes/no) field with a few values, else the one
 * with the fewest values above one, else the first text field, else the first that groups.
 * `distinct` (from the resource's summary) may be missing: then the first text field.
 */
function defaultBarX(fields: DatastoreField[], distinct: ReadonlyMap<string, number> | null): string | null {
  const texts = fields.filter((f) => f.type === "text" || f.type === "bool");
  if (distinct) {
    const counted = texts.filter((f) => (distinct.get(f.id) ?? 0) > 1);
    const few = counted.find((f) => distinct.get(f.id)! <= FEW_VALUES);
    if (few) return few.id;
    const fewest = [...counted].sort((a, b) => distinct.get(a.id)! - distinct.get(b.id)!)[0];
    if (fewest) return fewest.id;
  }
  return texts[0]?.id ?? xChoices("bar", fields)[0]?.id ?? null;
}

/** Text fields whose number of values decides the bar chart's default. */
export function barCandidates(fields: DatastoreField[]): string[] {
  return fields.filter((f) => f.type === "text" || f.type === "bool").map((f) => f.id);
}

const DAY_MS = 86_400_000;

/** Parses an API date or timestamp ("2001-03-01", "2001-03-01T10:00:00", no zone: UTC). */
export function parseTime(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) || /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A period that gives a readable number of points (a dozen to about 150) over the range. */
export function defaultPeriod(min: unknown, max: unknown): Period {
  const from = parseTime(min);
  const to = parseTime(max);
  if (!from || !to) return "month";
  const days = (to.getTime() - from.getTime()) / DAY_MS;
  if (days <= 62) return "day";
  if (days <= 2 * 366) return "week";
  if (days <= 12 * 366) return "month";
  if (days <= 40 * 366) return "quarter";
  return "year";
}

/** What the defaults may depend on, when known: the values per text field, the x field's range. */
export type ChartHints = {
  distinct?: ReadonlyMap<string, number> | null;
  range?: { min: unknown; max: unknown } | null;
};

/** Settings with every choice made; x is null only when the resource has no field to draw. */
export type ResolvedChart = { type: ChartType; x: string | null; y: string | null; agg: ChartAgg; period: Period | null };

/** Whether the defaults still wait on a hint: the bar's x on the text fields' value counts, the
 *  line's period on its field's range. */
export function needsHint(settings: ChartSettings, fields: DatastoreField[]): "distinct" | "range" | null {
  const x = pick(settings.x, xChoices(settings.type, fields));
  if (settings.type === "bar" && !x && barCandidates(fields).length > 1) return "distinct";
  if (settings.type === "line" && !settings.period && xChoices("line", fields).length > 0) return "range";
  return null;
}

function pick(id: string | null, choices: DatastoreField[]): string | null {
  return id && choices.some((f) => f.id === id) ? id : null;
}

export function resolveChart(settings: ChartSettings, fields: DatastoreField[], hints: ChartHints = {}): ResolvedChart {
  const { type } = settings;
  const xs = xChoices(type, fields);
  const ys = yChoices(fields);
  const x = pick(settings.x, xs) ?? (type === "bar" ? defaultBarX(fields, hints.distinct ?? null) : (xs[0]?.id ?? null));
  const firstOther = ys.find((f) => f.id !== x)?.id ?? null;
  if (type === "scatter") return { type, x, y: pick(settings.y, ys) ?? firstOther, agg: "count", period: null };
  if (type === "histogram") return { type, x, y: null, agg: "count", period: null };
  // a sum or an average needs a number to read; without one there is only the count
  const y = pick(settings.y, ys) ?? (settings.agg === "count" ? null : (firstOther ?? ys[0]?.id ?? null));
  const agg = y ? settings.agg : "count";
  const period = type === "line" ? (settings.period ?? defaultPeriod(hints.range?.min, hints.range?.max)) : null;
  return { type, x, y, agg, period };
}

export function fieldLabel(fields: DatastoreField[], id: string | null): string {
  const f = fields.find((g) => g.id === id);
  const label = f?.info?.label;
  return typeof label === "string" && label.trim() ? label : (id ?? "");
}
