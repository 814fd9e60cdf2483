// A walk through a search in `_id` order by keyset (each engine's read-plan.ts inIdOrder),
// the same on every engine: the page queries, each `_id` past the last row of the one before,
// `offset` on the first only, until `limit` rows (all when negative) or a short page. Dumps walk
// it on one connection or through an engine's read scheduler.
import type { Filter, SearchQuery } from "./engine";

/** How a page ended: its row count and the `_id` of its last row. */
export interface PageEnd {
  rows: number;
  lastId?: number;
}

/** Yields each page's query; send back how it ended (`next(end)`). */
export function* keysetPages(query: SearchQuery, chunkRows: number): Generator<SearchQuery, void, PageEnd> {
  const desc = query.sort[0].desc;
  let remaining = query.limit < 0 ? Infinity : query.limit;
  let offset = query.offset;
  let after: number | undefined;
  while (remaining > 0) {
    const limit = Math.min(chunkRows, remaining);
    const seek: Filter[] = after === undefined ? [] : [{ op: desc ? "lt" : "gt", field: "_id", value: after }];
    const end = yield { ...query, filters: [...query.filters, ...seek], limit, offset, lastId: true, includeTotal: false };
    if (end.rows < limit || end.lastId === undefined) return;
    after = end.lastId;
    remaining -= end.rows;
    offset = 0;
  }
}
