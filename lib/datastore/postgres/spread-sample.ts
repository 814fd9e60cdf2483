// A sample spread through a table, as sqlite/spread-sample.ts takes it (same picks, so both
// engines sample the same rows of the same table): about `n` rows, one at a random place in each
// of `n` equal stretches of `_id`s, seeded from the table's extent. Rows are picked by position,
// not by value, so a table loaded in date order shows all its dates; each pick is one lookup in
// the `_id` index (TABLESAMPLE SYSTEM would read whole pages of neighbouring rows instead).
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";

export interface SpreadSample {
  /** ANDed into a WHERE over `t` (the resource's table): keeps the picked rows only. */
  sql: string;
  params: unknown[];
  /** How many `_id`s were picked (some may be gaps left by deleted rows). */
  picked: number;
}

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
  const [lo, hi] = extent;
  if (hi - lo + 1 <= n) return null;
  const step = (hi - lo + 1) / n;
  const random = mulberry32(lo * 31 + hi * 17 + n);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    // stretch i is [a, b): whole ids, so no two stretches share one
    const a = Math.floor(i * step);
    const b = Math.floor((i + 1) * step);
    ids.push(lo + a + Math.floor(random() * (b - a)));
  }
  return { sql: `t._id = ANY($${first}::int8[])`, params: [ids], picked: ids.length };
}

/** A small seeded generator (mulberry32): uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `_id` of the table's n-th row (1-based) by `_id`, or undefined when it has fewer rows:
 *  "the first n rows" end there. */
export async function nthId(db: Queryable, r: PgResource, n: number): Promise<number | undefined> {
  const { rows } = await db.query<[unknown]>({ text: `SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET $1`, values: [n - 1], rowMode: "array" });
  return rows.length ? Number(rows[0][0]) : undefined;
}
