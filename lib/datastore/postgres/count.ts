// The `total` of a search, as the SQLite engine answers it (sqlite/count.ts): the catalog's row
// count when nothing narrows it, else a count that is exact (within the query's time limit),
// unless the client sent `total_estimation_threshold`: then a count that overruns the count
// budget gives way to PostgreSQL's own estimate of the matching rows (EXPLAIN, as CKAN reads the
// planner's estimates), when that estimate is at least the threshold (CKAN's rule: >=).
import type { SearchQuery } from "../engine";
import { OVER_BUDGET, within } from "./budget";
import type { ReadPlan } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";

export type CountPlan = { rows: number } | { sql: string; params: unknown[] };

/** The rows a search's count reads: `SELECT 1 …` of the matches (DISTINCT rows when distinct). */
export function matchesSql(r: PgResource, plan: ReadPlan, query: Pick<SearchQuery, "distinct">): string {
  const cond = plan.where.sql();
  if (!query.distinct) return `SELECT 1 FROM ${q(r.table)} AS t WHERE ${cond}`;
  // The distinct rows of the output's fields (not its rank columns), as the SQLite engine counts.
  const fields = plan.output.filter((s) => s.startsWith("t."));
  return `SELECT DISTINCT ${fields.join(", ") || "1"} FROM ${q(r.table)} AS t WHERE ${cond}`;
}

/** How a total is counted: the catalog's row count, or a statement. */
export function countPlan(r: PgResource, plan: ReadPlan, query: SearchQuery): CountPlan {
  if (!query.distinct && plan.where.empty) return { rows: r.rowCount };
  return { sql: `SELECT count(*)::int8 FROM (${matchesSql(r, plan, query)}) AS m`, params: plan.params };
}

/** `db`: a client inside a transaction (the budget's savepoint needs one); `budgetMs`: the
 *  count budget (ReadLimits). */
export async function count(db: Queryable, r: PgResource, plan: ReadPlan, query: SearchQuery, budgetMs: number): Promise<{ total: number; estimated: boolean }> {
  const how = countPlan(r, plan, query);
  if ("rows" in how) return { total: how.rows, estimated: false };
  const exact = async () => Number((await db.query<[number]>({ text: how.sql, values: how.params, rowMode: "array" })).rows[0][0]);
  const threshold = query.totalEstimationThreshold;
  // No threshold: exact, as CKAN counts; the connection's statement_timeout still bounds it.
  if (threshold === undefined) return { total: await exact(), estimated: false };
  const counted = await within(db, budgetMs, exact);
  if (counted !== OVER_BUDGET) return { total: counted, estimated: false };
  const estimate = await estimateRows(db, matchesSql(r, plan, query), plan.params);
  if (estimate >= threshold) return { total: estimate, estimated: true };
  // Below the threshold the exact count is worth its time (CKAN counts then too).
  return { total: await exact(), estimated: false };
}

/** The planner's estimate of the rows a statement returns (EXPLAIN's top "Plan Rows"). */
export async function estimateRows(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<[unknown]>({ text: `EXPLAIN (FORMAT JSON) ${sql}`, values: params, rowMode: "array" });
  return Math.round(Number(explained(rows[0][0]).Plan["Plan Rows"]));
}

export interface PlanNode {
  "Node Type": string;
  "Total Cost": number;
  "Plan Rows": number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** EXPLAIN (FORMAT JSON)'s one row: a list holding the plan (text or parsed, as the driver gives it). */
export function explained(cell: unknown): { Plan: PlanNode } {
  const list = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  return list[0];
}
