// datastore_value_counts — our extension (docs/api.md "Actions"): the most common values
// of one field under the current search and filters, for the explorer's value picker.
// Exact by default, kept per resource version (../kept-results.ts); with `budget_ms`, counted
// over the first rows of the table when the exact count would take longer, counts scaled, and
// `partial: true` says so.
import { parseBudgetMs } from "../aggregate-spec";
import type { ActionContext } from "../context";
import { ErrorBag } from "../errors";
import { keptResult } from "../kept-results";
import { asInt, type Params } from "../validate";
import { bindFieldRequest, parseFieldRequest } from "./field-request";

export async function datastoreValueCounts(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const req = parseFieldRequest(params, bag);
  const limit = Math.min(asInt(params.limit, "limit", bag, 10, "Must be a natural number"), 100);
  const budgetMs = parseBudgetMs(params, bag);
  bag.throwIfAny();
  const { r, query } = await bindFieldRequest(ctx, req, "datastore_value_counts");
  const counts = await keptResult(r, ["datastore_value_counts", query, req.field, limit, budgetMs], () => ctx.engine.valueCounts(r, req.field, query, limit, budgetMs));
  return { resource_id: r.id, field: req.field, values: counts.values, partial: counts.partial };
}
