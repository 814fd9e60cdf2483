// `as_of`: the moment a view shows the table at, as datastore_search takes it: a version number
// or an ISO 8601 time. Reading never throws: anything else means no `as_of` (the current data).
// Also which actions accept it, so a view says so where one does not rather than show current
// figures as past ones.
import type { Tab } from "./types";

/** A version (integer) or an ISO 8601 date or time, as the URL gave it. */
export type AsOf = number | string;

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function validIsoTime(s: string): boolean {
  const m = ISO_TIME.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date.UTC rolls 30 February over into March: the round trip must give the same day back
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  if (m[7] && m[7].toUpperCase() !== "Z" && Number(m[7].slice(1, 3)) > 23) return false;
  return true;
}

/** `as_of=12` (a version) or `as_of=2026-11-27T10:00:00Z` (a time); null for anything else. */
export function parseAsOf(raw: string | null | undefined): AsOf | null {
  const s = raw?.trim();
  if (!s) return null;
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : null;
  }
  return validIsoTime(s) ? s : null;
}

/**
 * The actions that read the table as of a past version. The others read the current data only:
 * a view that needs one of them says it cannot show the past, instead of sending `as_of` to an
 * action that would ignore it.
 */
export const AS_OF_ACTIONS: ReadonlySet<string> = new Set(["datastore_search"]);

export function takesAsOf(action: string): boolean {
  return AS_OF_ACTIONS.has(action);
}

/** The actions each tab reads its figures with. */
const TAB_ACTIONS: Record<Tab, string[]> = {
  table: ["datastore_search"],
  summary: ["datastore_summary"],
  chart: ["datastore_aggregate", "datastore_histogram", "datastore_summary"],
  map: ["datastore_aggregate"],
  pivot: ["datastore_aggregate"],
};

/** Whether a tab can show the table as it was: every action it reads with takes `as_of`. */
export function tabShowsPast(tab: Tab): boolean {
  return TAB_ACTIONS[tab].every(takesAsOf);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A time as an `<input type="datetime-local">` shows it, in this browser's time zone, to the second. */
export function toLocalInput(time: string | Date): string {
  const d = typeof time === "string" ? new Date(time) : time;
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** What a datetime-local input holds (local time, seconds optional) as an ISO 8601 UTC time, or
 *  null when it holds no valid time. */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? 0));
  const date = new Date(y, mo - 1, d, h, mi, s, Number((m[7] ?? "0").padEnd(3, "0")));
  if (date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return date.toISOString().replace(/\.000Z$/, "Z");
}
