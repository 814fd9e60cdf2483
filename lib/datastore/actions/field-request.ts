// The request both field extensions take (datastore_value_counts, datastore_histogram): a
// resource, one of its fields, and the search (`q`, `plain`, `language`, `filters`) that
// narrows the rows, checked in CKAN's order: parameters (409), resource (404), read access
// (403), then the field and the search against the resource's fields (409).
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

/** The parameters that need no table; errors go to `bag`. */
export function parseFieldRequest(params: Params, bag: ErrorBag): FieldRequest {
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  if (isUnset(params.field) || typeof params.field !== "string") bag.add("field", "Missing value");
  const search = parseSearchParams({ q: params.q, plain: params.plain, filters: params.filters, language: params.language }, bag);
  return { resourceId, field: params.field as string, search };
}

/** The resource, once found and readable, and the search bound to its fields. */
export async function bindFieldRequest(ctx: ActionContext, req: FieldRequest, action: string): Promise<{ r: Resource; query: SearchQuery }> {
  const r = await findResource(ctx, req.resourceId);
  requireRead(ctx, r, action);
  if (req.field !== "_id" && !r.fields.some((f) => f.id === req.field)) throw DatastoreError.field("field", `invalid value "${req.field}"`);
  return { r, query: bindSearch(r, req.search).query };
}
