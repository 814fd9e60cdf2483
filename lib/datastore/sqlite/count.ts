// The `total` of a search in SQLite: the catalog's row count when nothing narrows it, the
// index's own count for full text alone, an index-only count when one index range answers it,
// else a counting statement, exact or estimated as ../estimated-total.ts says; the estimate is
// scaled up from the first rows (CKAN's `total_was_estimated`).
import type { SearchQuery } from "../engine";
import { partIds, type AggregatePart } from "./aggregate";
import { totalPlan } from "../estimated-total";
import { runNow } from "../stepwise";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { ftsTable } from "./fts-index";
import type { ReadPlan } from "./read-plan";
import { nthId } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import type { Where } from "./where";
import { Memo, valuesKey } from "./statement-cache";

/** Rows counted for an estimate when an exact count would exceed its budget (with a threshold). */
const ESTIMATE_SAMPLE_ROWS = 100_000;

/** Tables from this size may be counted in ranges of `_id` side by side (countScansTable). */
const SPLIT_ROWS = 100_000;

/** A count in ranges reads at most this many `_id`s a range, and takes at least MIN_RANGES:
 *  another client's read that comes while both workers count waits for one range, not half
 *  the count (search-apart.ts). */
const RANGE_ROWS = 250_000;
const MIN_RANGES = 8;

/** Tables up to this size count from an index range without the deadline check. */
const INDEX_COUNT_MAX_ROWS = 4_000_000;

type CountPlan = { rows: number } | { sql: string; params: unknown[]; budgeted: boolean };

const coveredPlans = new WeakMap<Conn, Memo<boolean>>();

const counted = new WeakMap<Conn, Memo<number>>();

/**
 * An exact count, kept per connection for the resource's version: every write raises the
 * version, so a total is counted once per version and filters, not again on every page a
 * client reads of them. `keep` false: the rows may be a transaction's uncommitted ones, whose
 * version number could come back with other rows.
 */
export function exactCount(c: Conn, r: Internal, sql: string, params: unknown[], keep: boolean): number {
  const run = () => c.cache.get(sql, "pluck").get(...params) as number;
  if (!keep) return run();
  let memo = counted.get(c);
  if (!memo) counted.set(c, (memo = new Memo<number>()));
  return memo.get(countKey(r, sql, params), run);
}

function countKey(r: Internal, sql: string, params: unknown[]): string {
  return `${r.table}\0${r.version}\0${sql}\0${valuesKey(params)}`;
}

/** Whether this connection counted the statement for the resource's version already. */
export function countKept(c: Conn, r: Internal, sql: string, params: unknown[]): boolean {
  return counted.get(c)?.peek(countKey(r, sql, params)) !== undefined;
}

const scanPlans = new WeakMap<Conn, Memo<boolean>>();

/**
 * Whether the search's exact count walks the whole table (SQLite's plan: SCAN t), on a table big
 * enough that ranges of `_id` are worth reading on several workers: each range then walks its
 * share. Not a count through an index (a range of `_id` could turn it into a walk of that
 * range), within `_id` bounds (SQLite takes one lower bound: a range would walk from the
 * query's), of full text (each range would walk every match), distinct (ranges do not add up)
 * or with an estimation threshold (an estimate is made from the whole table).
 */
export function countScansTable(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery): boolean {
  if (r.rowCount < SPLIT_ROWS || query.distinct || query.totalEstimationThreshold != null || plan.where.ftsJoin) return false;
  const how = countPlan(c, r, plan, query);
  if ("rows" in how || !how.budgeted) return false;
  let memo = scanPlans.get(c);
  if (!memo) scanPlans.set(c, (memo = new Memo<boolean>()));
  return memo.get(how.sql, () => {
    const steps = (c.db.prepare(`EXPLAIN QUERY PLAN ${how.sql}`).all(...how.params) as { detail: string }[]).map((s) => s.detail);
    return steps.length === 1 && steps[0] === "SCAN t";
  });
}

/** The ranges of `_id` a count that walks the table is read in (countScansTable). */
export function countRanges(r: Internal): number {
  return Math.max(MIN_RANGES, Math.ceil(r.rowCount / RANGE_ROWS));
}

/** The exact count of the matches whose `_id` is in `part`'s share of the table's (kept as
 *  exactCount keeps): parts of one state add up to the total (search-apart.ts). */
