// A sample spread through a table, for the bounded extensions (summary, aggregate) when the
// exact answer does not fit their time budget: about `n` rows, one at a random place in each of
// `n` equal stretches of `_id`s. Rows are picked by position, not by value, so unlike "the first
// rows" it sees every part of a table loaded in order (a whole year of flights, not only
// January); the random place within each stretch keeps it from lining up with data that repeats
// every few rows, and lets it see repeats in a sorted column (for the distinct estimate). The
// seed comes from the table's extent, so the same table gives the same sample (and answer).
// Each pick is one rowid lookup.
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
  const random = mulberry32(lo * 31 + hi * 17 + n);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    // stretch i is [a, b): whole ids, so no two stretches share one
    const a = Math.floor(i * step);
    const b = Math.floor((i + 1) * step);
    ids.push(lo + a + Math.floor(random() * (b - a)));
  }
  return { sql: "t._id IN (SELECT value FROM json_each(?))", params: [JSON.stringify(ids)], picked: ids.length };
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
