// URLSearchParams <-> ViewState, with the GET API's own parameter names. Parsing never throws:
// anything it can't read falls back to the default, so any pasted or hand-edited URL opens.
import { coerceFilters } from "./filters";
import { DEFAULT_LIMIT, DEFAULT_VIEW, MAX_LIMIT, type ViewState } from "./types";

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

export function parseViewState(input: URLSearchParams | string): ViewState {
  const params = typeof input === "string" ? new URLSearchParams(input) : input;
  const resourceId = (params.get("resource_id") ?? params.get("id") ?? "").trim();
  return {
    resource_id: resourceId || null,
    q: params.get("q") ?? "",
    filters: readFilters(params.get("filters")),
    limit: readInt(params.get("limit"), 1, MAX_LIMIT, DEFAULT_LIMIT),
    offset: readInt(params.get("offset"), 0, Number.MAX_SAFE_INTEGER, 0),
    sort: (params.get("sort") ?? "").trim(),
    fields: readFields(params),
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
  if (view.q) params.set("q", view.q);
  if (Object.keys(view.filters).length) params.set("filters", JSON.stringify(view.filters));
  if (view.sort) params.set("sort", view.sort);
  if (view.fields && view.fields.length) appendFields(params, view.fields);
  if (view.limit !== DEFAULT_VIEW.limit) params.set("limit", String(view.limit));
  if (view.offset) params.set("offset", String(view.offset));
  return params;
}

/** Any change to what is matched or shown starts again at the first page. */
export function updateView(view: ViewState, patch: Partial<ViewState>): ViewState {
  const resets =
    ("q" in patch && patch.q !== view.q) ||
    "filters" in patch ||
    ("limit" in patch && patch.limit !== view.limit) ||
    ("sort" in patch && patch.sort !== view.sort) ||
    ("resource_id" in patch && patch.resource_id !== view.resource_id);
  const next = { ...view, ...patch };
  if (resets && !("offset" in patch)) next.offset = 0;
  return next;
}

/** Picking another resource starts a fresh view of it. */
export function viewForResource(resourceId: string): ViewState {
  return { ...DEFAULT_VIEW, resource_id: resourceId };
}
