// The spread sample (../spread-sample.ts) in PostgreSQL: the table's `_id` extent, and the picked
// ids as one int8 array bound to the condition. Each pick is one lookup in the `_id` index
// (TABLESAMPLE SYSTEM would read whole pages of neighbouring rows instead).
import { spreadIds, type SpreadSample } from "../spread-sample";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";

/** The `_id`s' extent: [min, max], or null for an empty table. */
export async function idExtent(db: Queryable, r: PgResource): Promise<[number, number] | null> {
  const { rows } = await db.query<[unknown, unknown]>({ text: `SELECT min(_id), max(_id) FROM ${q(r.table)}`, rowMode: "array" });
  const [lo, hi] = rows[0];
  return lo === null || hi === null ? null : [Number(lo), Number(hi)];
}

/**
 * The picked rows' condition, its `_id` list bound as parameter number `params.length + 1` of
 * the statement it joins (`first`), or null when the table has no more than `n` rows.
 */
export async function spreadSample(db: Queryable, r: PgResource, n: number, first: number): Promise<SpreadSample | null> {
  const extent = await idExtent(db, r);
  if (extent === null) return null;
  const ids = spreadIds(extent[0], extent[1], n);
  return ids && { sql: `t._id = ANY($${first}::int8[])`, params: [ids], picked: ids.length };
}

/** The `_id` of the table's n-th row (1-based) by `_id`, or undefined when it has fewer rows:
 *  "the first n rows" end there. */
export async function nthId(db: Queryable, r: PgResource, n: number): Promise<number | undefined> {
  const { rows } = await db.query<[unknown]>({ text: `SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET $1`, values: [n - 1], rowMode: "array" });
  return rows.length ? Number(rows[0][0]) : undefined;
}
