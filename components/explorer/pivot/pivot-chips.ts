// A pivot cell's keys as filter chips: a value is "is", an empty key "is empty", a period its
// days (as the range picker writes them) and a bin its range (as the Summary's bars do). Pure.
import type { DatastoreField } from "@/lib/api-client";
import { withChip, type Chip, type Filters, type Period, type PivotKey, type Scalar } from "@/lib/view-state";
import { rangeKind } from "../range-kind";
import { binBounds } from "../summary/bins";

const ISO = /^(-?\d{4,})-(\d{2})-(\d{2})/;

/** The start of the period after the one starting at `start` (UTC, as the API groups). */
export function nextPeriod(start: string, period: Period): string | null {
  const m = ISO.exec(start);
  if (!m) return null;
  const t = new Date(0);
  t.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (period === "day") t.setUTCDate(t.getUTCDate() + 1);
  else if (period === "week") t.setUTCDate(t.getUTCDate() + 7);
  else t.setUTCMonth(t.getUTCMonth() + (period === "month" ? 1 : period === "quarter" ? 3 : 12));
  const day = t.toISOString().slice(0, 10);
  return start.includes("T") ? `${day}T00:00:00` : day;
}

export function keyChip(key: PivotKey, value: unknown, fields: DatastoreField[]): Chip | null {
  const field = key.field;
  if (value === null || value === undefined || value === "") return { kind: "empty", field, empty: true };
  const kind = rangeKind(fields.find((f) => f.id === field)?.type ?? "");
  if (key.period && typeof value === "string" && (kind === "date" || kind === "timestamp")) {
    const to = nextPeriod(value, key.period);
    const range = to && binBounds({ from: value, to, count: 0 }, false, kind);
    return range ? { kind: "range", field, ...range } : null;
  }
  if (key.bin !== undefined && typeof value === "number" && (kind === "integer" || kind === "number")) {
    const range = binBounds({ from: value, to: Number((value + key.bin).toPrecision(12)), count: 0 }, false, kind);
    return range ? { kind: "range", field, ...range } : null;
  }
  if (typeof value === "object") return null;
  return { kind: "is", field, values: [value as Scalar] };
}

/** The view's filters narrowed to the rows of one cell (or of a row's or a column's total). */
export function cellFilters(filters: Filters, keys: { key: PivotKey; value: unknown }[], fields: DatastoreField[]): Filters {
  return keys.reduce((f, k) => {
    const chip = keyChip(k.key, k.value, fields);
    return chip ? withChip(f, chip) : f;
  }, filters);
}
