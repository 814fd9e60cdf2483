// The extensions' exact answers (datastore_aggregate, datastore_summary, datastore_histogram,
// datastore_value_counts) kept per state of their resource (page-cache.ts's AnswerCache): the
// same question again, from this client or another, answers from memory until a write raises
// the resource's version or the resource is created again (a new table). An exact answer over
// millions of rows takes a while; a chart, a pivot or a shared link asks it again and again.
// Answers over a sample (`partial`, under a caller's `budget_ms`) are not kept: they depend on
// time. Engine-independent: every engine's resources carry their table and version.
import { config } from "../config";
import type { Resource } from "./engine";
import { AnswerCache } from "./page-cache";

let kept: AnswerCache<unknown, { partial: boolean }> | undefined;

function cache(): AnswerCache<unknown, { partial: boolean }> {
  // UTF-16: two bytes a character of the answer's JSON.
  kept ??= new AnswerCache(config.pageCacheMb * 2 ** 20, (a) => (a.partial ? null : JSON.stringify(a).length * 2));
  return kept;
}

/** The resource's state, when its engine names one (its table and write version). */
function stateOf(r: Resource): string | undefined {
  const { table, version } = r as Resource & { table?: string; version?: number };
  return table === undefined || version === undefined ? undefined : `${r.id}\0${table}:${version}`;
}

/** `read`'s answer to `question` (the action and everything it was asked) on `r` as it was
 *  looked up for this request, from memory when the same was answered in the same state. */
export async function keptResult<T extends { partial: boolean }>(r: Resource, question: unknown, read: () => Promise<T>): Promise<T> {
  const state = stateOf(r);
  if (state === undefined) return read();
  const hit = cache().get(state, question);
  if (hit) return hit as T;
  const answer = await read();
  cache().keep(state, question, answer);
  return answer;
}
