// A search on the read pool, its page and its count side by side when the pool is otherwise
// idle (issue 23: a client alone gets every core). A search whose total takes a count that reads
// rows (search.ts countsApart) runs its page and then its count on one worker; when no other
// read waits or runs (read-pool.ts spare), the worker that judged it hands it back (a ReadApart)
// and the page and the count are sent as reads of their own, the page first; a count that
// walks a big table in `_id` ranges on as many workers as expensive reads may run at once, as
// an exact aggregate's parts are (count.ts countScansTable says when): when the page is an
// expensive read too, the second range starts as the first read ends. Each reports the state
// it read: when a write came between them, they are not merged and the search is read whole on
// one worker. Under contention the search keeps one worker and its client's turn, as before.
// Exact totals counted so are kept per state (the pool's `totals`), as each worker keeps the
// counts it made itself (count.ts).
import type { SearchOutput, SearchQuery } from "../engine";
import { ReadApart, type ReadPool } from "./read-pool";

type Total = { total: number; estimated: boolean; readAt: string };

/** `state`: the resource's as the caller last knew it (a kept total is for that state only). */
export async function searchOnPool(pool: ReadPool, resourceId: string, query: SearchQuery, client: string, state?: string): Promise<SearchOutput> {
  const out = await pool.run({ op: "search", resourceId, query, apart: true }, client);
  if (!(out instanceof ReadApart)) return out as SearchOutput;
  return (await apart(pool, resourceId, query, client, state, out.ranges)) ?? ((await pool.run({ op: "search", resourceId, query }, client)) as SearchOutput);
}

/** The page and the total read apart and merged; null when they read different states. */
async function apart(pool: ReadPool, resourceId: string, query: SearchQuery, client: string, state: string | undefined, ranges: boolean): Promise<SearchOutput | null> {
  const exact = query.totalEstimationThreshold == null;
  const question = totalQuestion(query);
  const known = exact && state !== undefined ? pool.totals.get(state, question) : undefined;
  const of = known !== undefined ? 0 : ranges ? Math.max(1, pool.expensiveLimit) : 1;
  const page = pool.run({ op: "search", resourceId, query: { ...query, includeTotal: false } }, client) as Promise<SearchOutput>;
  const parts = Array.from({ length: of }, (_, index) => pool.run({ op: "count", resourceId, query, ...(of > 1 && { part: { index, of } }) }, client) as Promise<Total>);
  const [rows, ...totals] = await Promise.all([page, ...parts]);
  const readAt = rows.readAt!;
  if (known !== undefined ? readAt !== state : totals.some((t) => t.readAt !== readAt)) return null;
  const total = known ?? totals.reduce((sum, t) => sum + t.total, 0);
  const estimated = totals.some((t) => t.estimated);
  if (!estimated && exact) pool.totals.keep(readAt, question, total);
  return { ...rows, total, totalEstimated: estimated };
}

/** What a total depends on: the rows searched, not the page's columns, order or bounds (but a
 *  distinct count's columns). */
function totalQuestion(query: SearchQuery): unknown {
  return { filters: query.filters, fts: query.fts, distinct: query.distinct && query.columns };
}
