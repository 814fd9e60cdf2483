// datastore_summary — our extension (docs/api.md "Actions"): every field of the rows a
// search matches at a glance, for the explorer's Summary tab: empties and distinct values, the
// most common values of text and other scalars, min, max and round bins of numbers and dates.
// Exact by default, kept per resource version (../kept-results.ts); with `budget_ms`, over a
// sample when the exact answer would take longer, counts scaled, `partial: true`.
import { parseBudgetMs } from "../aggregate-spec";
import type { ActionContext } from "../context";
import type { FieldSummary } from "../engine";
import { DatastoreError, ErrorBag } from "../errors";
import { keptResult } from "../kept-results";
import { asInt, asStringList, isUnset, type Params } from "../validate";
import { bindNarrowing, parseNarrowing } from "./field-request";

const DEFAULT_TOP = 10;
const DEFAULT_BINS = 20;
const MAX = 100;

export async function datastoreSummary(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const req = parseNarrowing(params, bag);
  const asked = isUnset(params.fields) ? [] : asStringList(params.fields, "fields", bag);
  const top = bounded(params.top, "top", DEFAULT_TOP, bag);
  const bins = bounded(params.bins, "bins", DEFAULT_BINS, bag);
  const budgetMs = parseBudgetMs(params, bag);
  bag.throwIfAny();
  let fields: string[] = [];
  const { r, query } = await bindNarrowing(ctx, req, "datastore_summary", (r) => {
    const known = new Set(r.fields.map((f) => f.id));
    const unknown = asked.filter((id) => !known.has(id));
    if (unknown.length) throw DatastoreError.validation({ fields: unknown.map((id) => `invalid value "${id}"`) });
    // None asked (or an empty list, as in datastore_search): every field but _id.
    fields = asked.length ? [...new Set(asked)] : r.fields.map((f) => f.id);
  });
  const options = { fields, top, bins, budgetMs };
  const out = await keptResult(r, ["datastore_summary", query, options], () => ctx.engine.summary(r, query, options));
  return { resource_id: r.id, total: out.total, rows: out.rows, partial: out.partial, fields: out.fields.map(wire) };
}

function bounded(v: unknown, key: string, fallback: number, bag: ErrorBag): number {
  const n = asInt(v, key, bag, fallback, "Must be a natural number");
  if (n < 1 || n > MAX) bag.add(key, `Must be between 1 and ${MAX}`);
  return n;
}

/** CKAN's wire spelling (snake case), each kind of field with only its own figures. */
function wire({ distinctEstimated, emptyEstimate, ...f }: FieldSummary) {
  const { id, type, empty, distinct, ...figures } = f;
  return { id, type, empty, ...(emptyEstimate ? { empty_estimate: emptyEstimate } : {}), distinct, distinct_estimated: distinctEstimated, ...figures };
}
