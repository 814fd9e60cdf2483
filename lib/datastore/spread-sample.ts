// Which rows a spread sample holds (summary, aggregate, histogram), when the exact answer does
// not fit its time budget: about `n` rows, one at a random place in each of `n` equal stretches
// of `_id`s. Rows are picked by position, not by value, so unlike "the first rows" it sees every
// part of a table loaded in order (a whole year of flights, not only January); the random place
// within each stretch keeps it from lining up with data that repeats every few rows, and lets
// it see repeats in a sorted column (for the distinct estimate). The seed comes from the
// table's extent, so the same table gives the same sample on every engine; an engine only
// turns the picked ids into a condition of its own SQL.

export interface SpreadSample {
  /** ANDed into a WHERE over `t` (the resource's table): keeps the picked rows only. */
  sql: string;
  params: unknown[];
  /** How many `_id`s were picked (some may be gaps left by deleted rows). */
  picked: number;
}

/** The picked `_id`s, increasing, for a table whose `_id`s run from `lo` to `hi`; null when it
 *  has no more than `n` of them (read them all). */
export function spreadIds(lo: number, hi: number, n: number): number[] | null {
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
  return ids;
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
