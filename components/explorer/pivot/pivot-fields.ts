// The pivot a view asks for, checked against the resource's fields: keys on fields that group
// (a date always by a period, a month unless chosen; a number by a bin when one is chosen), a
// measure on a number field, and a Rows field when the URL names none. Pure.
import type { DatastoreField } from "@/lib/api-client";
import { english, type Translate } from "@/lib/i18n";
import type { PivotKey, PivotMeasure, PivotSettings } from "@/lib/view-state";
import { isNumericType } from "../format";
import { fieldLabel, isTemporal } from "../chart/chart-fields";

/** Fields a key may group by: not JSON, not a list. */
export function keyChoices(fields: DatastoreField[]): DatastoreField[] {
  return fields.filter((f) => f.type !== "json" && !f.type.startsWith("_"));
}

/** Fields a sum, average, minimum or maximum may read. */
export function measureChoices(fields: DatastoreField[]): DatastoreField[] {
  return fields.filter((f) => isNumericType(f.type));
}

export const DEFAULT_PERIOD = "month";

/** The key as the API will group it, or null when its field is not one to group by. A field
 *  whose id ends like a period or a bin (`a:month`) is read as the whole id when it exists. */
export function resolveKey(key: PivotKey, fields: DatastoreField[]): PivotKey | null {
  const choices = keyChoices(fields);
  let field = choices.find((f) => f.id === key.field);
  let k = key;
  const suffix = key.period ?? (key.bin !== undefined ? String(key.bin) : null);
  const whole = suffix === null ? undefined : choices.find((f) => f.id === `${key.field}:${suffix}`);
  if (whole && !field) {
    field = whole;
    k = { field: whole.id };
  }
  if (!field) return null;
  if (isTemporal(field)) return { field: field.id, period: k.period ?? DEFAULT_PERIOD };
  if (isNumericType(field.type) && k.bin !== undefined) return { field: field.id, bin: k.bin };
  return { field: field.id };
}

function resolveMeasure(m: PivotMeasure, fields: DatastoreField[]): PivotMeasure {
  if (m.fn === "count" || !m.field) return { fn: "count", field: null };
  return measureChoices(fields).some((f) => f.id === m.field) ? m : { fn: "count", field: null };
}

/** The Rows field when none is chosen: the first text or yes/no field, else the first that groups. */
function defaultRow(fields: DatastoreField[]): PivotKey | null {
  const f = fields.find((g) => g.type === "text" || g.type === "bool") ?? keyChoices(fields)[0];
  return f ? resolveKey({ field: f.id }, fields) : null;
}

/** Settings with every choice checked; null when the resource has no field to group by. */
export function resolvePivot(settings: PivotSettings, fields: DatastoreField[]): PivotSettings | null {
  const rows: PivotKey[] = [];
  for (const key of settings.rows) {
    const k = resolveKey(key, fields);
    if (k && !rows.some((r) => r.field === k.field)) rows.push(k);
  }
  if (rows.length === 0) {
    const d = defaultRow(fields);
    if (!d) return null;
    rows.push(d);
  }
  const c = settings.columns && resolveKey(settings.columns, fields);
  const columns = c && !rows.some((r) => r.field === c.field) ? c : null;
  return { rows, columns, measure: resolveMeasure(settings.measure, fields) };
}

/** "Rows", "Average Delay (min)". */
export function measureLabel(m: PivotMeasure, fields: DatastoreField[], t: Translate = english): string {
  return m.fn === "count" || !m.field ? t("pivot.measure.count") : t(`pivot.measure.${m.fn}`, { field: fieldLabel(fields, m.field) });
}

/** A key's header: "origin", "Month of Departure", "Distance (miles) in bins of 500". */
export function keyLabel(key: PivotKey, fields: DatastoreField[], t: Translate = english): string {
  const name = fieldLabel(fields, key.field);
  if (key.period) return t("chart.col.periodOf", { period: t(`chart.period.${key.period}`), x: name });
  // the width as written in the URL, not in the reader's digits
  if (key.bin !== undefined) return t("pivot.inBins", { name, size: String(key.bin) });
  return name;
}
