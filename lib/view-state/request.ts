// ViewState -> the API calls that show it: the datastore_search body the explorer posts, and the
// equivalent GET URL, curl command and dump URL shown to the user. Same parameters everywhere.
// Any other action's call (a chart's aggregate) gets the same three forms from actionGetUrl,
// actionPostBody and actionCurl.
import type { AsOf } from "./as-of";
import { appendFields } from "./codec";
import { toPrefixQuery } from "./search-text";
import type { Filters, ViewState } from "./types";

/**
 * The explorer's `total_estimation_threshold`. A total the server cannot count within its budget
 * may then come back estimated from the first 100,000 rows, once the estimate reaches this.
 * 100,000 is where CKAN's documentation puts counting past its worth; from there the sample holds
 * at least 1,000 matches on tables up to 10 million rows (when matches are spread through the
 * table), and "about 130,000" over 1,300 pages is all a reader needs. Smaller totals stay exact:
 * people read those, and page to their end.
 */
export const TOTAL_ESTIMATION_THRESHOLD = 100_000;

export type SearchRequest = {
  resource_id: string;
  /** The table as it was then (a version or an ISO time); absent: the current data. */
  as_of?: AsOf;
  q?: string;
  plain?: false;
  filters?: Filters;
  sort?: string;
  fields?: string[];
  limit: number;
  offset?: number;
  total_estimation_threshold?: number;
};

/** The parts of a view that decide which rows match (no paging, no columns). */
export type MatchRequest = Pick<SearchRequest, "resource_id" | "as_of" | "q" | "plain" | "filters">;

/** With the view's `as_of` when it has one: send it only to an action that takes it (takesAsOf). */
export function toMatchRequest(view: Pick<ViewState, "resource_id" | "q" | "filters"> & { as_of?: AsOf | null }): MatchRequest {
  const req: MatchRequest = { resource_id: view.resource_id ?? "" };
  if (view.as_of !== undefined && view.as_of !== null) req.as_of = view.as_of;
  const q = toPrefixQuery(view.q);
  if (q) {
    req.q = q;
    req.plain = false;
  }
  if (Object.keys(view.filters).length) req.filters = view.filters;
  return req;
}

export function toSearchRequest(view: ViewState): SearchRequest {
  const req: SearchRequest = { ...toMatchRequest(view), limit: view.limit };
  if (view.sort) req.sort = view.sort;
  if (view.fields && view.fields.length) req.fields = view.fields;
  if (view.offset) req.offset = view.offset;
  req.total_estimation_threshold = TOTAL_ESTIMATION_THRESHOLD;
  return req;
}

function requestParams(req: Partial<SearchRequest>): URLSearchParams {
  const params = new URLSearchParams();
  if (req.resource_id) params.set("resource_id", req.resource_id);
  if (req.as_of !== undefined) params.set("as_of", String(req.as_of));
  if (req.q) params.set("q", req.q);
  if (req.plain === false) params.set("plain", "false");
  if (req.filters) params.set("filters", JSON.stringify(req.filters));
  if (req.sort) params.set("sort", req.sort);
  if (req.fields) appendFields(params, req.fields);
  if (req.limit !== undefined) params.set("limit", String(req.limit));
  if (req.offset) params.set("offset", String(req.offset));
  if (req.total_estimation_threshold !== undefined) params.set("total_estimation_threshold", String(req.total_estimation_threshold));
  return params;
}

export function searchGetUrl(origin: string, req: SearchRequest): string {
  return `${origin}/api/action/datastore_search?${requestParams(req).toString()}`;
}

export function searchPostBody(req: SearchRequest): string {
  return actionPostBody(searchCall(req));
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const TOKEN_PLACEHOLDER = "YOUR-API-TOKEN";

export function searchCurl(origin: string, req: SearchRequest): string {
  return actionCurl(origin, searchCall(req));
}

/** One call of the action API as a view makes it: the action's name and its JSON body. */
export type ActionCall = { action: string; body: object };

export function searchCall(req: SearchRequest): ActionCall {
  return { action: "datastore_search", body: req };
}

/**
 * A body as GET parameters, in the body's key order: text as it is, numbers and booleans as
 * text, a list of values as repeated keys (`fields` as the comma list search also takes), and
 * objects (filters) as JSON. A null has no GET form and is left out.
 */
function callParams(body: object): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    const scalars = Array.isArray(value) && value.every((v) => v !== null && typeof v !== "object");
    if (key === "fields" && scalars) appendFields(params, value.map(String));
    else if (scalars) for (const v of value) params.append(key, String(v));
    else params.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return params;
}

export function actionGetUrl(origin: string, call: ActionCall): string {
  return `${origin}/api/action/${call.action}?${callParams(call.body).toString()}`;
}

export function actionPostBody(call: ActionCall): string {
  return JSON.stringify(call.body, null, 2);
}

export function actionCurl(origin: string, call: ActionCall): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/action/${call.action}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H 'Authorization: ${TOKEN_PLACEHOLDER}'`,
    `  -d ${shellQuote(JSON.stringify(call.body))}`,
  ].join(" \\\n");
}

/** The dump's formats, as its Download menu offers them. */
export const DUMP_FORMATS = ["csv", "xlsx", "json", "ndjson", "geojson", "parquet"] as const;
export type DumpFormat = (typeof DUMP_FORMATS)[number];

/** All matching rows of the view (no limit/offset), in its order and columns; GeoJSON's points
 *  from the Map tab's coordinate fields when it names them. */
export function dumpPath(view: ViewState, format: DumpFormat): string {
  const { resource_id, ...rest } = toSearchRequest({ ...view, offset: 0 });
  const params = new URLSearchParams({ format });
  // A dump has no total to estimate.
  for (const [k, v] of requestParams({ ...rest, limit: undefined, total_estimation_threshold: undefined })) params.append(k, v);
  if (format === "geojson" && view.map.lat && view.map.lon) {
    params.set("lat", view.map.lat);
    params.set("lon", view.map.lon);
  }
  return `/datastore/dump/${encodeURIComponent(resource_id)}?${params.toString()}`;
}
