// ViewState -> the API calls that show it: the datastore_search body the explorer posts, and the
// equivalent GET URL, curl command and dump URL shown to the user. Same parameters everywhere.
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
export type MatchRequest = Pick<SearchRequest, "resource_id" | "q" | "plain" | "filters">;

export function toMatchRequest(view: Pick<ViewState, "resource_id" | "q" | "filters">): MatchRequest {
  const req: MatchRequest = { resource_id: view.resource_id ?? "" };
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
  return JSON.stringify(req, null, 2);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const TOKEN_PLACEHOLDER = "YOUR-API-TOKEN";

export function searchCurl(origin: string, req: SearchRequest): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/action/datastore_search`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H 'Authorization: ${TOKEN_PLACEHOLDER}'`,
    `  -d ${shellQuote(JSON.stringify(req))}`,
  ].join(" \\\n");
}

export type DumpFormat = "csv" | "json";

/** All matching rows of the view (no limit/offset), in its order and columns. */
export function dumpPath(view: ViewState, format: DumpFormat): string {
  const { resource_id, ...rest } = toSearchRequest({ ...view, offset: 0 });
  const params = new URLSearchParams({ format });
  // A dump has no total to estimate.
  for (const [k, v] of requestParams({ ...rest, limit: undefined, total_estimation_threshold: undefined })) params.append(k, v);
  return `/datastore/dump/${encodeURIComponent(resource_id)}?${params.toString()}`;
}
