// What datastore_aggregate asks for, and how its groups are ordered (issue 14 contract): one or
// two group_by fields, each grouped by its value, a period (dates, timestamps) or a bin
// (numbers); a metric over a numeric field; how many groups. Pure and engine-independent:
// every engine parses, checks, bins and orders alike, and only counts in its own SQL.
import type { AggregateGroup, AggregateKey, AggregateMetric, AggregateOutput, AggregatePeriod, AggregateSpec, Resource } from "./engine";
import { DatastoreError, ErrorBag } from "./errors";
import { scaleOf } from "./histogram-axis";
import type { TypeName } from "./types";
import { asInt, isEmptyParam, isUnset, str, type Params } from "./validate";

export const PERIODS: readonly AggregatePeriod[] = ["day", "week", "month", "quarter", "year"];
export const METRICS: readonly AggregateMetric[] = ["count", "sum", "avg", "min", "max"];
const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
const MAX_KEYS = 2;

/** The parameters as read before the resource is known. */
export interface AggregateRequest {
  /** A list of ids, or one string: a field's id, else a comma-separated list (bound later,
   *  since a field's id may itself hold a comma). */
  groupBy: string | string[];
  period: AggregatePeriod | null;
  bin: number | null;
  metric: AggregateMetric;
  field: string | null;
  limit: number;
}

const NUMBER_RE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The aggregate's own parameters (the search's are read elsewhere); errors go to `bag`. */
export function parseAggregateParams(params: Params, bag: ErrorBag): AggregateRequest {
  let groupBy: string | string[] = [];
  const g = params.group_by;
  if (isEmptyParam(g)) bag.add("group_by", "Missing value");
  else if (typeof g === "string") groupBy = g;
  else if (Array.isArray(g) && g.length <= MAX_KEYS && g.every((x) => typeof x === "string" && x !== "")) groupBy = g as string[];
  else bag.add("group_by", "Must be one or two field ids");

  let period: AggregatePeriod | null = null;
  if (!isUnset(params.period)) {
    if (PERIODS.includes(params.period as AggregatePeriod)) period = params.period as AggregatePeriod;
    else bag.add("period", `Must be one of ${PERIODS.join(", ")}`);
  }

  let bin: number | null = null;
  if (!isUnset(params.bin)) {
    const b = typeof params.bin === "number" ? params.bin : typeof params.bin === "string" && NUMBER_RE.test(params.bin) ? Number(params.bin) : NaN;
    if (Number.isFinite(b) && b > 0) bin = b;
    else bag.add("bin", "Must be a positive number");
  }

  let metric: AggregateMetric = "count";
  if (!isUnset(params.metric)) {
    if (METRICS.includes(params.metric as AggregateMetric)) metric = params.metric as AggregateMetric;
    else bag.add("metric", `Must be one of ${METRICS.join(", ")}`);
  }

  // Count reads no field: one sent along (the explorer keeps its y axis) is left unread.
  let field: string | null = null;
  if (metric !== "count") {
    if (isUnset(params.field)) bag.add("field", "Missing value");
    else if (typeof params.field !== "string") bag.add("field", `invalid value ${JSON.stringify(str(params.field))}`);
    else field = params.field;
  }

  const limit = asInt(params.limit, "limit", bag, DEFAULT_LIMIT, "Must be a natural number");
  if (limit < 1 || limit > MAX_LIMIT) bag.add("limit", `Must be between 1 and ${MAX_LIMIT}`);
  return { groupBy, period, bin, metric, field, limit };
}

function typeOf(r: Resource, id: string): TypeName | undefined {
  return id === "_id" ? "int8" : r.fields.find((f) => f.id === id)?.type;
}

const isNumber = (t: TypeName) => scaleOf(t) === "integer" || scaleOf(t) === "real";
const isTime = (t: TypeName) => t === "date" || t === "timestamp";

/**
 * The request checked against the resource's fields (409 per parameter). A period groups every
 * date or timestamp key and a bin every numeric key, so [date, origin] by month and a lat/lon
 * grid both work; either one with no key of its kind is an error.
 */
export function bindAggregateSpec(r: Resource, req: AggregateRequest): AggregateSpec {
  const bag = new ErrorBag();
  let ids: string[];
  if (Array.isArray(req.groupBy)) ids = req.groupBy;
  else if (typeOf(r, req.groupBy)) ids = [req.groupBy];
  else ids = req.groupBy.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ids.length === 0 || ids.length > MAX_KEYS) bag.add("group_by", "Must be one or two field ids");
  const typed: [string, TypeName][] = [];
  for (const id of ids.slice(0, MAX_KEYS)) {
    const t = typeOf(r, id);
    if (t) typed.push([id, t]);
    else bag.add("group_by", `field "${id}" does not exist`);
  }
  const known = bag.empty;
  const describe = () => typed.map(([id, t]) => `"${id}" is ${t}`).join(", ");
  if (known && req.period && !typed.some(([, t]) => isTime(t))) bag.add("period", `a period needs a date or timestamp field: ${describe()}`);
  if (known && req.bin !== null && !typed.some(([, t]) => isNumber(t))) bag.add("bin", `a bin needs a number field: ${describe()}`);
  if (req.field !== null) {
    const t = typeOf(r, req.field);
    if (!t) bag.add("field", `field "${req.field}" does not exist`);
    else if (!isNumber(t)) bag.add("field", `field "${req.field}" is ${t}: ${req.metric} needs a number field`);
  }
  bag.throwIfAny();
  const keys = typed.map(([id, t]): AggregateKey => {
    if (req.period && isTime(t)) return { field: id, period: req.period };
    if (req.bin !== null && isNumber(t)) return { field: id, bin: req.bin };
    return { field: id };
  });
  return { keys, metric: req.metric, field: req.field, limit: req.limit };
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

/**
 * The first `limit` groups in the contract's order (by key when every key is a period or a
 * bin; else by value descending, groups with no value last, then by key) and the rest summed
 * up in `others`.
 */
export function rankGroups(all: AggregateGroup[], spec: AggregateSpec): Pick<AggregateOutput, "groups" | "others"> {
  const byKey = inKeyOrder(spec);
  const sorted = [...all].sort((a, b) => {
    if (!byKey && a.value !== b.value) {
      if (a.value === null) return 1;
      if (b.value === null) return -1;
      return b.value - a.value;
    }
    return compareKeys(a, b);
  });
  const groups = sorted.slice(0, spec.limit);
  const rest = sorted.slice(spec.limit);
  return { groups, others: { groups: rest.length, count: rest.reduce((n, g) => n + g.count, 0) } };
}

/** Throws 409 on `group_by` for a spec an engine got without bindAggregateSpec (defensive). */
export function requireKeys(spec: AggregateSpec): void {
  if (spec.keys.length === 0 || spec.keys.length > MAX_KEYS) throw DatastoreError.field("group_by", "Must be one or two field ids");
}
