// Rows grouped by one or two fields under a search (datastore_aggregate) in PostgreSQL: the
// GROUP BY statements and the reads ../aggregate-groups.ts plans (exact, a spread sample, the
// first rows), which also merges the groups; the order, limit and `others` in
// ../aggregate-spec.ts.
import { column } from "../catalog-row";
import type { AggregateKey, AggregateMeasure, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { AGGREGATE_BUDGET, aggregatePlan, measureDecoder, mergeGroups, type AggregateBudget as Budget } from "../aggregate-groups";
import { binStep, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { runLater } from "../stepwise";
import { isArrayType } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { searchWhere, selectColumn } from "./read-plan";
import { quoteIdent as q, source, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** How hard an aggregate tries to be exact (../aggregate-groups.ts); tests shrink these. */
export interface AggregateBudget extends Budget {
  /** Rows of a whole table worth trying to group exactly within a budget. */
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

/** A key's expression; bin widths are bound as parameters through `bind`. `blankIsNull`: "" and
 *  [] are NULL here (a distinct count cannot be merged afterwards). */
function keyColumn(r: PgResource, key: AggregateKey, bind: (v: unknown) => string, blankIsNull: boolean): KeyColumn {
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
  const sql = !blankIsNull ? c.sql : f.type === "text" ? `NULLIF(${c.sql}, '')` : isArrayType(f.type) ? `(CASE WHEN cardinality(${c.sql}) = 0 THEN NULL ELSE ${c.sql} END)` : c.sql;
  return {
    sql,
    decode: (v) => {
      const value = v === null ? null : c.decode(v);
      return value === null || blank(value) ? null : value;
    },
  };
}

/** A measure's value expression (blanks as NULL for distinct counts), and whether its min or
 *  max reads as text (dates). */
function measureColumn(r: PgResource, m: AggregateMeasure): { sql: string; time: boolean } {
  if (m.field === null) return { sql: "NULL", time: false };
  const f = column(r, m.field);
  const col = `t.${q(f.column)}`;
  let sql = col;
  if (m.fn === "count_distinct" && f.type === "text") sql = `NULLIF(${col}, '')`;
  else if (m.fn === "count_distinct" && isArrayType(f.type)) sql = `(CASE WHEN cardinality(${col}) = 0 THEN NULL ELSE ${col} END)`;
  return { sql, time: f.type === "date" || f.type === "timestamp" };
}

/** The statement's columns after the keys: rows, then per measure its rows with a value and
 *  its aggregate (mergeGroups' layout). */
function measuresSql(spec: AggregateSpec, e: string[]): string {
  const cols = spec.metrics.map((m, i) => {
    if (m.fn === "count") return "0, NULL";
    if (m.fn === "count_distinct") return `0, count(DISTINCT ${e[i]})::int8`;
    const agg = m.fn === "min" ? "min" : m.fn === "max" ? "max" : "sum";
    return `count(${e[i]})::int8, ${agg}(${e[i]})`;
  });
  return ["count(*)::int8", ...cols].join(", ");
}

/** `db`: a client inside a transaction. */
export async function aggregate(db: Queryable, r: PgResource, query: SearchQuery, spec: AggregateSpec, budget: AggregateBudget = BUDGET): Promise<AggregateOutput> {
  requireKeys(spec);
  const where = searchWhere(r, query);
  const params = where.params;
  const bind = (v: unknown) => `$${params.push(v)}`;
  // The search's own values come first; the keys' bin widths after them.
  const searchValues = params.length;
  const distinct = spec.metrics.some((m) => m.fn === "count_distinct");
  const keys = spec.keys.map((k) => keyColumn(r, k, bind, distinct));
  const measures = spec.metrics.map((m) => measureColumn(r, m));
  const narrowed = !where.empty;
  const decode = keys.map((k) => k.decode);
  const decodeMeasures = measures.map((m) => measureDecoder(m.time));
  const base = params.length;

  /** The grouping statement (no keys: every row as one group); `extra` (values bound after
   *  the rest) narrows the rows. */
  const run = async (extra = "", extraParams: unknown[] = [], grouped = keys) => {
    const groupBy = grouped.length ? ` GROUP BY ${grouped.map((_, i) => i + 1).join(", ")}` : "";
    const sql = `SELECT ${grouped.map((k) => `${k.sql}, `).join("")}${measuresSql(spec, measures.map((m) => m.sql))}, min(t._id) FROM ${source(r)} AS t WHERE ${where.sql()}${extra}${groupBy}`;
    const values = grouped.length ? [...params, ...extraParams] : params.slice(0, searchValues);
    const { rows } = await db.query<unknown[]>({ text: sql, values, rowMode: "array" });
    return mergeGroups(rows, grouped.length ? decode : [], spec, decodeMeasures);
  };

  const plan = aggregatePlan(spec, { rowCount: r.rowCount, narrowed, wholeRows: budget.wholeRows }, budget, {
    exact: async () => {
      const groups = await within(db, spec.budgetMs!, () => run());
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
    overall: async () => (await run("", [], []))[0],
  });
  return runLater(plan);
}
