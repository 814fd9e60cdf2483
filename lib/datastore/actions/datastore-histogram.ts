// datastore_histogram — our extension (README "Extension actions"): how the values of one
// number, date or timestamp field spread under the current search and filters, in at most
// `bins` bins with round edges, for the explorer's range filter. Bounded as value counts are:
// exact within a time budget, otherwise counted over the first rows with `partial: true`.
import { findResource, requireRead, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { bindSearch, parseSearchParams } from "../search-query";
import { asInt, isUnset, requireResourceId, type Params } from "../validate";

const DEFAULT_BINS = 20;
const MAX_BINS = 100;

export async function datastoreHistogram(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  if (isUnset(params.field) || typeof params.field !== "string") bag.add("field", "Missing value");
  const bins = asInt(params.bins, "bins", bag, DEFAULT_BINS, "Must be a natural number");
  if (bins < 1 || bins > MAX_BINS) bag.add("bins", `Must be between 1 and ${MAX_BINS}`);
  const p = parseSearchParams({ q: params.q, plain: params.plain, filters: params.filters, language: params.language }, bag);
  bag.throwIfAny();

  const r = await findResource(ctx, resourceId);
  requireRead(ctx, r, "datastore_histogram");
  const field = params.field as string;
  if (field !== "_id" && !r.fields.some((f) => f.id === field)) throw DatastoreError.field("field", `invalid value "${field}"`);
  const { query } = bindSearch(r, p);
  const h = await ctx.engine.histogram(r, field, query, bins);
  return { resource_id: r.id, field, min: h.min, max: h.max, bins: h.bins, partial: h.partial };
}
