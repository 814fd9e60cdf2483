// A summary histogram's bins in people's words: the period the server chose for dates (read
// from the bin edges), each bin's range as a label, and the range chip a click on it adds.
// Bins hold `from` up to but not `to` (datastore_histogram's bins). Only a real number's last
// bin holds its `to` as well: whole numbers, dates and timestamps open a bin of their own for a
// maximum on an edge, and one value alone is a bin from it to itself.
import { english, type Translate } from "@/lib/i18n";
import type { HistogramBin } from "@/lib/api-client";
import type { Bound } from "@/lib/view-state";
import { formatDate, formatNumber, formatTimestamp } from "../format";
import { barRange, type RangeKind } from "../range-kind";

export type PeriodUnit = "second" | "minute" | "hour" | "day" | "week" | "month" | "quarter" | "half year" | "year";
export type BinPeriod = { unit: PeriodUnit; size: number };

const ISO = /^(-?\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/;

/** Seconds since 1970 of a stored date or timestamp (read in UTC, as the server bins them). */
function epoch(iso: string): number | null {
  const m = ISO.exec(iso);
  if (!m) return null;
  const t = new Date(0);
  t.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  t.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), 0);
  return t.getTime() / 1000;
}

function isoAt(seconds: number, withTime: boolean): string {
  const text = new Date(seconds * 1000).toISOString();
  return withTime ? text.slice(0, 19) : text.slice(0, 10);
}

function monthNumber(iso: string): number {
  const m = ISO.exec(iso)!;
  return Number(m[1]) * 12 + Number(m[2]) - 1;
}

const startsMonth = (iso: string) => /^-?\d{4,}-\d{2}-01(T00:00:00)?$/.test(iso);

/** The calendar or clock unit of date bins, from the first bin's edges; null for numbers and
 *  for a single bin over the whole range (no round edges). */
export function binPeriod(bins: HistogramBin[]): BinPeriod | null {
  const first = bins[0];
  if (!first || typeof first.from !== "string" || typeof first.to !== "string" || first.from === first.to) return null;
  const from = epoch(first.from);
  const to = epoch(first.to);
  if (from === null || to === null || to <= from) return null;
  if (startsMonth(first.from) && startsMonth(first.to)) {
    const months = monthNumber(first.to) - monthNumber(first.from);
    if (months === 3) return { unit: "quarter", size: 1 };
    if (months === 6) return { unit: "half year", size: 1 };
    if (months % 12 === 0) return { unit: "year", size: months / 12 };
    if (months === 1) return { unit: "month", size: 1 };
  }
  const span = to - from;
  if (span === 7 * 86_400) return { unit: "week", size: 1 };
  if (span % 86_400 === 0) return { unit: "day", size: span / 86_400 };
  if (span % 3600 === 0) return { unit: "hour", size: span / 3600 };
  if (span % 60 === 0) return { unit: "minute", size: span / 60 };
  return { unit: "second", size: span };
}

/** "month", "2 years", "15 minutes". */
export function periodWords(p: BinPeriod, t: Translate = english): string {
  return t(`period.${p.unit === "half year" ? "halfYear" : p.unit}`, { count: p.size });
}

function monthYear(iso: string, locale: string, month: "long" | "short"): string {
  const m = ISO.exec(iso)!;
  const t = new Date(0);
  t.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, 1);
  return new Intl.DateTimeFormat(locale, { month, year: "numeric", timeZone: "UTC" }).format(t);
}

/** Whether the bin holds its `to`. */
function holdsTo(bin: HistogramBin, last: boolean, kind: RangeKind): boolean {
  return (kind === "number" && last) || bin.from === bin.to;
}

/** The inclusive end of a date bin: the day (or second) before its `to`. */
function lastInside(bin: HistogramBin, kind: "date" | "timestamp"): string {
  const to = String(bin.to);
  if (holdsTo(bin, false, kind)) return to;
  const at = epoch(to);
  return at === null ? to : isoAt(at - (kind === "date" ? 86_400 : 1), kind === "timestamp");
}

/** What a bin holds, as a reader says it: "2,600 to 2,799", "January 2012", "week of Jan 1, 2001". */
export function binLabel(bin: HistogramBin, last: boolean, kind: RangeKind, period: BinPeriod | null, locale: string, grouping = true, t: Translate = english): string {
  const span = (from: string, to: string) => t("chip.range", { from, to });
  if (kind === "integer" || kind === "number") {
    const n = (v: number | string) => formatNumber(v, locale, grouping);
    const range = barRange(bin, holdsTo(bin, last, kind), kind) ?? { from: String(bin.from), to: String(bin.to) };
    return range.from === range.to ? n(range.from) : span(n(range.from), n(range.to));
  }
  const from = String(bin.from);
  const end = lastInside(bin, kind);
  const day = (iso: string) => formatDate(iso.slice(0, 10), locale) ?? iso;
  const moment = (iso: string) => (kind === "timestamp" ? formatTimestamp(iso, locale) : formatDate(iso, locale)) ?? iso;
  switch (period?.unit) {
    case "day":
      return period.size === 1 ? day(from) : span(day(from), day(end));
    case "week":
      return t("bin.weekOf", { day: day(from) });
    case "month":
      return monthYear(from, locale, "long");
    case "quarter":
    case "half year":
      return span(monthYear(from, locale, "short"), monthYear(end, locale, "short"));
    case "year":
      return period.size === 1 ? from.slice(0, 4) : span(from.slice(0, 4), end.slice(0, 4));
    default:
      return from === end ? moment(from) : span(moment(from), moment(end));
  }
}

/**
 * The range chip's bounds (both inclusive, as the range picker writes them) that keep a bin's
 * rows; null when the bin holds no value of the field's kind. Dates and whole numbers stop one
 * step before the next bin; a timestamp bin from midnight starts at its date and ends on the
 * second before the next bin (a whole-day bin ends "T23:59:59", as the picker's To does).
 */
export function binBounds(bin: HistogramBin, last: boolean, kind: RangeKind): { from: Bound; to: Bound } | null {
  if (kind === "timestamp") {
    const from = String(bin.from);
    return { from: from.replace(/T00:00:00$/, ""), to: lastInside(bin, kind) };
  }
  const range = barRange(bin, holdsTo(bin, last, kind), kind);
  if (!range) return null;
  if (kind === "date") return range;
  return { from: Number(range.from), to: Number(range.to) };
}

/** A bin edge under the strip: a number, a date, or a time when it is not midnight. */
export function edgeLabel(edge: number | string, kind: RangeKind, locale: string, grouping = true): string {
  const text = String(edge);
  if (kind === "integer" || kind === "number") return formatNumber(edge, locale, grouping);
  if (kind === "date" || text.endsWith("T00:00:00")) return formatDate(text.slice(0, 10), locale) ?? text;
  return formatTimestamp(text, locale) ?? text;
}
