// What datastore_aggregate asks for, and how its groups are ordered (issue 14's contract, and
// issue 25's second form, /work/notes/aggregate-v2.md, docs/api.md): up to three group_by
// keys, each grouped by its value, a period (dates, timestamps) or a bin (numbers); measures
// (count, sum, avg, min, max, count_distinct); `having` over the measures; an order; a page of
// groups; totals. Pure and engine-independent: every engine parses, checks, bins and orders
// alike, and only counts in its own SQL.
import type { AggregateFn, AggregateGroup, AggregateKey, AggregateMeasure, AggregateMetric, AggregateOutput, AggregatePeriod, AggregateSpec, Filter, Resource } from "./engine";
import { DatastoreError, ErrorBag } from "./errors";
import { parseFilters, pyStr } from "./filters";
import { scaleOf } from "./histogram-axis";
import { conditionMatches } from "./operators";
import type { TypeName } from "./types";
import { asBool, asInt, isEmptyParam, isPlainObject, isUnset, parseJsonString, str, type Params } from "./validate";

export const PERIODS: readonly AggregatePeriod[] = ["day", "week", "month", "quarter", "year"];
export const METRICS: readonly AggregateMetric[] = ["count", "sum", "avg", "min", "max"];
export const FNS: readonly AggregateFn[] = [...METRICS, "count_distinct"];
const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
/** Keys of either form (the old one took two until issue 25). */
export const MAX_KEYS = 3;
export const MAX_METRICS = 10;
/** The name the old form's one measure goes by inside. */
export const OLD_METRIC = "value";

/** A group_by key as sent: a field id, or an object with its own period or bin. */
export type KeyRequest = string | { field: string; period?: AggregatePeriod; bin?: number };

/** The parameters as read before the resource is known. */
export interface AggregateRequest {
  /** The second form (metrics, having, order_by, totals, or a key given as an object). */
  v2: boolean;
  /** A list of keys, or one string: a field's id, else a comma-separated list (bound later,
   *  since a field's id may itself hold a comma). */
  groupBy: string | KeyRequest[];
  period: AggregatePeriod | null;
  bin: number | null;
  metric: AggregateMetric;
  field: string | null;
  /** The second form's measures as sent (checked against the fields when bound). */
  metrics: { fn: AggregateFn; field: string | null; name: string | null }[];
  having: unknown;
  order: { by: string; desc: boolean }[];
  limit: number;
  offset: number;
  totals: boolean;
  budgetMs: number | null;
}

const NUMBER_RE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function positiveNumber(v: unknown): number | null {
  const b = typeof v === "number" ? v : typeof v === "string" && NUMBER_RE.test(v) ? Number(v) : NaN;
  return Number.isFinite(b) && b > 0 ? b : null;
}

/** A JSON parameter sent as text (GET) when it reads as a list or an object. */
function jsonish(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[[{]/.test(v)) return v;
  const parsed = parseJsonString(v);
  return parsed === undefined ? v : parsed;
}

function parseKey(x: unknown, bag: ErrorBag): KeyRequest | null {
  if (typeof x === "string" && x !== "") return x;
  if (!isPlainObject(x) || typeof x.field !== "string" || x.field === "" || Object.keys(x).some((k) => !["field", "period", "bin"].includes(k))) {
    bag.add("group_by", `invalid key ${JSON.stringify(x)}: a field id or {"field": id, "period": …} or {"field": id, "bin": …}`);
    return null;
  }
  const key: KeyRequest = { field: x.field };
  if (!isUnset(x.period)) {
    if (PERIODS.includes(x.period as AggregatePeriod)) key.period = x.period as AggregatePeriod;
    else bag.add("group_by", `period of "${x.field}" must be one of ${PERIODS.join(", ")}`);
  }
  if (!isUnset(x.bin)) {
    const b = positiveNumber(x.bin);
    if (b === null) bag.add("group_by", `bin of "${x.field}" must be a positive number`);
    else key.bin = b;
  }
  if (key.period && key.bin !== undefined) bag.add("group_by", `"${x.field}" takes a period or a bin, not both`);
  return key;
}

function parseMetrics(v: unknown, bag: ErrorBag): AggregateRequest["metrics"] {
  const list = jsonish(v);
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_METRICS) {
    bag.add("metrics", `Must be a list of 1 to ${MAX_METRICS} measures, each {"fn": …, "field": …}`);
    return [];
  }
  const out: AggregateRequest["metrics"] = [];
  for (const m of list) {
    if (!isPlainObject(m) || Object.keys(m).some((k) => !["fn", "field", "name"].includes(k))) {
      bag.add("metrics", `invalid measure ${JSON.stringify(m)}`);
      continue;
    }
    if (!FNS.includes(m.fn as AggregateFn)) {
      bag.add("metrics", `fn must be one of ${FNS.join(", ")}`);
      continue;
    }
    const fn = m.fn as AggregateFn;
    if (!isUnset(m.name) && (typeof m.name !== "string" || m.name.length > 100)) {
      bag.add("metrics", `invalid name ${JSON.stringify(m.name)}`);
      continue;
    }
    // Count reads no field: one sent along is left unread, as in the old form.
    if (fn !== "count" && (typeof m.field !== "string" || m.field === "")) {
      bag.add("metrics", `${fn} needs a field`);
      continue;
    }
    out.push({ fn, field: fn === "count" ? null : (m.field as string), name: isUnset(m.name) ? null : (m.name as string) });
  }
  return out;
}

