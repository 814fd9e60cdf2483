// The most common values of one field under a search (datastore_value_counts). Exact when the
// count fits its time budget; otherwise exact over the first rows of the table and `partial`.
import type { SearchQuery, ValueCountsOutput } from "../engine";
import { fromStorage, type Stored } from "../types";
import { ID_FIELD, type Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { column } from "./schema";
import { quoteIdent as q } from "./sql";
import { Where } from "./where";

const BUDGET_MS = 120;
const ROW_BUDGET = 100_000;

export function valueCounts(c: Conn, r: Internal, field: string, query: SearchQuery, limit: number): ValueCountsOutput {
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
  // Counting a whole big table cannot fit the budget even through an index, so unnarrowed
  // counts there go straight to the first rows.
  const hopeless = query.filters.length === 0 && query.fts.length === 0 && r.rowCount > 5 * ROW_BUDGET;
  if (!hopeless) {
    try {
      const rows = within(c.db, BUDGET_MS, () => c.cache.get(countSql(""), "raw").all(...where.params, limit) as [Stored, number][]);
      return { values: decode(rows), partial: false };
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
    }
  }
  const last = c.cache.get(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`, "pluck").get(ROW_BUDGET - 1) as number | undefined;
  const rows = within(c.db, c.limits.queryTimeoutMs, () =>
    c.cache
      .get(countSql(last === undefined ? "" : " AND t._id <= ?", " NOT INDEXED"), "raw")
      .all(...where.params, ...(last === undefined ? [] : [last]), limit) as [Stored, number][],
  );
  return { values: decode(rows), partial: true };
}
