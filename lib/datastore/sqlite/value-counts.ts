// The most common values of one field under a search (datastore_value_counts) in SQLite, over
// the rows ../bounded-read.ts says: all of them, unless a caller's budget is too short for
// that: then the first rows of the table, counts scaled, and `partial`.
import { column } from "../catalog-row";
import { boundedPlan, scaledCounts } from "../bounded-read";
import type { SearchQuery, ValueCountsOutput } from "../engine";
import { runNow } from "../stepwise";
import { fromStorage, type Stored } from "../types";
import { ID_FIELD, type Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { nthId } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { Where } from "./where";

export function valueCounts(c: Conn, r: Internal, field: string, query: SearchQuery, limit: number, budgetMs: number | null = null): ValueCountsOutput {
  const f = column(r, field);
  const where = new Where(r);
  for (const flt of query.filters) where.filter(flt);
  where.fullText(query.fts);
  const col = `t.${q(f.column)}`;
  // The sample reads a range of rows by _id; NOT INDEXED stops SQLite from walking a whole
  // index instead (it would, to group by the indexed column).
  const countSql = (extra: string, hint = "") =>
    `SELECT ${col} AS v, count(*) AS n FROM ${q(r.table)} AS t${hint} ${where.ftsJoin}
     WHERE ${where.sql()} AND ${col} IS NOT NULL${extra} GROUP BY v ORDER BY n DESC, v LIMIT ?`;
  const decode = (rows: [Stored, number][]) => rows.map(([v, n]) => ({ value: f === ID_FIELD ? v : fromStorage(f.type, v), count: n }));
  const counts = (extra: string, params: unknown[], hint = "") => decode(c.cache.get(countSql(extra, hint), "raw").all(...where.params, ...params, limit) as [Stored, number][]);
  const plan = boundedPlan(
    { rowCount: r.rowCount, narrowed: query.filters.length > 0 || query.fts.length > 0 },
    budgetMs,
    {
      exact: (ms) => {
        if (ms === null) return within(c.db, c.limits.queryTimeoutMs, () => counts("", []));
        try {
          return within(c.db, ms, () => counts("", []));
        } catch (e) {
          if (e instanceof DeadlineExceeded) return null;
          throw e;
        }
      },
      first: (rows) => {
        const last = nthId(c, r, rows);
        return within(c.db, c.limits.queryTimeoutMs, () => (last === undefined ? counts("", [], " NOT INDEXED") : counts(" AND t._id <= ?", [last], " NOT INDEXED")));
      },
    },
  );
  const { out, partial, sampled } = runNow(plan);
  return { values: partial ? scaledCounts(out, sampled, r.rowCount) : out, partial };
}
