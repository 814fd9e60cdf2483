// datastore_aggregate — our extension (docs/api.md "Actions"): the rows under the current
// search and filters grouped by one or two fields (a date by period, a number by bin), with a
// count and a metric per group, for the explorer's charts and map. Bounded: exact within a time
// budget, otherwise over a sample with `partial: true`. Checked in CKAN's order: parameters
// (409), resource (404), read access (403), then fields and search against the resource (409).
import { bindAggregateSpec, parseAggregateParams } from "../aggregate-spec";
import type { ActionContext } from "../context";
import type { AggregateSpec } from "../engine";
import { ErrorBag } from "../errors";
import type { Params } from "../validate";
import { bindNarrowing, parseNarrowing } from "./field-request";

const ACTION = "datastore_aggregate";

export async function datastoreAggregate(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const narrowing = parseNarrowing(params, bag);
  const req = parseAggregateParams(params, bag);
  bag.throwIfAny();
  let spec: AggregateSpec | undefined;
  const { r, query } = await bindNarrowing(ctx, narrowing, ACTION, (resource) => {
    spec = bindAggregateSpec(resource, req);
  });
  const out = await ctx.engine.aggregate(r, query, spec!);
  return {
    resource_id: r.id,
    group_by: spec!.keys.map((k) => k.field),
    period: req.period,
    bin: req.bin,
    metric: spec!.metric,
    field: spec!.field,
    total: out.total,
    rows: out.rows,
    partial: out.partial,
    groups: out.groups,
    others: out.others,
  };
}
