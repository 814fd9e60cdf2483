// The `total` of a search in PostgreSQL: the catalog's row count when nothing narrows it, else
// a counting statement, exact or estimated as ../estimated-total.ts says; the estimate is
// PostgreSQL's own of the matching rows (EXPLAIN, as CKAN reads the planner's estimates).
import type { SearchQuery } from "../engine";
import { totalPlan } from "../estimated-total";
import { runLater } from "../stepwise";
import { OVER_BUDGET, within } from "./budget";
import type { ReadPlan } from "./read-plan";
import { source, type PgResource, type Queryable } from "./resource";

export type CountPlan = { rows: number } | { sql: string; params: unknown[] };

/** The rows a search's count reads: `SELECT 1 …` of the matches (DISTINCT rows when distinct). */
export function matchesSql(r: PgResource, plan: ReadPlan, query: Pick<SearchQuery, "distinct">): string {
  const cond = plan.where.sql();
  if (!query.distinct) return `SELECT 1 FROM ${source(r)} AS t WHERE ${cond}`;
  // The distinct rows of the output's fields (not its rank columns), as the SQLite engine counts.
  const fields = plan.output.filter((s) => s.startsWith("t."));
  return `SELECT DISTINCT ${fields.join(", ") || "1"} FROM ${source(r)} AS t WHERE ${cond}`;
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
  return runLater(
    totalPlan(query.totalEstimationThreshold, {
      exact,
      budgeted: async () => {
        const counted = await within(db, budgetMs, exact);
        return counted === OVER_BUDGET ? null : counted;
      },
      estimate: () => estimateRows(db, matchesSql(r, plan, query), plan.params),
    }),
  );
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
