// Rows grouped by one or two fields under a search (datastore_aggregate): GROUP BY in SQL, the
// order, limit and `others` in ../aggregate-spec.ts. Exact when it fits a time budget, else
// over a sample spread through the table (spread-sample.ts), or its first rows when the search
// is so selective that the sample holds few of its rows, and `partial`.
import { config } from "../../config";
import type { AggregateGroup, AggregateKey, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { binStep, rankGroups, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { fromStorage, isArrayType, type Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { column } from "./schema";
import { spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { Memo } from "./statement-cache";
import { Where } from "./where";

/** How hard an aggregate tries to be exact; tests shrink these. The timings behind the sizes:
 *  docs/performance.md ("Figures behind the code's thresholds"). */
export interface AggregateBudget {
  /** Time for the exact answer. */
  exactMs: number;
  /** Rows an exact GROUP BY may sort: SQLite sorts them after the scan, past the deadline's
   *  reach, so more matching rows than this go to the sample, whose size is fixed. */
  sortRows: number;
  /** Rows of a whole table an index may group in its own order within exactMs. */
  indexRows: number;
  /** Groups an exact answer may have (JavaScript orders them all). */
  groups: number;
  /** Rows of the spread sample: enough for a chart's shape, few enough to read well within
   *  the answer's time. */
  sampleRows: number;
  /** Fewer matching sampled rows than this try the first rows of the table as well. */
  fewRows: number;
  /** The first rows read then. */
  firstRows: number;
}

export const BUDGET: AggregateBudget = {
  exactMs: 150,
  sortRows: 200_000,
  indexRows: 2_000_000,
  groups: 100_000,
  sampleRows: 50_000,
  fewRows: 1_000,
  firstRows: 100_000,
};

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
  decode: (v: Stored) => unknown;
}

function keyColumn(r: Internal, key: AggregateKey): KeyColumn {
  const f = column(r, key.field);
  const col = `t.${q(f.column)}`;
  if (key.period) {
    // Timestamps keep their stored shape, so a key can be sent back as a filter value.
    const suffix = f.type === "timestamp" ? "T00:00:00" : "";
    return { sql: PERIOD_SQL[key.period](col), params: [], decode: (v) => (v === null ? null : `${v}${suffix}`) };
  }
  if (key.bin !== undefined) {
    const { mul, div } = binStep(key.bin);
    return { sql: `floor(${SQL_SNAP(`${col} * ?`)} / ?)`, params: [mul, div], decode: (v) => (v === null ? null : (Number(v) * div) / mul) };
  }
  // The plain column, so an index of it can give the groups in order; "" and [] join NULL in
  // the null group afterwards (merge below).
  const blank = f.type === "text" ? "" : isArrayType(f.type) ? "[]" : undefined;
  return { sql: col, params: [], decode: (v) => (v === null || v === blank ? null : fromStorage(f.type, v)) };
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
  const run = (s: Statement) => c.cache.get(s.sql, "raw").all(...s.params) as Stored[][];
  const grouped = (rows: Stored[][]) => merge(rows, keys, spec);

  const whole = statement();
  const indexed = !sorts(c, whole);
  // Unnarrowed, the rows to group are the whole table: too many for the budget is known at once.
  const hopeless = !narrowed && r.rowCount > (indexed ? budget.indexRows : budget.sortRows);
  if (!hopeless) {
    try {
      const raw = within(c.db, budget.exactMs, () => run(indexed ? whole : statement("", [], "", budget.sortRows + 1)));
      const groups = grouped(raw);
      const rows = sum(groups);
      if ((indexed || rows <= budget.sortRows) && groups.length <= budget.groups) return answer(groups, spec, rows, rows, false);
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
    }
  }

  const read = (s: Statement) => within(c.db, config.queryTimeoutMs, () => grouped(run(s)));
  // NOT INDEXED: the sample is read by _id lookups, the first rows by _id, never by walking an
  // index of a filter's or a key's column.
  const sample = spreadSample(c, r, budget.sampleRows);
  if (!sample) {
    const groups = read(statement("", [], " NOT INDEXED"));
    return answer(groups, spec, sum(groups), sum(groups), false);
  }
  let groups = read(statement(` AND ${sample.sql}`, sample.params, " NOT INDEXED"));
  let scanned = sample.picked;
  if (narrowed && sum(groups) < budget.fewRows) {
    const last = c.cache.get(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`, "pluck").get(budget.firstRows - 1) as number | undefined;
    const first = read(last === undefined ? statement("", [], " NOT INDEXED") : statement(" AND t._id <= ?", [last], " NOT INDEXED"));
    // The first rows are the whole table: the answer is exact.
    if (last === undefined) return answer(first, spec, sum(first), sum(first), false);
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
function merge(rows: Stored[][], keys: KeyColumn[], spec: AggregateSpec): AggregateGroup[] {
  const n = keys.length;
  const byKey = new Map<unknown, Acc>();
  for (const row of rows) {
    const key = keys.map((k, i) => k.decode(row[i]));
    const [count, numbers, metric, id] = row.slice(n) as [number, number, number | null, number];
    const mapKey = n === 1 && typeof key[0] !== "object" ? key[0] : JSON.stringify(key);
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
