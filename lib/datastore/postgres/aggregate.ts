// Rows grouped by one or two fields under a search (datastore_aggregate) in PostgreSQL: the
// GROUP BY statements and the reads ../aggregate-groups.ts plans (exact, a spread sample, the
// first rows), which also merges the groups; the order, limit and `others` in
// ../aggregate-spec.ts.
import { column } from "../catalog-row";
import type { AggregateKey, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { AGGREGATE_BUDGET, aggregatePlan, mergeGroups, type AggregateBudget as Budget } from "../aggregate-groups";
import { binStep, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { runLater } from "../stepwise";
import { isArrayType } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { searchWhere, selectColumn } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** How hard an aggregate tries to be exact (../aggregate-groups.ts); tests shrink these. */
export interface AggregateBudget extends Budget {
  /** Rows of a whole table worth trying to group exactly within exactMs. */
  wholeRows: number;
}

export const BUDGET: AggregateBudget = { ...AGGREGATE_BUDGET, wholeRows: 200_000 };

/** A period's first day (weeks start on Mondays, as ISO's and histogram-axis.ts's do). */
const PERIOD_SQL: Record<AggregatePeriod, (col: string) => string> = {
  day: (col) => `${col}::date`,
  week: (col) => `date_trunc('week', ${col}::timestamp)::date`,
  month: (col) => `date_trunc('month', ${col}::timestamp)::date`,
  quarter: (col) => `date_trunc('quarter', ${col}::timestamp)::date`,
  year: (col) => `date_trunc('year', ${col}::timestamp)::date`,
};

interface KeyColumn {
  sql: string;
  decode: (v: unknown) => unknown;
}

/** A key's expression; bin widths are bound as parameters through `bind`. */
function keyColumn(r: PgResource, key: AggregateKey, bind: (v: unknown) => string): KeyColumn {
  const f = column(r, key.field);
  const col = `t.${q(f.column)}`;
  if (key.period) {
    // Timestamps keep their stored shape, so a key can be sent back as a filter value.
    const suffix = f.type === "timestamp" ? "T00:00:00" : "";
    return { sql: PERIOD_SQL[key.period](col), decode: (v) => (v === null ? null : `${v as string}${suffix}`) };
  }
  if (key.bin !== undefined) {
    const { mul, div } = binStep(key.bin);
    return { sql: `floor(${SQL_SNAP(`${col}::numeric * ${bind(mul)}::numeric`)} / ${bind(div)}::numeric)`, decode: (v) => (v === null ? null : (Number(v) * div) / mul) };
  }
  // "" and [] join NULL in the null group afterwards (mergeGroups).
  const c = selectColumn(f);
  const blank = f.type === "text" ? (v: unknown) => v === "" : isArrayType(f.type) ? (v: unknown) => Array.isArray(v) && v.length === 0 : () => false;
  return {
    sql: c.sql,
    decode: (v) => {
      const value = v === null ? null : c.decode(v);
      return value === null || blank(value) ? null : value;
    },
  };
}

/** The statement's columns after the keys: rows, rows with a number, the metric's aggregate. */
function metricSql(spec: AggregateSpec, m: string | null): string {
  if (m === null || spec.metric === "count") return "count(*)::int8, 0, NULL";
  const agg = spec.metric === "min" ? "min" : spec.metric === "max" ? "max" : "sum";
  return `count(*)::int8, count(${m})::int8, ${agg}(${m})`;
}

/** `db`: a client inside a transaction. */
export async function aggregate(db: Queryable, r: PgResource, query: SearchQuery, spec: AggregateSpec, budget: AggregateBudget = BUDGET): Promise<AggregateOutput> {
  requireKeys(spec);
  const where = searchWhere(r, query);
  const params = where.params;
  const bind = (v: unknown) => `$${params.push(v)}`;
  const keys = spec.keys.map((k) => keyColumn(r, k, bind));
  const m = spec.metric === "count" || spec.field === null ? null : `t.${q(column(r, spec.field).column)}`;
  const narrowed = !where.empty;
  const positions = keys.map((_, i) => i + 1).join(", ");
  const decode = keys.map((k) => k.decode);
  const base = params.length;

  /** The grouping statement; `extra` (values bound after the rest) narrows the rows. */
  const run = async (extra = "", extraParams: unknown[] = []) => {
    const sql = `SELECT ${keys.map((k) => k.sql).join(", ")}, ${metricSql(spec, m)}, min(t._id) FROM ${q(r.table)} AS t WHERE ${where.sql()}${extra} GROUP BY ${positions}`;
    const { rows } = await db.query<unknown[]>({ text: sql, values: [...params, ...extraParams], rowMode: "array" });
    return mergeGroups(rows, decode, spec);
  };

  const plan = aggregatePlan(spec, { rowCount: r.rowCount, narrowed, wholeRows: budget.wholeRows }, budget, {
    exact: async () => {
      const groups = await within(db, budget.exactMs, () => run());
      return groups === OVER_BUDGET ? null : groups;
    },
    sample: async () => {
      const sample = await spreadSample(db, r, budget.sampleRows, base + 1);
      return sample && { groups: await run(` AND ${sample.sql}`, sample.params), picked: sample.picked };
    },
    first: async (rows) => {
      const last = await nthId(db, r, rows);
      return last === undefined ? undefined : run(` AND t._id <= $${base + 1}`, [last]);
    },
    all: () => run(),
  });
  return runLater(plan);
}
