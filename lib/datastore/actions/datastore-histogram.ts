// datastore_histogram — our extension (docs/api.md "Actions"): how the values of one
// number, date or timestamp field spread under the current search and filters, in at most
// `bins` bins with round edges, for the explorer's range filter. Exact by default, kept per
// resource version (../kept-results.ts); with `budget_ms`, over a sample when the exact answer
// would take longer, counts scaled, `partial: true`.
import { parseBudgetMs } from "../aggregate-spec";
import type { ActionContext } from "../context";
import { ErrorBag } from "../errors";
import { keptResult } from "../kept-results";
import { asInt, type Params } from "../validate";
import { bindFieldRequest, parseFieldRequest } from "./field-request";

const DEFAULT_BINS = 20;
const MAX_BINS = 100;

export async function datastoreHistogram(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const req = parseFieldRequest(params, bag);
  const bins = asInt(params.bins, "bins", bag, DEFAULT_BINS, "Must be a natural number");
  if (bins < 1 || bins > MAX_BINS) bag.add("bins", `Must be between 1 and ${MAX_BINS}`);
  const budgetMs = parseBudgetMs(params, bag);
  bag.throwIfAny();
  const { r, query } = await bindFieldRequest(ctx, req, "datastore_histogram");
  const h = await keptResult(r, ["datastore_histogram", query, req.field, bins, budgetMs], () => ctx.engine.histogram(r, req.field, query, bins, budgetMs));
  return { resource_id: r.id, field: req.field, min: h.min, max: h.max, bins: h.bins, partial: h.partial };
}
