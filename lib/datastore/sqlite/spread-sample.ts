// A sample spread through a table, for the bounded extensions (summary, aggregate) when the
// exact answer does not fit their time budget: about `n` rows at evenly spaced `_id`s. Rows are
// picked by position, not by value, so unlike "the first rows" it sees every part of a table
// loaded in order (a whole year of flights, not only January). Each pick is one rowid lookup.
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { quoteIdent as q } from "./sql";

export interface SpreadSample {
  /** ANDed into a WHERE over `t` (the resource's table): keeps the picked rows only. */
  sql: string;
  params: unknown[];
  /** How many `_id`s were picked (some may be gaps left by deleted rows). */
  picked: number;
}

/** The picked rows' condition, or null when the table has no more than `n` rows (read them all). */
export function spreadSample(c: Conn, r: Internal, n: number): SpreadSample | null {
  // Two subqueries: SQLite reads min or max from the rowid's ends only when it is alone (together
  // they scan the table: 110 ms on 3M rows).
  const [lo, hi] = c.cache.get(`SELECT (SELECT min(_id) FROM ${q(r.table)}), (SELECT max(_id) FROM ${q(r.table)})`, "raw").get() as [number | null, number | null];
  if (lo === null || hi === null || hi - lo + 1 <= n) return null;
  const step = (hi - lo + 1) / n;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(lo + Math.floor(i * step));
  return { sql: "t._id IN (SELECT value FROM json_each(?))", params: [JSON.stringify(ids)], picked: ids.length };
}
