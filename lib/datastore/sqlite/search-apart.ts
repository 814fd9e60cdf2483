// A search on the read pool, its page and its count side by side when the pool is otherwise
// idle (issue 23: a client alone gets every core). A search whose total takes a count that reads
// rows (search.ts countsApart) runs its page and then its count on one worker; when no other
// read waits or runs (read-pool.ts spare), the worker that judged it hands it back (a ReadApart)
// and the page and the count are sent as reads of their own, the page first. A count that walks
// a big table is read in small ranges of `_id` (count.ts countRanges), as many at once as
// expensive reads may run while the client is alone; once another client's read waits or runs,
// its ranges go on one at a time, so that read waits for one range at most, then takes turns
// as any. The parts (and a read whole after them) are let in by the search's own turn: no 429
// comes after the split. The ranges together may run as long as the count could on one worker
// (the query's limit). Each part reports the state it read: when a write came between them,
// they are not merged and the search is read whole on one worker. Under contention the search
// keeps one worker and its client's turn, as before.
// Exact totals are kept per state (the pool's `totals`), whichever way they were counted, and
// sent with the next search of the same rows, which then reads its page only.
import type { SearchOutput, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { ReadApart, type ReadPool } from "./read-pool";

type Total = { total: number; estimated: boolean; readAt: string; ms: number };

/** `state`: the resource's as the caller last knew it (a kept total is for that state only). */
export async function searchOnPool(pool: ReadPool, resourceId: string, query: SearchQuery, client: string, state?: string): Promise<SearchOutput> {
  const question = totalQuestion(query);
  const total = question !== null && state !== undefined ? pool.totals.get(state, question) : undefined;
  const kept = total !== undefined ? { kept: { at: state!, total } } : {};
  const out = await pool.run({ op: "search", resourceId, query, apart: true, ...kept }, client);
  // Read whole when its parts read different states: still on the turn that let the search in.
  const whole = () => pool.run({ op: "search", resourceId, query }, client, { expensive: false }) as Promise<SearchOutput>;
  const answer = out instanceof ReadApart ? ((await apart(pool, resourceId, query, client, out.ranges)) ?? (await whole())) : (out as SearchOutput);
  if (question !== null && answer.readAt !== undefined && answer.total !== undefined && !answer.totalEstimated) pool.totals.keep(answer.readAt, question, answer.total);
  return answer;
}

/** The page and the total read apart and merged; null when they read different states. */
async function apart(pool: ReadPool, resourceId: string, query: SearchQuery, client: string, ranges: number): Promise<SearchOutput | null> {
  const admitted = { expensive: false };
  const page = pool.run({ op: "search", resourceId, query: { ...query, includeTotal: false } }, client, admitted) as Promise<SearchOutput>;
  const count = ranges > 1 ? inRanges(pool, resourceId, query, client, ranges, page) : Promise.all([pool.run({ op: "count", resourceId, query }, client, admitted) as Promise<Total>]);
  const [rows, totals] = await Promise.all([page, count]);
  const readAt = rows.readAt!;
  if (totals.some((t) => t.readAt !== readAt)) return null;
  const total = totals.reduce((sum, t) => sum + t.total, 0);
  return { ...rows, total, totalEstimated: totals.some((t) => t.estimated) };
}

/**
 * The count in `of` ranges of `_id`: one lane of ranges one after another, and as many more as
 * expensive reads may run at once while no other client's read waits or runs (a lane ends at
 * its next range once one does). When the ranges' running time passes the query's limit, the
 * search answers as a count past it on one worker would.
 */
async function inRanges(pool: ReadPool, resourceId: string, query: SearchQuery, client: string, of: number, page: Promise<unknown>): Promise<Total[]> {
  const limit = pool.limits.queryTimeoutMs;
  const totals: Total[] = [];
  let next = 0;
  let ran = 0;
  // A failed page fails the search: no range is started for it.
  page.catch(() => (next = of));
  const lane = async (first: boolean): Promise<void> => {
    try {
      while (next < of && (first || !pool.others(client))) {
        if (ran > limit) throw DatastoreError.tooLong(limit);
        const part = { index: next++, of };
        const t = (await pool.run({ op: "count", resourceId, query, part }, client, { expensive: true })) as Total;
        ran += t.ms;
        totals.push(t);
      }
    } catch (e) {
      next = of; // the other lanes stop at their next range
      throw e;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, pool.expensiveLimit) }, (_, i) => lane(i === 0)));
  return totals;
}

/** What a total depends on: the rows searched, not the page's columns, order or bounds (but a
 *  distinct count's columns); null when none is kept: an estimate may answer it, or it is a past
 *  version's. */
function totalQuestion(query: SearchQuery): unknown {
  if (!query.includeTotal || query.totalEstimationThreshold != null || query.asOf !== undefined) return null;
  return { filters: query.filters, fts: query.fts, distinct: query.distinct && query.columns };
}
