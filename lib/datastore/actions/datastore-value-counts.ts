// datastore_value_counts — our extension (README "Extension actions"): the most common values
// of one field under the current search and filters, for the explorer's value picker.
// Exact when counting fits a time budget; otherwise counted over the first rows of the
// table, and `partial: true` says so.
import { findResource, requireRead, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { bindSearch, parseSearchParams } from "../search-query";
import { asInt, isUnset, requireResourceId, type Params } from "../validate";

export async function datastoreValueCounts(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  if (isUnset(params.field) || typeof params.field !== "string") bag.add("field", "Missing value");
  const limit = Math.min(asInt(params.limit, "limit", bag, 10, "Must be a natural number"), 100);
  const p = parseSearchParams({ q: params.q, plain: params.plain, filters: params.filters, language: params.language }, bag);
  bag.throwIfAny();

  const r = await findResource(ctx, resourceId);
  requireRead(ctx, r, "datastore_value_counts");
  const field = params.field as string;
  if (field !== "_id" && !r.fields.some((f) => f.id === field)) throw DatastoreError.field("field", `invalid value "${field}"`);
  const { query } = bindSearch(r, p);
  const counts = await ctx.engine.valueCounts(r, field, query, limit);
  return { resource_id: r.id, field, values: counts.values, partial: counts.partial };
}
