// Ranges of a field: which types take one, what the From/To inputs hold, and the inclusive
// From/To a histogram bar stands for. Dates and timestamps both take date inputs, as people ask
// "from March 1 to March 31": From travels as "YYYY-MM-DD" (midnight, for a timestamp), and a
// timestamp's To as the day's last second, so the whole To day is kept.
import { english, type Translate } from "@/lib/i18n";
import type { Bound } from "@/lib/view-state";
import { isIntegerType, isNumericType } from "./format";
import { parseTypedValue } from "./typed-value";

export type RangeKind = "integer" | "number" | "date" | "timestamp";

export function rangeKind(type: string): RangeKind | null {
  if (isIntegerType(type)) return "integer";
  if (isNumericType(type)) return "number";
  if (type === "date") return "date";
  if (type.startsWith("timestamp")) return "timestamp";
  return null;
}

export function inputType(kind: RangeKind): "number" | "date" {
  return kind === "date" || kind === "timestamp" ? "date" : "number";
}

/** The To bound of a timestamp range: the last second of the day. */
const END_OF_DAY = "T23:59:59";

const DATE = /^(\d{4}-\d{2}-\d{2})/;

/** A chip's bound as its input's value ("" when the input can't show it): a date for dates
 *  and timestamps. */
export function boundToInput(bound: Bound | null, kind: RangeKind): string {
  if (bound === null) return "";
  const text = String(bound).trim();
  if (kind === "date" || kind === "timestamp") return DATE.exec(text)?.[1] ?? "";
  return Number.isFinite(Number(text)) && text !== "" ? text : "";
}

export type ParsedBound = { ok: true; value: Bound | null } | { ok: false; message: string };

/** An input's text as a bound: null when empty (open on that side). */
export function parseBound(text: string, kind: RangeKind, label: "From" | "To", field: string, type: string, t: Translate = english): ParsedBound {
  const typed = text.trim();
  if (!typed) return { ok: true, value: null };
  const bound = t(label === "From" ? "range.from" : "range.to");
  if (kind === "integer" || kind === "number") {
    const parsed = parseTypedValue(typed, field, type, t);
    return parsed.ok ? { ok: true, value: parsed.value as number } : { ok: false, message: t("range.boundProblem", { bound, message: parsed.message }) };
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(typed)) return { ok: false, message: t("range.notDate", { bound }) };
  return { ok: true, value: kind === "timestamp" && label === "To" ? `${typed}${END_OF_DAY}` : typed };
}

/** Same-kind bounds in an order-preserving form (ISO text orders as it reads). */
function comparable(bound: Bound, kind: RangeKind): number | string {
  return kind === "integer" || kind === "number" ? Number(bound) : String(bound);
}

export function compareBounds(a: Bound, b: Bound, kind: RangeKind): number {
  const x = comparable(a, kind);
  const y = comparable(b, kind);
  return x < y ? -1 : x > y ? 1 : 0;
}

function shiftIso(iso: string, kind: "date" | "timestamp", by: number): string {
  const t = new Date(`${kind === "date" ? iso.slice(0, 10) : iso.slice(0, 19)}Z`);
  if (Number.isNaN(t.getTime())) return iso;
  t.setTime(t.getTime() + by * (kind === "date" ? 86_400_000 : 1000));
  return t.toISOString().slice(0, kind === "date" ? 10 : 19);
}

/**
 * The From/To (input values, both inclusive) that keep a bar's rows. A bar holds `from` up to
 * but not `to` (the last bar includes `to`): for whole numbers, dates and timestamps To is
 * the step before `to`; for other numbers it is `to` itself. null: the bar holds no value of
 * the field's kind (a whole-number bar narrower than 1).
 */
export function barRange(bin: { from: number | string; to: number | string }, last: boolean, kind: RangeKind): { from: string; to: string } | null {
  if (kind === "integer") {
    const from = Math.ceil(Number(bin.from));
    const to = Number(bin.to);
    const top = last ? Math.floor(to) : Number.isInteger(to) ? to - 1 : Math.floor(to);
    return from <= top ? { from: String(from), to: String(top) } : null;
  }
  if (kind === "number") return { from: String(bin.from), to: String(bin.to) };
  const to = last ? String(bin.to) : shiftIso(String(bin.to), kind, -1);
  return { from: boundToInput(String(bin.from), kind), to: boundToInput(to, kind) };
}