/** `order_by`: "name", "name desc", a list or a comma string of those. */
function parseOrder(v: unknown, bag: ErrorBag): AggregateRequest["order"] {
  const parsed = jsonish(v);
  const items = Array.isArray(parsed) ? parsed : typeof parsed === "string" ? parsed.split(",") : null;
  if (items === null || items.some((x) => typeof x !== "string")) {
    bag.add("order_by", "Must be a measure name or a group_by field, optionally followed by asc or desc, or a list of them");
    return [];
  }
  const out: AggregateRequest["order"] = [];
  for (const item of items as string[]) {
    const m = /^\s*(.+?)(?:\s+(asc|desc))?\s*$/i.exec(item);
    if (!m) {
      bag.add("order_by", `invalid value ${JSON.stringify(item)}`);
      continue;
    }
    out.push({ by: m[1], desc: m[2]?.toLowerCase() === "desc" });
  }
  if (out.length === 0) bag.add("order_by", "Missing value");
  return out;
}

/** The aggregate's own parameters (the search's are read elsewhere); errors go to `bag`. */
export function parseAggregateParams(params: Params, bag: ErrorBag): AggregateRequest {
  let groupBy: string | KeyRequest[] = [];
  let objectKey = false;
  const g = jsonish(params.group_by);
  if (isEmptyParam(g)) bag.add("group_by", "Missing value");
  else if (typeof g === "string") groupBy = g;
  else if (Array.isArray(g) && g.length >= 1 && g.length <= MAX_KEYS) {
    objectKey = g.some((x) => typeof x !== "string");
    groupBy = g.map((x) => parseKey(x, bag)).filter((x): x is KeyRequest => x !== null);
  } else if (isPlainObject(g)) {
    objectKey = true;
    const k = parseKey(g, bag);
    groupBy = k === null ? [] : [k];
  } else bag.add("group_by", `Must be one to ${MAX_KEYS} field ids`);

  const v2 = objectKey || !isUnset(params.metrics) || !isUnset(params.having) || !isUnset(params.order_by) || !isUnset(params.totals);

  let period: AggregatePeriod | null = null;
  if (!isUnset(params.period)) {
    if (PERIODS.includes(params.period as AggregatePeriod)) period = params.period as AggregatePeriod;
    else bag.add("period", `Must be one of ${PERIODS.join(", ")}`);
  }

  let bin: number | null = null;
  if (!isUnset(params.bin)) {
    bin = positiveNumber(params.bin);
    if (bin === null) bag.add("bin", "Must be a positive number");
  }

  let metric: AggregateMetric = "count";
  let field: string | null = null;
  if (!v2) {
    if (!isUnset(params.metric)) {
      if (METRICS.includes(params.metric as AggregateMetric)) metric = params.metric as AggregateMetric;
      else bag.add("metric", `Must be one of ${METRICS.join(", ")}`);
    }
    // Count reads no field: one sent along (the explorer keeps its y axis) is left unread.
    if (metric !== "count") {
      if (isUnset(params.field)) bag.add("field", "Missing value");
      else if (typeof params.field !== "string") bag.add("field", `invalid value ${JSON.stringify(str(params.field))}`);
      else field = params.field;
    }
  } else if (!isUnset(params.metric)) bag.add("metric", "Send metrics (a list of measures) instead of metric with the second form");

  const metrics = v2 ? (isUnset(params.metrics) ? [{ fn: "count" as const, field: null, name: null }] : parseMetrics(params.metrics, bag)) : [];
  const having = v2 && !isUnset(params.having) ? jsonish(params.having) : null;
  const order = v2 && !isUnset(params.order_by) ? parseOrder(params.order_by, bag) : [];

  const limit = asInt(params.limit, "limit", bag, DEFAULT_LIMIT, "Must be a natural number");
  if (limit < 1 || limit > MAX_LIMIT) bag.add("limit", `Must be between 1 and ${MAX_LIMIT}`);
  const offset = asInt(params.offset, "offset", bag, 0, "Must be a natural number");
  const totals = asBool(params.totals, false);
  return { v2, groupBy, period, bin, metric, field, metrics, having, order, limit, offset, totals, budgetMs: parseBudgetMs(params, bag) };
}

