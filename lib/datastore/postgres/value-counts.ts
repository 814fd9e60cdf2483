// The most common values of one field under a search (datastore_value_counts), as the SQLite
// engine counts them (sqlite/value-counts.ts): exact when the count fits its time budget;
// otherwise exact over the first rows of the table, and `partial`.
import type { SearchQuery, ValueCountsOutput } from "../engine";
import { isArrayType } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { column, searchWhere, selectColumn } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import { nthId } from "./spread-sample";

const BUDGET_MS = 120;
const ROW_BUDGET = 100_000;

/** `db`: a client inside a transaction. */
export async function valueCounts(db: Queryable, r: PgResource, field: string, query: SearchQuery, limit: number): Promise<ValueCountsOutput> {
  const f = column(r, field);
  const where = searchWhere(r, query);
  const { sql: value, decode } = selectColumn(f);
  // Ties in the order SQLite gives them: by the stored value, arrays by their JSON text.
  const tie = isArrayType(f.type) ? `to_json(t.${q(f.column)})::text` : "v";
  const countSql = (extra: string) =>
    `SELECT ${value} AS v, count(*)::int8 AS n FROM ${q(r.table)} AS t WHERE ${where.sql()} AND t.${q(f.column)} IS NOT NULL${extra}` +
    ` GROUP BY 1 ORDER BY n DESC, ${tie} LIMIT $${where.params.length + 1}`;
  const run = async (extra: string, extraParams: unknown[]) => {
    const { rows } = await db.query<[unknown, unknown]>({ text: countSql(extra), values: [...where.params, limit, ...extraParams], rowMode: "array" });
    return rows.map(([v, n]) => ({ value: decode(v), count: Number(n) }));
  };
  // Counting a whole big table cannot fit the budget even through an index, so unnarrowed
  // counts there go straight to the first rows.
  const hopeless = query.filters.length === 0 && query.fts.length === 0 && r.rowCount > 5 * ROW_BUDGET;
  if (!hopeless) {
    const exact = await within(db, BUDGET_MS, () => run("", []));
    if (exact !== OVER_BUDGET) return { values: exact, partial: false };
  }
  const last = await nthId(db, r, ROW_BUDGET);
  const values = last === undefined ? await run("", []) : await run(` AND t._id <= $${where.params.length + 2}`, [last]);
  return { values, partial: true };
}
