// The bins of a histogram (datastore_histogram) over [min, max]: at most `bins` of them, with
// round edges — numbers in widths of 1, 2 or 5 × 10^k, dates and timestamps in whole calendar
// units (a day, a Monday-based week, a month, a year…). Pure and engine-independent, so every
// engine bins alike: it only evaluates `index` below for each value, in its own SQL.
import type { TypeName } from "./types";

/** How values of a field are binned: whole numbers, real numbers, dates or timestamps. */
export type Scale = "integer" | "real" | "date" | "timestamp";

/**
 * Bin i holds the values whose position p gives floor((p - offset) * mul / div) - first = i,
 * clamped into the bins (the maximum may sit on the last bin's closing edge). The position is
 * the number itself (`number`), seconds since 1970-01-01 (`second`), or months since year 0
 * (`month`: year × 12 + month − 1). Both factors are exact in a double, so an engine's
 * arithmetic finds the same bins as this module.
 */
export interface Axis {
  unit: "number" | "second" | "month";
  offset: number;
  mul: number;
  div: number;
  first: number;
  /** From and to in the field's own terms: numbers, or ISO text shaped as the stored values. */
  bins: { from: number | string; to: number | string }[];
}

type Step = Pick<Axis, "unit" | "offset" | "mul" | "div">;

export function scaleOf(type: TypeName): Scale | null {
  switch (type) {
    case "int2":
    case "int4":
    case "int8":
      return "integer";
    case "float4":
    case "float8":
    case "numeric":
      return "real";
    case "date":
    case "timestamp":
      return type;
    default:
      return null;
  }
}

/** The axis for values from min to max (numbers, or ISO text for dates and timestamps). */
export function axisFor(scale: Scale, min: number | string, max: number | string, bins: number): Axis {
  if (scale === "date" || scale === "timestamp") return timeAxis(scale, String(min), String(max), bins);
  return numberAxis(Number(min), Number(max), bins, scale === "integer");
}

export function index(step: Step, position: number): number {
  return Math.floor(snap((position - step.offset) * step.mul) / step.div);
}

/**
 * A product rounded to 6 decimals, as SQL's round(x, 6): 0.29 × 100 is 28.999999999999996 in
 * binary and would floor into the bin below. Every engine snaps the same product the same way
 * (SQL_SNAP), so their bins agree.
 */
export function snap(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** SQL for snap(x), in SQLite and PostgreSQL alike. */
export const SQL_SNAP = (x: string) => `round(${x}, 6)`;

function single(unit: Axis["unit"], min: number | string, max: number | string): Axis {
  return { unit, offset: 0, mul: 1, div: 1, first: 0, bins: [{ from: min, to: max }] };
}

const MANTISSAS = [1, 2, 5];

function numberAxis(min: number, max: number, bins: number, integer: boolean): Axis {
  // Zero is an edge at every width, so one bin over a range that spans it has no round edges.
  if (min === max || bins === 1 || !Number.isFinite(max - min)) return single("number", min, max);
  const smallest = Math.floor(Math.log10((max - min) / bins));
  for (let k = integer ? Math.max(0, smallest) : smallest; k <= 308; k++) {
    for (const m of MANTISSAS) {
      // Negative powers of ten are not exact in binary: multiply by 10^-k and divide by m.
      const step: Step = k < 0 ? { unit: "number", offset: 0, mul: 10 ** -k, div: m } : { unit: "number", offset: 0, mul: 1, div: m * 10 ** k };
      if (!Number.isFinite(step.mul) || !Number.isFinite(step.div)) return single("number", min, max);
      const first = index(step, min);
      const top = (max * step.mul) / step.div;
      // A real maximum on an edge closes the bin below it rather than opening one of its own;
      // integers fill [from, to) whole, so theirs opens the last bin.
      const last = !integer && Number.isInteger(top) && top > first ? top - 1 : Math.floor(top);
      if (last - first + 1 > bins) continue;
      const edge = (i: number) => ((first + i) * step.div) / step.mul;
      return { ...step, first, bins: Array.from({ length: last - first + 1 }, (_, i) => ({ from: edge(i), to: edge(i + 1) })) };
    }
  }
  return single("number", min, max);
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
/** 1970-01-05, the first Monday after the epoch: weeks start on Mondays (ISO 8601). */
const MONDAY = 4 * DAY;

const seconds = (div: number, offset = 0): Step => ({ unit: "second", offset, mul: 1, div });
const months = (div: number): Step => ({ unit: "month", offset: 0, mul: 1, div });

/** Within a day, for timestamps only. */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR].map((s) => seconds(s));
/** A day, a week, a month, a quarter, half a year, then years in 1, 2, 5 × 10^k (to 10,000: the
 *  stored years have four digits). */
const CALENDAR_STEPS = [
  seconds(DAY),
  seconds(7 * DAY, MONDAY),
  months(1),
  months(3),
  months(6),
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000].map((years) => months(12 * years)),
];

function timeAxis(scale: "date" | "timestamp", min: string, max: string, bins: number): Axis {
  if (min === max || bins === 1) return single("second", min, max);
  for (const step of scale === "timestamp" ? [...CLOCK_STEPS, ...CALENDAR_STEPS] : CALENDAR_STEPS) {
    const position = step.unit === "second" ? epochSeconds : monthNumber;
    const first = index(step, position(min));
    // Dates and timestamps are whole days or seconds, so bins are [from, to) like integers.
    const count = index(step, position(max)) - first + 1;
    if (count > bins) continue;
    const edge = (i: number) => {
      const at = (first + i) * step.div + step.offset;
      return step.unit === "second" ? isoOfSeconds(at, scale) : isoOfMonth(at, scale);
    };
    return { ...step, first, bins: Array.from({ length: count }, (_, i) => ({ from: edge(i), to: edge(i + 1) })) };
  }
  return single("second", min, max);
}

// ISO text as the datastore stores it: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM:SS', in no time zone
// (read as UTC here, as SQLite's date functions read it).

function parts(iso: string): number[] {
  return iso.split(/[-T:]/).map(Number);
}

export function epochSeconds(iso: string): number {
  const [y, mo, d, h = 0, mi = 0, s = 0] = parts(iso);
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  t.setUTCHours(h, mi, s, 0);
  return t.getTime() / 1000;
}

export function monthNumber(iso: string): number {
  const [y, mo] = parts(iso);
  return y * 12 + mo - 1;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function isoOfSeconds(at: number, scale: "date" | "timestamp"): string {
  const t = new Date(at * 1000);
  const date = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  return scale === "date" ? date : `${date}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

function isoOfMonth(month: number, scale: "date" | "timestamp"): string {
  const date = `${pad(Math.floor(month / 12), 4)}-${pad((month % 12) + 1)}-01`;
  return scale === "date" ? date : `${date}T00:00:00`;
}