/** `budget_ms` of the extensions (datastore_aggregate, _summary, _histogram, _value_counts):
 *  null when absent (exact), else a positive integer. */
export function parseBudgetMs(params: Params, bag: ErrorBag): number | null {
  if (isUnset(params.budget_ms)) return null;
  const ms = asInt(params.budget_ms, "budget_ms", bag, 0, "Must be a positive integer");
  if (ms < 1) {
    bag.add("budget_ms", "Must be a positive integer");
    return null;
  }
  return ms;
}

function typeOf(r: Resource, id: string): TypeName | undefined {
  return id === "_id" ? "int8" : r.fields.find((f) => f.id === id)?.type;
}

const isNumber = (t: TypeName) => scaleOf(t) === "integer" || scaleOf(t) === "real";
const isTime = (t: TypeName) => t === "date" || t === "timestamp";

/** A measure's name when none is given: `count`, `sum_delay`, `count_distinct_destination`. */
export function measureName(fn: AggregateFn, field: string | null): string {
  return field === null ? fn : `${fn}_${field}`;
}

/** The keys checked against the resource's fields: a period groups a date or timestamp key and
 *  a bin a numeric key; the global `period` / `bin` apply to plain keys of their kind. */
function bindKeys(r: Resource, req: AggregateRequest, bag: ErrorBag): AggregateKey[] {
  const max = MAX_KEYS;
  const many = `one to ${MAX_KEYS} field ids`;
  let asked: KeyRequest[];
  if (Array.isArray(req.groupBy)) asked = req.groupBy;
  else if (typeOf(r, req.groupBy)) asked = [req.groupBy];
  else asked = req.groupBy.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (asked.length === 0 || asked.length > max) bag.add("group_by", `Must be ${many}`);
  const typed: [KeyRequest, string, TypeName][] = [];
  for (const k of asked.slice(0, max)) {
    const id = typeof k === "string" ? k : k.field;
    const t = typeOf(r, id);
    if (!t) bag.add("group_by", `field "${id}" does not exist`);
    else if (typeof k !== "string" && k.period && !isTime(t)) bag.add("group_by", `a period needs a date or timestamp field: "${id}" is ${t}`);
    else if (typeof k !== "string" && k.bin !== undefined && !isNumber(t)) bag.add("group_by", `a bin needs a number field: "${id}" is ${t}`);
    else typed.push([k, id, t]);
  }
  const ids = typed.map(([, id]) => id);
  if (new Set(ids).size < ids.length) bag.add("group_by", "a field may be grouped once");
  const known = bag.empty;
  const describe = () => typed.map(([, id, t]) => `"${id}" is ${t}`).join(", ");
  const plain = typed.filter(([k]) => typeof k === "string");
  if (known && req.period && !plain.some(([, , t]) => isTime(t))) bag.add("period", `a period needs a date or timestamp field: ${describe()}`);
  if (known && req.bin !== null && !plain.some(([, , t]) => isNumber(t))) bag.add("bin", `a bin needs a number field: ${describe()}`);
  return typed.map(([k, id, t]): AggregateKey => {
    if (typeof k !== "string") return k.period ? { field: id, period: k.period } : k.bin !== undefined ? { field: id, bin: k.bin } : { field: id };
    if (req.period && isTime(t)) return { field: id, period: req.period };
    if (req.bin !== null && isNumber(t)) return { field: id, bin: req.bin };
    return { field: id };
  });
}

