// CKAN's parameter validators, shared by every action. GET query strings arrive as strings
// (or lists of strings for repeated keys), POST bodies as JSON, and both go through these,
// which convert the way CKAN's validators do (contract §1 "Reading the parameters").
import { config } from "../config";
import { DatastoreError, ErrorBag } from "./errors";
import { pythonJson } from "./types";

export type Params = Record<string, unknown>;

/** Any request value as text, for messages and comparisons. `String()` throws on a JSON
 *  object whose own "toString" or "valueOf" is not a function; this never does. */
export function str(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || typeof v !== "object") return String(v);
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** `null` and `""` mean "use the default" for defaulted parameters. */
export function isUnset(v: unknown): boolean {
  return v === undefined || v === null || v === "";
}

const TRUE_WORDS = new Set(["true", "yes", "t", "y", "1", "on"]);

/** CKAN's asbool: true/yes/t/y/1 (any case) are true, anything else false. */
export function asBool(v: unknown, fallback: boolean): boolean {
  if (isUnset(v)) return fallback;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return TRUE_WORDS.has(v.trim().toLowerCase());
  return false;
}

const FALSE_WORDS = new Set(["false", "no", "f", "n", "0", "off"]);

/** asBool's words, but a value that is neither a true nor a false word is a 409 under `key`:
 *  for a setting where a typo read as false would lose data (datastore_create's `history`). */
export function asBoolStrict(v: unknown, key: string, bag: ErrorBag, fallback: boolean): boolean {
  if (isUnset(v) || typeof v === "boolean") return asBool(v, fallback);
  const word = typeof v === "string" ? v.trim().toLowerCase() : typeof v === "number" ? String(v) : "";
  if (TRUE_WORDS.has(word) || FALSE_WORDS.has(word)) return TRUE_WORDS.has(word);
  bag.add(key, `${key} must be true or false, not ${JSON.stringify(v) ?? str(v)}`);
  return fallback;
}

/**
 * Integer parameter: "Invalid integer" for non-integers, `negative` message below zero.
 * With `max`, larger integers (however large) are clamped to it, as CKAN clamps `limit`.
 */
export function asInt(
  v: unknown,
  key: string,
  bag: ErrorBag,
  fallback: number,
  negative: string,
  max?: number,
): number {
  if (isUnset(v)) return fallback;
  let n: number;
  if (typeof v === "number" && Number.isInteger(v)) n = v;
  else if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) n = Number(v);
  else {
    bag.add(key, "Invalid integer");
    return fallback;
  }
  if (n < 0) {
    bag.add(key, negative);
    return fallback;
  }
  if (max !== undefined && n > max) return max;
  if (!Number.isSafeInteger(n)) {
    bag.add(key, "Invalid integer");
    return fallback;
  }
  return n;
}

/** A list, or a comma-separated string (CKAN's list parameters). Null if neither. */
export function asList(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") {
    return v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  }
  return null;
}

/** A list of strings from a list or comma string; records an error under key otherwise. */
export function asStringList(v: unknown, key: string, bag: ErrorBag): string[] {
  const list = asList(v);
  if (list === null || list.some((x) => typeof x !== "string")) {
    bag.add(key, `invalid value ${JSON.stringify(v)}`);
    return [];
  }
  return list as string[];
}

/** A JSON parameter that may arrive as a JSON string (GET): parsed, or undefined if not JSON
 *  (or nested deeper than the configured limit). */
export function parseJsonString(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    const parsed: unknown = JSON.parse(v);
    return nestedDeeperThan(parsed, config.maxJsonDepth) ? undefined : parsed;
  } catch {
    return undefined;
  }
}

/** True when arrays and objects nest more than `max` levels (checked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** CKAN's not_missing + not_empty: absent, null, "", [] and {} (0 and false are values). */
export function isEmptyParam(v: unknown): boolean {
  if (isUnset(v)) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}

/** CKAN's unicode_safe: a string as it is, anything else as its JSON text (sorted keys,
 *  Python's spacing), which then names no resource (404) rather than failing validation. */
export function unicodeSafe(v: unknown): string {
  if (typeof v === "string") return v;
  const sorted = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sorted) : isPlainObject(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted(x[k])])) : x;
  return pythonJson(sorted(v));
}

/**
 * The resource a request names: `resource_id`, or its synonym `id` (`id` first where CKAN
 * core reads `id`, as resource_show). One rule on every action: empty is 409 "Missing value"
 * under `key`; any other value is read as its text, as CKAN reads it.
 */
export function requireResourceId(params: Params, key: "resource_id" | "id" = "resource_id"): string {
  const [first, second] = key === "id" ? [params.id, params.resource_id] : [params.resource_id, params.id];
  const v = isEmptyParam(first) ? second : first;
  if (isEmptyParam(v)) throw DatastoreError.field(key, "Missing value");
  return unicodeSafe(v);
}

/** Field-name rule of contract §2. */
export function fieldNameError(name: unknown): string | null {
  if (typeof name !== "string" || name === "" || name.trim() !== name || name.startsWith("_") || name.includes('"') || name.length > 63) {
    return `"${str(name)}" is not a valid field name`;
  }
  return null;
}
