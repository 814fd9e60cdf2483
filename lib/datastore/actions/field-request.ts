// The request the field extensions take (datastore_value_counts, datastore_histogram): a
// resource, one of its fields, and the search (`q`, `plain`, `language`, `filters`) that
// narrows the rows, checked in CKAN's order: parameters (409), resource (404), read access
// (403), then the field and the search against the resource's fields (409). Extensions over
// many fields (datastore_summary) take the narrowing alone.
import type { Resource, SearchQuery } from "../engine";
import { DatastoreError, type ErrorBag } from "../errors";
import { bindSearch, parseSearchParams, type SearchParams } from "../search-query";
import { isUnset, requireResourceId, type Params } from "../validate";
import { findResource, requireRead, type ActionContext } from "../context";

export interface FieldRequest {
  resourceId: string;
  field: string;
  search: SearchParams;
}

/** The resource and the search alone (no `field`), for extensions over all fields. */
export type Narrowing = Omit<FieldRequest, "field">;

/** The parameters that need no table; errors go to `bag`. */
export function parseFieldRequest(params: Params, bag: ErrorBag): FieldRequest {
  const narrowing = parseNarrowing(params, bag);
  if (isUnset(params.field) || typeof params.field !== "string") bag.add("field", "Missing value");
  return { ...narrowing, field: params.field as string };
}

/** `resource_id` and the search parameters; errors go to `bag`. */
export function parseNarrowing(params: Params, bag: ErrorBag): Narrowing {
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  const search = parseSearchParams({ q: params.q, plain: params.plain, filters: params.filters, language: params.language }, bag);
  return { resourceId, search };
}

/** The resource, once found and readable, and the search bound to its fields. */
export function bindFieldRequest(ctx: ActionContext, req: FieldRequest, action: string): Promise<{ r: Resource; query: SearchQuery }> {
  return bindNarrowing(ctx, req, action, (r) => {
    if (req.field !== "_id" && !r.fields.some((f) => f.id === req.field)) throw DatastoreError.field("field", `invalid value "${req.field}"`);
  });
}

/** The resource, once found and readable; then `check` (the action's own 409s), then the search. */
export async function bindNarrowing(ctx: ActionContext, req: Narrowing, action: string, check?: (r: Resource) => void): Promise<{ r: Resource; query: SearchQuery }> {
  const r = await findResource(ctx, req.resourceId);
  requireRead(ctx, r, action);
  check?.(r);
  return { r, query: bindSearch(r, req.search).query };
}