function bindMetrics(r: Resource, req: AggregateRequest, keys: AggregateKey[], bag: ErrorBag): AggregateMeasure[] {
  if (!req.v2) {
    if (req.field !== null) {
      const t = typeOf(r, req.field);
      if (!t) bag.add("field", `field "${req.field}" does not exist`);
      else if (!isNumber(t)) bag.add("field", `field "${req.field}" is ${t}: ${req.metric} needs a number field`);
    }
    return [{ name: OLD_METRIC, fn: req.metric, field: req.field }];
  }
  const out: AggregateMeasure[] = [];
  for (const m of req.metrics) {
    const name = m.name ?? measureName(m.fn, m.field);
    if (m.field !== null) {
      const t = typeOf(r, m.field);
      if (!t) {
        bag.add("metrics", `field "${m.field}" does not exist`);
        continue;
      }
      const fits = m.fn === "count_distinct" ? t !== "json" : m.fn === "min" || m.fn === "max" ? isNumber(t) || isTime(t) : isNumber(t);
      if (!fits) {
        const needs = m.fn === "count_distinct" ? "any field but json" : m.fn === "min" || m.fn === "max" ? "a number, date or timestamp field" : "a number field";
        bag.add("metrics", `field "${m.field}" is ${t}: ${m.fn} needs ${needs}`);
        continue;
      }
    }
    if (out.some((o) => o.name === name)) bag.add("metrics", `two measures are named "${name}": give one a "name"`);
    else if (keys.some((k) => k.field === name)) bag.add("metrics", `"${name}" is a group_by field: give the measure another "name"`);
    out.push({ name, fn: m.fn, field: m.field });
  }
  return out;
}

/** `having` parsed as `filters` are, over the measures' names and the keys' field ids. */
function bindHaving(req: AggregateRequest, keys: AggregateKey[], metrics: AggregateMeasure[], bag: ErrorBag): Filter | null {
  if (req.having === null) return null;
  const names = new Set([...metrics.map((m) => m.name), ...keys.map((k) => k.field)]);
  try {
    return parseFilters(req.having, (name) => names.has(name));
  } catch (e) {
    if (!(e instanceof DatastoreError)) throw e;
    const messages = (e.details as Record<string, unknown>).filters;
    for (const m of Array.isArray(messages) ? messages : [e.message]) bag.add("having", `${String(m)} (having names measures or group_by fields: ${[...names].join(", ")})`);
    return null;
  }
}

/**
 * The request checked against the resource's fields (409 per parameter). A period groups every
 * date or timestamp key and a bin every numeric key, so [date, origin] by month and a lat/lon
 * grid both work; either one with no key of its kind is an error.
 */
export function bindAggregateSpec(r: Resource, req: AggregateRequest): AggregateSpec {
  const bag = new ErrorBag();
  const keys = bindKeys(r, req, bag);
  const metrics = bindMetrics(r, req, keys, bag);
  const having = bindHaving(req, keys, metrics, bag);
  const names = new Set([...metrics.map((m) => m.name), ...keys.map((k) => k.field)]);
  for (const o of req.order) if (!names.has(o.by)) bag.add("order_by", `"${o.by}" is neither a measure nor a group_by field (${[...names].join(", ")})`);
  bag.throwIfAny();
  return { keys, metrics, having, order: req.order, limit: req.limit, offset: req.offset, totals: req.totals, budgetMs: req.budgetMs };
}

/**
 * A bin width as an exact ratio div / mul (mul a power of ten), so that floor(v * mul / div)
 * puts 0.3 in the bin of width 0.1 starting at 0.3 (0.3 / 0.1 is 2.9999999999999996), and the
 * bin's lower edge, index * div / mul, is the round number. Widths with no short decimal form
 * fall back to the width itself.
 */
