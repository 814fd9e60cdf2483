// The most common values of one field under a search (datastore_value_counts) in PostgreSQL,
// ordered as the SQLite engine orders them, over the rows ../bounded-read.ts says: all of them,
// unless a caller's budget is too short for that: then the first rows, counts scaled, `partial`.
import { column } from "../catalog-row";
import { boundedPlan, scaledCounts } from "../bounded-read";
import type { SearchQuery, ValueCountsOutput } from "../engine";
import { runLater } from "../stepwise";
import { isArrayType } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { searchWhere, selectColumn } from "./read-plan";
import { quoteIdent as q, source, type PgResource, type Queryable } from "./resource";
import { nthId } from "./spread-sample";

/** `db`: a client inside a transaction. */
export async function valueCounts(db: Queryable, r: PgResource, field: string, query: SearchQuery, limit: number, budgetMs: number | null = null): Promise<ValueCountsOutput> {
  const f = column(r, field);
  const where = searchWhere(r, query);
  const { sql: value, decode } = selectColumn(f);
  // Ties in the order SQLite gives them: by the stored value, arrays by their JSON text.
  const tie = isArrayType(f.type) ? `to_json(t.${q(f.column)})::text` : "v";
  const countSql = (extra: string) =>
    `SELECT ${value} AS v, count(*)::int8 AS n FROM ${source(r)} AS t WHERE ${where.sql()} AND t.${q(f.column)} IS NOT NULL${extra}` +
    ` GROUP BY 1 ORDER BY n DESC, ${tie} LIMIT $${where.params.length + 1}`;
  const run = async (extra: string, extraParams: unknown[]) => {
    const { rows } = await db.query<[unknown, unknown]>({ text: countSql(extra), values: [...where.params, limit, ...extraParams], rowMode: "array" });
    return rows.map(([v, n]) => ({ value: decode(v), count: Number(n) }));
  };
  const plan = boundedPlan(
    { rowCount: r.rowCount, narrowed: query.filters.length > 0 || query.fts.length > 0 },
    budgetMs,
    {
      exact: async (ms) => {
        if (ms === null) return run("", []);
        const exact = await within(db, ms, () => run("", []));
        return exact === OVER_BUDGET ? null : exact;
      },
      first: async (rows) => {
        const last = await nthId(db, r, rows);
        return last === undefined ? run("", []) : run(` AND t._id <= $${where.params.length + 2}`, [last]);
      },
    },
  );
  const { out, partial, sampled } = await runLater(plan);
  return { values: partial ? scaledCounts(out, sampled, r.rowCount) : out, partial };
}
