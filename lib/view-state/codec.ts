// URLSearchParams <-> ViewState, with the GET API's own parameter names. Parsing never throws:
// anything it can't read falls back to the default, so any pasted or hand-edited URL opens.
import { parseAsOf } from "./as-of";
import { coerceFilters } from "./filters";
import { readPivot, writePivot } from "./pivot";
import {
  CHART_AGGS,
  CHART_TYPES,
  DEFAULT_LIMIT,
  DEFAULT_VIEW,
  MAX_LIMIT,
  PERIODS,
  TABS,
  type ChartSettings,
  type MapSettings,
  type ViewState,
} from "./types";

function readInt(raw: string | null, min: number, max: number, fallback: number): number {
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) return fallback;
  return Math.min(n, max);
}

function readFilters(raw: string | null) {
  if (!raw) return {};
  try {
    return coerceFilters(JSON.parse(raw));
  } catch {
    return {};
  }
}

/** `fields=a,b` or `fields=a&fields=b`, as the GET API accepts both. */
function readFields(params: URLSearchParams): string[] | null {
  const all = params.getAll("fields");
  if (all.length === 0) return null;
  const list = (all.length === 1 ? all[0].split(",") : all).map((f) => f.trim()).filter(Boolean);
  return list.length ? Array.from(new Set(list)) : null;
}

function readChoice<T extends string>(raw: string | null, choices: readonly T[], fallback: T): T {
  return choices.includes(raw as T) ? (raw as T) : fallback;
}

function readRecord(raw: string | null): number | null {
  const n = readInt(raw, 0, Number.MAX_SAFE_INTEGER, -1);
  return n < 0 ? null : n;
}

function readName(raw: string | null): string | null {
  return raw?.trim() || null;
}

function readChart(params: URLSearchParams): ChartSettings {
  const d = DEFAULT_VIEW.chart;
  return {
    type: readChoice(params.get("chart"), CHART_TYPES, d.type),
    x: readName(params.get("x")),
    y: readName(params.get("y")),
    agg: readChoice(params.get("agg"), CHART_AGGS, d.agg),
    period: PERIODS.find((p) => p === params.get("period")) ?? null,
  };
}

function readMap(params: URLSearchParams): MapSettings {
  return { lat: readName(params.get("lat")), lon: readName(params.get("lon")) };
}

export function parseViewState(input: URLSearchParams | string): ViewState {
  const params = typeof input === "string" ? new URLSearchParams(input) : input;
  const resourceId = (params.get("resource_id") ?? params.get("id") ?? "").trim();
  return {
    resource_id: resourceId || null,
    as_of: parseAsOf(params.get("as_of")),
    q: params.get("q") ?? "",
    filters: readFilters(params.get("filters")),
    limit: readInt(params.get("limit"), 1, MAX_LIMIT, DEFAULT_LIMIT),
    offset: readInt(params.get("offset"), 0, Number.MAX_SAFE_INTEGER, 0),
    sort: (params.get("sort") ?? "").trim(),
    fields: readFields(params),
    tab: readChoice(params.get("view"), TABS, DEFAULT_VIEW.tab),
    record: readRecord(params.get("record")),
    chart: readChart(params),
    map: readMap(params),
    pivot: readPivot(params),
  };
}

export function appendFields(params: URLSearchParams, fields: string[]): void {
  if (fields.some((f) => f.includes(","))) {
    for (const f of fields) params.append("fields", f);
  } else {
    params.set("fields", fields.join(","));
  }
}

/** Canonical form: defaults omitted, keys in a fixed order, so equal views give equal URLs. */
export function serializeViewState(view: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (view.resource_id) params.set("resource_id", view.resource_id);
  if (view.as_of !== null) params.set("as_of", String(view.as_of));
  if (view.q) params.set("q", view.q);
  if (Object.keys(view.filters).length) params.set("filters", JSON.stringify(view.filters));
  if (view.sort) params.set("sort", view.sort);
  if (view.fields && view.fields.length) appendFields(params, view.fields);
  if (view.limit !== DEFAULT_VIEW.limit) params.set("limit", String(view.limit));
  if (view.offset) params.set("offset", String(view.offset));
  if (view.tab !== DEFAULT_VIEW.tab) params.set("view", view.tab);
  // the chart's, the map's and the pivot's settings stay while another tab shows, so going back
  // restores them
  const c = view.chart;
  if (c.type !== DEFAULT_VIEW.chart.type) params.set("chart", c.type);
  if (c.x) params.set("x", c.x);
  if (c.y) params.set("y", c.y);
  if (c.agg !== DEFAULT_VIEW.chart.agg) params.set("agg", c.agg);
  if (c.period) params.set("period", c.period);
  if (view.map.lat) params.set("lat", view.map.lat);
  if (view.map.lon) params.set("lon", view.map.lon);
  writePivot(params, view.pivot);
  if (view.record !== null) params.set("record", String(view.record));
  return params;
}

/** Any change to what is matched or shown starts again at the first page. */
export function updateView(view: ViewState, patch: Partial<ViewState>): ViewState {
  const resets =
    ("q" in patch && patch.q !== view.q) ||
    "filters" in patch ||
    ("limit" in patch && patch.limit !== view.limit) ||
    ("sort" in patch && patch.sort !== view.sort) ||
    ("as_of" in patch && patch.as_of !== view.as_of) ||
    ("resource_id" in patch && patch.resource_id !== view.resource_id);
  const next = { ...view, ...patch };
  if (resets && !("offset" in patch)) next.offset = 0;
  return next;
}

/** Picking another resource starts a fresh view of it. */
export function viewForResource(resourceId: string): ViewState {
  return { ...DEFAULT_VIEW, resource_id: resourceId };
}