export function binStep(bin: number): { mul: number; div: number } {
  const [mantissa, exponent = "0"] = bin.toString().split("e");
  const decimals = (mantissa.split(".")[1] ?? "").length - Number(exponent);
  if (decimals <= 0 || decimals > 15) return { mul: 1, div: bin };
  const mul = 10 ** decimals;
  const div = Math.round(bin * mul);
  return Number.isSafeInteger(div) && div / mul === bin ? { mul, div } : { mul: 1, div: bin };
}

/** The lower edge of bin `index` (binStep's ratio). */
export function binEdge(bin: number, index: number): number {
  const { mul, div } = binStep(bin);
  return (index * div) / mul;
}

const RANK: Record<string, number> = { boolean: 0, number: 1, string: 2 };

/** Keys ascending: false before true, numbers, text by code unit, other JSON by its text; null last. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const [ra, rb] = [RANK[typeof a] ?? 3, RANK[typeof b] ?? 3];
  if (ra !== rb) return ra - rb;
  if (typeof a === "number" || typeof a === "boolean") return Number(a) - Number(b);
  const [sa, sb] = typeof a === "string" ? [a, b as string] : [JSON.stringify(a), JSON.stringify(b)];
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function compareKeys(a: AggregateGroup, b: AggregateGroup): number {
  for (let i = 0; i < a.key.length; i++) {
    const d = compareValues(a.key[i], b.key[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether groups go in key order (a time series, a grid) rather than largest first. */
export function inKeyOrder(spec: AggregateSpec): boolean {
  return spec.keys.every((k) => k.period !== undefined || k.bin !== undefined);
}

/** A group's value under a measure's name or a key's field id. */
function valueOf(spec: AggregateSpec, g: AggregateGroup, name: string): unknown {
  const i = spec.keys.findIndex((k) => k.field === name);
  return i >= 0 ? g.key[i] : g.values[name];
}

/** Whether a group meets `having` (a filter tree over its measures and keys). */
function kept(spec: AggregateSpec, f: Filter, g: AggregateGroup): boolean {
  if (f.op === "and") return f.of.every((x) => kept(spec, x, g));
  if (f.op === "or") return f.of.some((x) => kept(spec, x, g));
  const v = valueOf(spec, g, f.field);
  const cell = v === null || v === undefined ? null : typeof v === "number" ? v : typeof v === "string" ? v : JSON.stringify(v);
  return conditionMatches(cell, f, (x) => (x === null ? null : typeof cell === "number" ? Number(x) : pyStr(x)));
}

/**
 * The groups `having` keeps, in the asked order (by default: by key when every key is a
 * period or a bin; else the first measure descending, groups with no value last, then by key),
 * the page from `offset` of `limit` of them, and those past it summed up in `others`.
 */
export function rankGroups(all: AggregateGroup[], spec: AggregateSpec): Pick<AggregateOutput, "groups" | "others"> {
  const having = spec.having;
  const passing = having ? all.filter((g) => kept(spec, having, g)) : all;
  const order = spec.order.length ? spec.order : inKeyOrder(spec) ? [] : [{ by: spec.metrics[0].name, desc: true }];
  const sorted = [...passing].sort((a, b) => {
    for (const o of order) {
      const [x, y] = [valueOf(spec, a, o.by), valueOf(spec, b, o.by)];
      if (x === y) continue;
      // No value last, whichever the direction.
      if (x === null) return 1;
      if (y === null) return -1;
      const d = compareValues(x, y);
      if (d !== 0) return o.desc ? -d : d;
    }
    return compareKeys(a, b);
  });
  const end = spec.offset + spec.limit;
  const groups = sorted.slice(spec.offset, end);
  const rest = sorted.slice(end);
  return { groups, others: { groups: rest.length, count: rest.reduce((n, g) => n + g.count, 0) } };
}

/** Throws 409 on `group_by` for a spec an engine got without bindAggregateSpec (defensive). */
export function requireKeys(spec: AggregateSpec): void {
  if (spec.keys.length === 0 || spec.keys.length > MAX_KEYS) throw DatastoreError.field("group_by", `Must be one to ${MAX_KEYS} keys`);
  if (spec.metrics.length === 0 || spec.metrics.length > MAX_METRICS) throw DatastoreError.field("metrics", `Must be 1 to ${MAX_METRICS} measures`);
}
