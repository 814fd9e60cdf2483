// The spread sample (../spread-sample.ts) in SQLite: the table's `_id` extent, and the picked
// ids as one JSON list bound to the condition (each pick is one rowid lookup); and where the
// table's first rows end.
import { spreadIds, type SpreadSample } from "../spread-sample";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { quoteIdent as q } from "./sql";

/** The picked rows' condition, or null when the table has no more than `n` rows (read them all). */
export function spreadSample(c: Conn, r: Internal, n: number): SpreadSample | null {
  // Two subqueries: SQLite reads min or max from the rowid's ends only when it is alone; together
  // they scan the whole table.
  const [lo, hi] = c.cache.get(`SELECT (SELECT min(_id) FROM ${q(r.table)}), (SELECT max(_id) FROM ${q(r.table)})`, "raw").get() as [number | null, number | null];
  const ids = lo === null || hi === null ? null : spreadIds(lo, hi, n);
  return ids && { sql: "t._id IN (SELECT value FROM json_each(?))", params: [JSON.stringify(ids)], picked: ids.length };
}

/** The `_id` of the table's n-th row (1-based) by `_id`, or undefined when it has fewer rows:
 *  "the first n rows" end there. */
export function nthId(c: Conn, r: Internal, n: number): number | undefined {
  return c.cache.get(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`, "pluck").get(n - 1) as number | undefined;
}
