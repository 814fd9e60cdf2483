// Rows grouped by one or two fields under a search (datastore_aggregate) in SQLite: the GROUP BY
// statements and the reads ../aggregate-groups.ts plans (exact, a spread sample, the first
// rows), which also merges the groups; the order, limit and `others` in ../aggregate-spec.ts.
import { column } from "../catalog-row";
import type { AggregateKey, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { AGGREGATE_BUDGET, aggregatePlan, mergeGroups, sum, type AggregateBudget as Budget } from "../aggregate-groups";
import { binStep, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { runNow } from "../stepwise";
import { fromStorage, isArrayType, type Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { nthId, spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { Memo } from "./statement-cache";
import { Where } from "./where";

/** How hard an aggregate tries to be exact (../aggregate-groups.ts), with SQLite's own sizes. */
export interface AggregateBudget extends Budget {
  /** Rows an exact GROUP BY may sort: SQLite sorts them after the scan, past the deadline's
   *  reach, so more matching rows than this go to the sample, whose size is fixed. */
  sortRows: number;
  /** Rows of a whole table an index may group in its own order within exactMs. */
  indexRows: number;
}

export const BUDGET: AggregateBudget = { ...AGGREGATE_BUDGET, sortRows: 200_000, indexRows: 2_000_000 };

/** A day's, week's… start as ISO date text, from stored ISO date or timestamp text. Weeks start
 *  on Mondays ('weekday 0' moves to the Sunday ending the week, as histogram-axis.ts does). */
const PERIOD_SQL: Record<AggregatePeriod, (col: string) => string> = {
  day: (col) => `substr(${col}, 1, 10)`,
  week: (col) => `date(${col}, 'weekday 0', '-6 days')`,
  month: (col) => `substr(${col}, 1, 8) || '01'`,
  quarter: (col) => `substr(${col}, 1, 5) || printf('%02d-01', (CAST(substr(${col}, 6, 2) AS INTEGER) - 1) / 3 * 3 + 1)`,
  year: (col) => `substr(${col}, 1, 5) || '01-01'`,
};

interface KeyColumn {
  sql: string;
  params: unknown[];
  decode: (v: unknown) => unknown;
}

function keyColumn(r: Internal, key: AggregateKey): KeyColumn {
  const f = column(r, key.field);
  const col = `t.${q(f.column)}`;
  if (key.period) {
    // Timestamps keep their stored shape, so a key can be sent back as a filter value.
    const suffix = f.type === "timestamp" ? "T00:00:00" : "";
    return { sql: PERIOD_SQL[key.period](col), params: [], decode: (v) => (v === null ? null : `${v as string}${suffix}`) };
  }
  if (key.bin !== undefined) {
    const { mul, div } = binStep(key.bin);
    return { sql: `floor(${SQL_SNAP(`${col} * ?`)} / ?)`, params: [mul, div], decode: (v) => (v === null ? null : (Number(v) * div) / mul) };
  }
  // The plain column, so an index of it can give the groups in order; "" and [] join NULL in
  // the null group afterwards (mergeGroups).
  const blank = f.type === "text" ? "" : isArrayType(f.type) ? "[]" : undefined;
  return { sql: col, params: [], decode: (v) => (v === null || v === blank ? null : fromStorage(f.type, v as Stored)) };
}

/** The statement's columns after the keys: rows, rows with a number, the metric's aggregate. */
function metricSql(spec: AggregateSpec, m: string | null): string {
  if (m === null || spec.metric === "count") return "count(*), 0, NULL";
  const agg = spec.metric === "min" ? "min" : spec.metric === "max" ? "max" : "total";
  return `count(*), count(${m}), ${agg}(${m})`;
}

interface Statement {
  sql: string;
  params: unknown[];
}

const sortingPlans = new WeakMap<Conn, Memo<boolean>>();

/** Whether SQLite sorts the rows to group them (rather than reading an index in key order). */
function sorts(c: Conn, s: Statement): boolean {
  let memo = sortingPlans.get(c);
  if (!memo) sortingPlans.set(c, (memo = new Memo<boolean>()));
  return memo.get(s.sql, () =>
    (c.db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).some((step) => step.detail.startsWith("USE TEMP B-TREE FOR GROUP BY")),
  );
}

export function aggregate(c: Conn, r: Internal, query: SearchQuery, spec: AggregateSpec, budget: AggregateBudget = BUDGET): AggregateOutput {
  requireKeys(spec);
  const keys = spec.keys.map((k) => keyColumn(r, k));
  const m = spec.metric === "count" || spec.field === null ? null : `t.${q(column(r, spec.field).column)}`;
  const where = new Where(r);
  for (const flt of query.filters) where.filter(flt);
  where.fullText(query.fts);
  const narrowed = where.parts.length > 0 || where.ftsJoin !== "";
  const keyParams = keys.flatMap((k) => k.params);
  const positions = keys.map((_, i) => i + 1).join(", ");

  /** The grouping statement; `extra` narrows the rows (a sample), `cap` bounds the rows sorted. */
  const statement = (extra = "", extraParams: unknown[] = [], hint = "", cap?: number): Statement => {
    const from = `FROM ${q(r.table)} AS t${hint} ${where.ftsJoin} WHERE ${where.sql()}${extra}`;
    const params = [...keyParams, ...where.params, ...extraParams];
    if (cap === undefined) {
      return { sql: `SELECT ${keys.map((k) => k.sql).join(", ")}, ${metricSql(spec, m)}, min(t._id) ${from} GROUP BY ${positions}`, params };
    }
    // The cap sits under the GROUP BY, so at most cap rows reach its sort.
    const inner = `SELECT ${keys.map((k, i) => `${k.sql} AS k${i}`).join(", ")}, ${m ?? "NULL"} AS m, t._id AS id ${from} LIMIT ?`;
    const outer = `SELECT ${keys.map((_, i) => `k${i}`).join(", ")}, ${metricSql(spec, m === null ? null : "m")}, min(id) FROM (${inner}) GROUP BY ${positions}`;
    return { sql: outer, params: [...params, cap] };
  };
  const run = (s: Statement) => c.cache.get(s.sql, "raw").all(...s.params) as unknown[][];
  const decode = keys.map((k) => k.decode);
  const read = (s: Statement, ms = c.limits.queryTimeoutMs) => within(c.db, ms, () => mergeGroups(run(s), decode, spec));

  const whole = statement();
  const indexed = !sorts(c, whole);
  // NOT INDEXED: the sample is read by _id lookups, the first rows by _id, never by walking an
  // index of a filter's or a key's column.
  const plan = aggregatePlan(spec, { rowCount: r.rowCount, narrowed, wholeRows: indexed ? budget.indexRows : budget.sortRows }, budget, {
    exact: () => {
      try {
        const groups = read(indexed ? whole : statement("", [], "", budget.sortRows + 1), budget.exactMs);
        return indexed || sum(groups) <= budget.sortRows ? groups : null;
      } catch (e) {
        if (e instanceof DeadlineExceeded) return null;
        throw e;
      }
    },
    sample: () => {
      const sample = spreadSample(c, r, budget.sampleRows);
      return sample && { groups: read(statement(` AND ${sample.sql}`, sample.params, " NOT INDEXED")), picked: sample.picked };
    },
    first: (rows) => {
      const last = nthId(c, r, rows);
      return last === undefined ? undefined : read(statement(" AND t._id <= ?", [last], " NOT INDEXED"));
    },
    all: () => read(statement("", [], " NOT INDEXED")),
  });
  return runNow(plan);
}
