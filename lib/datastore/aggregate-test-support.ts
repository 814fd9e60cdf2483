// Tests of the old single-metric form at the engine level: a spec as that form sends it, and
// the groups as it answers them ({key, count, value, _id}), through the second form's types.
import { OLD_METRIC } from "./aggregate-spec";
import type { AggregateKey, AggregateMetric, AggregateOutput, AggregateSpec } from "./engine";

export interface OldSpec {
  keys: AggregateKey[];
  metric: AggregateMetric;
  field: string | null;
  limit: number;
  budgetMs?: number | null;
}

export interface OldGroup {
  key: unknown[];
  count: number;
  value: number | null;
  _id: number;
  estimate?: { low: number; high: number };
}

export function toSpec(s: OldSpec): AggregateSpec {
  return { keys: s.keys, metrics: [{ name: OLD_METRIC, fn: s.metric, field: s.field }], having: null, order: [], limit: s.limit, offset: 0, totals: false, budgetMs: s.budgetMs ?? null };
}

export function oldOutput(out: AggregateOutput): Omit<AggregateOutput, "groups"> & { groups: OldGroup[] } {
  return { ...out, groups: out.groups.map((g) => ({ key: g.key, count: g.count, value: g.values[OLD_METRIC] as number | null, _id: g._id, ...(g.estimate ? { estimate: g.estimate } : {}) })) };
}