export function partCount(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery, part: AggregatePart): number {
  const ids = partIds(c, r, part);
  if (ids === null) return 0;
  return exactCount(c, r, countSql(r, plan.where, plan.select, query, " AND t._id BETWEEN ? AND ?"), [...plan.where.params, ...ids], true);
}

export function count(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery, keep = true): { total: number; estimated: boolean } {
  const how = countPlan(c, r, plan, query);
  if ("rows" in how) return { total: how.rows, estimated: false };
  // With a threshold, a slow count is estimated as CKAN does, whether or not an exact one was
  // kept: the same question gets the same kind of answer.
  const exact = () => exactCount(c, r, how.sql, how.params, keep && query.totalEstimationThreshold == null);
  // A count that cannot scan (full text alone, an index range) is exact at once.
  if (!how.budgeted) return { total: exact(), estimated: false };
  return runNow(
    totalPlan(query.totalEstimationThreshold, {
      exact,
      budgeted: () => {
        try {
          return within(c.db, c.limits.countBudgetMs, exact);
        } catch (e) {
          if (e instanceof DeadlineExceeded) return null;
          throw e;
        }
      },
      estimate: () => sampleEstimate(c, r, plan, query),
    }),
  );
}

/** The count over the first ESTIMATE_SAMPLE_ROWS rows (by `_id`), scaled up to the table;
 *  null when the table is no bigger than the sample, whose count is then the exact one. */
function sampleEstimate(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery): number | null {
  if (r.rowCount <= ESTIMATE_SAMPLE_ROWS) return null;
  const lastSampled = nthId(c, r, ESTIMATE_SAMPLE_ROWS);
  if (lastSampled === undefined) return null;
  const sampled = c.cache.get(countSql(r, plan.where, plan.select, query, " AND t._id <= ?"), "pluck").get(...plan.where.params, lastSampled) as number;
  return Math.round((sampled * r.rowCount) / ESTIMATE_SAMPLE_ROWS);
}

/** How a total is counted: the catalog's row count, or a statement; `budgeted` when it may scan
 *  (then, with a threshold, it runs within the count budget before an estimate is considered). */
export function countPlan(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery): CountPlan {
  const where = plan.where;
  if (!query.distinct && where.parts.length === 0 && !where.ftsJoin) return { rows: r.rowCount };
  if (!query.distinct && where.parts.length === 0 && where.ftsMatch !== null) {
    // Only full text: the index counts its own matches without touching the rows.
    const fts = q(ftsTable(r.table));
    return { sql: `SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`, params: [where.ftsMatch], budgeted: false };
  }
  const indexOnly = indexOnlyCount(c, r, where, query);
  if (indexOnly !== null) return { sql: indexOnly, params: where.params, budgeted: false };
  return { sql: countSql(r, where, plan.select, query), params: where.params, budgeted: true };
}

/**
 * The count, when SQLite answers it from one index range alone (its plan says so) on a table
 * of at most INDEX_COUNT_MAX_ROWS rows: it ends well within the count budget, so it runs
 * without the per-row deadline check, which would double its cost. Else null.
 */
function indexOnlyCount(c: Conn, r: Internal, where: Where, query: SearchQuery): string | null {
  if (query.distinct || where.ftsJoin || where.parts.length === 0 || r.rowCount > INDEX_COUNT_MAX_ROWS) return null;
  const sql = `SELECT count(*) FROM ${q(r.table)} AS t WHERE ${where.sql(false)}`;
  let memo = coveredPlans.get(c);
  if (!memo) coveredPlans.set(c, (memo = new Memo<boolean>()));
  const covered = memo.get(sql, () => {
    const steps = c.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...where.params) as { detail: string }[];
    return steps.length > 0 && steps.every((step) => step.detail.startsWith("SEARCH t USING COVERING INDEX "));
  });
  return covered ? sql : null;
}

function countSql(r: Internal, where: Where, select: string[], query: SearchQuery, extra = ""): string {
  const cols = select.filter((s) => s.startsWith("t."));
  return query.distinct
    ? `SELECT count(*) FROM (SELECT DISTINCT ${cols.join(", ") || "1"} FROM ${q(r.table)} AS t ${where.ftsJoin} WHERE ${where.sql()}${extra})`
    : `SELECT count(*) FROM ${q(r.table)} AS t ${where.ftsJoin} WHERE ${where.sql()}${extra}`;
}
