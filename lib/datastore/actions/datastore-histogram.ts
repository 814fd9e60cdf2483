// datastore_histogram — our extension (docs/api.md "Actions"): how the values of one
// number, date or timestamp field spread under the current search and filters, in at most
// `bins` bins with round edges, for the explorer's range filter. Bounded as value counts are:
// exact within a time budget, otherwise counted over the first rows with `partial: true`.
import type { ActionContext } from "../context";
import { ErrorBag } from "../errors";
import { asInt, type Params } from "../validate";
import { bindFieldRequest, parseFieldRequest } from "./field-request";

const DEFAULT_BINS = 20;
const MAX_BINS = 100;

export async function datastoreHistogram(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const req = parseFieldRequest(params, bag);
  const bins = asInt(params.bins, "bins", bag, DEFAULT_BINS, "Must be a natural number");
  if (bins < 1 || bins > MAX_BINS) bag.add("bins", `Must be between 1 and ${MAX_BINS}`);
  bag.throwIfAny();
  const { r, query } = await bindFieldRequest(ctx, req, "datastore_histogram");
  const h = await ctx.engine.histogram(r, req.field, query, bins);
  return { resource_id: r.id, field: req.field, min: h.min, max: h.max, bins: h.bins, partial: h.partial };
}
