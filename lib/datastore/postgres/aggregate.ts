// Rows grouped by one or two fields under a search (datastore_aggregate), as the SQLite engine
// groups them (sqlite/aggregate.ts): GROUP BY in SQL; the order, limit and `others` in
// ../aggregate-spec.ts. Exact when it fits a time budget, else over a sample spread through the
// table (spread-sample.ts), or its first rows when the search is so selective that the sample
// holds few of its rows, and `partial`.
import type { AggregateGroup, AggregateKey, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { binStep, rankGroups, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { isArrayType } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { column, searchWhere, selectColumn } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** How hard an aggregate tries to be exact; tests shrink these. */
export interface AggregateBudget {
  /** Time for the exact answer. */
  exactMs: number;
  /** Rows of a whole table worth trying to group exactly within exactMs. */
  wholeRows: number;
  /** Groups an exact answer may have (JavaScript orders them all). */
  groups: number;
  /** Rows of the spread sample. */
  sampleRows: number;
  /** Fewer matching sampled rows than this try the first rows of the table as well. */
  fewRows: number;
  /** The first rows read then. */
  firstRows: number;
}

export const BUDGET: AggregateBudget = {
  exactMs: 150,
  wholeRows: 200_000,
  groups: 100_000,
  sampleRows: 50_000,
  fewRows: 1_000,
  firstRows: 100_000,
};

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
  // "" and [] join NULL in the null group afterwards (merge below).
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
  const base = params.length;

  /** The grouping statement; `extra` (values bound after the rest) narrows the rows. */
  const run = async (extra = "", extraParams: unknown[] = []): Promise<AggregateGroup[]> => {
    const sql = `SELECT ${keys.map((k) => k.sql).join(", ")}, ${metricSql(spec, m)}, min(t._id) FROM ${q(r.table)} AS t WHERE ${where.sql()}${extra} GROUP BY ${positions}`;
    const { rows } = await db.query<unknown[]>({ text: sql, values: [...params, ...extraParams], rowMode: "array" });
    return merge(rows, keys, spec);
  };

  // Unnarrowed, the rows to group are the whole table: too many for the budget is known at once.
  const hopeless = !narrowed && r.rowCount > budget.wholeRows;
  if (!hopeless) {
    const groups = await within(db, budget.exactMs, () => run());
    if (groups !== OVER_BUDGET && groups.length <= budget.groups) {
      const rows = sum(groups);
      return answer(groups, spec, rows, rows, false);
    }
  }

  const sample = await spreadSample(db, r, budget.sampleRows, base + 1);
  if (!sample) {
    const groups = await run();
    return answer(groups, spec, sum(groups), sum(groups), false);
  }
  let groups = await run(` AND ${sample.sql}`, sample.params);
  let scanned = sample.picked;
  if (narrowed && sum(groups) < budget.fewRows) {
    const last = await nthId(db, r, budget.firstRows);
    // The first rows are the whole table: the answer is exact.
    if (last === undefined) {
      const all = await run();
      return answer(all, spec, sum(all), sum(all), false);
    }
    const first = await run(` AND t._id <= $${base + 1}`, [last]);
    if (sum(first) > sum(groups)) [groups, scanned] = [first, budget.firstRows];
  }
  const rows = sum(groups);
  const total = narrowed ? Math.max(rows, Math.round((rows * r.rowCount) / scanned)) : r.rowCount;
  return answer(groups, spec, total, rows, true);
}

function sum(groups: AggregateGroup[]): number {
  return groups.reduce((n, g) => n + g.count, 0);
}

function answer(all: AggregateGroup[], spec: AggregateSpec, total: number, rows: number, partial: boolean): AggregateOutput {
  return { total, rows, partial, ...rankGroups(all, spec) };
}

interface Acc {
  group: AggregateGroup;
  numbers: number; // rows with a number in the metric's field
  metric: number | null; // their total, min or max
}

/** Decodes each row's keys and merges the groups that decode alike (NULL, "" and [] are all
 *  the null key), then computes each group's value. */
function merge(rows: unknown[][], keys: KeyColumn[], spec: AggregateSpec): AggregateGroup[] {
  const n = keys.length;
  const byKey = new Map<unknown, Acc>();
  for (const row of rows) {
    const key = keys.map((k, i) => k.decode(row[i]));
    const count = Number(row[n]);
    const numbers = Number(row[n + 1]);
    const metric = row[n + 2] === null ? null : Number(row[n + 2]);
    const id = Number(row[n + 3]);
    const mapKey = n === 1 && (key[0] === null || typeof key[0] !== "object") ? key[0] : JSON.stringify(key);
    const seen = byKey.get(mapKey);
    if (!seen) {
      byKey.set(mapKey, { group: { key, count, value: null, _id: id }, numbers, metric });
      continue;
    }
    seen.group.count += count;
    seen.group._id = Math.min(seen.group._id, id);
    seen.numbers += numbers;
    if (metric !== null) seen.metric = seen.metric === null ? metric : combine(spec, seen.metric, metric);
  }
  return [...byKey.values()].map(({ group, numbers, metric }) => {
    group.value = spec.metric === "count" ? group.count : numbers === 0 ? null : spec.metric === "avg" ? metric! / numbers : metric;
    return group;
  });
}

function combine(spec: AggregateSpec, a: number, b: number): number {
  return spec.metric === "min" ? Math.min(a, b) : spec.metric === "max" ? Math.max(a, b) : a + b;
}
