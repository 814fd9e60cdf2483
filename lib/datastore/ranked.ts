// Best-first pages (a full-text search ordered by rank alone), what every engine shares: which
// searches are best-first, the ranked lists kept (least recently used out), and which of a
// list's positions a page reads. Each engine ranks the matches and reads the page's rows.
import type { SearchQuery } from "./engine";

/** Every match's id and rank, best first. */
export interface RankedList {
  ids: ArrayLike<number>;
  ranks: ArrayLike<number>;
}

/** Ids held in lists; a list longer than this is used once and not kept. */
const MAX_CACHED_IDS = 1_000_000;

/**
 * The rank expression the search is ordered by when it is one that every sort clause (all one
 * way) and every rank column shares, not distinct; else null. (`ranks`: expressions by rank
 * column name.) The engine checks the rest: full text alone, no filters.
 */
export function sharedRank(ranks: ReadonlyMap<string, string>, query: SearchQuery): string | null {
  if (query.distinct || query.sort.length === 0) return null;
  const expr = ranks.get(query.sort[0].field);
  if (expr === undefined) return null;
  if (query.sort.some((s) => ranks.get(s.field) !== expr || s.desc !== query.sort[0].desc)) return null;
  for (const name of query.columns) {
    const other = ranks.get(name);
    if (other !== undefined && other !== expr) return null;
  }
  return expr;
}

/** Ranked lists by key, least recently used first out, at most MAX_CACHED_IDS ids in all. */
export class RankedLists<L extends RankedList> {
  private lists = new Map<string, L>();
  private held = 0;

  has(key: string): boolean {
    return this.lists.has(key);
  }

  /** The list kept under `key`, now the most recently used. */
  get(key: string): L | undefined {
    const hit = this.lists.get(key);
    if (hit) {
      this.lists.delete(key);
      this.lists.set(key, hit);
    }
    return hit;
  }

  /** Keeps `list` (unless too long, or one was kept meanwhile) and answers it. */
  keep(key: string, list: L): L {
    if (list.ids.length > MAX_CACHED_IDS || this.lists.has(key)) return list;
    while (this.held + list.ids.length > MAX_CACHED_IDS) {
      const [oldest, old] = this.lists.entries().next().value!;
      this.lists.delete(oldest);
      this.held -= old.ids.length;
    }
    this.lists.set(key, list);
    this.held += list.ids.length;
    return list;
  }
}

/** The positions in a list of `n` that a page reads: `limit` (all when negative) from `offset`,
 *  best first when ordered by rank descending, else from the worst end. */
export function pagePositions(n: number, query: Pick<SearchQuery, "sort" | "offset" | "limit">): number[] {
  const best = query.sort[0].desc;
  const from = Math.min(query.offset, n);
  const to = Math.min(n, from + (query.limit < 0 ? n : query.limit));
  const positions: number[] = [];
  for (let i = from; i < to; i++) positions.push(best ? i : n - 1 - i);
  return positions;
}
