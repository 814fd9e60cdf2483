// datastore_aggregate — our extension (docs/api.md "Actions"): the rows under the current
// search and filters grouped by up to three fields (a date by period, a number by bin), with
// measures per group, for the explorer's charts, map and pivot. Exact by default, and kept per
// resource version (../kept-results.ts); with `budget_ms`, over a sample when the exact answer
// would take longer, every count scaled to the whole match, `partial: true`. Two forms: the
// old one (one `metric`, answered as `value`) and the second (`metrics`, `having`, `order_by`,
// `totals`: /work/notes/aggregate-v2.md). Checked in CKAN's order: parameters (409), resource
// (404), read access (403), then fields and search against the resource (409).
import { bindAggregateSpec, OLD_METRIC, parseAggregateParams } from "../aggregate-spec";
import type { ActionContext } from "../context";
import type { AggregateGroup, AggregateSpec } from "../engine";
import { ErrorBag } from "../errors";
import { keptResult } from "../kept-results";
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
  const s = spec!;
  const out = await keptResult(r, [ACTION, query, s], () => ctx.engine.aggregate(r, query, s));
  const estimate = (g: AggregateGroup) => (g.estimate ? { estimate: g.estimate } : {});
  if (!req.v2) {
    return {
      resource_id: r.id,
      group_by: s.keys.map((k) => k.field),
      period: req.period,
      bin: req.bin,
      metric: req.metric,
      field: req.field,
      total: out.total,
      rows: out.rows,
      partial: out.partial,
      groups: out.groups.map((g) => ({ key: g.key, count: g.count, value: g.values[OLD_METRIC], _id: g._id, ...estimate(g) })),
      others: out.others,
    };
  }
  return {
    resource_id: r.id,
    group_by: s.keys,
    metrics: s.metrics.map((m) => (m.field === null ? { name: m.name, fn: m.fn } : { name: m.name, fn: m.fn, field: m.field })),
    total: out.total,
    rows: out.rows,
    partial: out.partial,
    groups: out.groups.map((g) => ({ key: g.key, values: g.values, ...estimate(g) })),
    others: out.others,
    ...(out.totals ? { totals: out.totals } : {}),
  };
}
