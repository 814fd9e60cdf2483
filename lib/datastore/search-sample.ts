// datastore_search's `sample` (an extension): about n of the matching rows, spread evenly through
// the whole match in `_id` order, and the match's exact total. The rows are the spread sample's
// (spread-sample.ts) over the table's `_id` extent, picking as many ids as make about n matches
// on average. When the match is small (its `_id`s cost little to read) or so sparse in the table
// that this takes too many picks, the same spread pick over the positions of the match's own
// `_id`s: exactly n rows. Deterministic: the picks depend only on the table's `_id`s and the
// match, so both engines answer the same rows for the same data. Written with engine searches alone.
import { config } from "../config";
import type { DatastoreEngine, Resource, SearchOutput, SearchQuery, SortClause } from "./engine";
import type { ErrorBag } from "./errors";
import { spreadIds } from "./spread-sample";
import { asBool, isUnset, type Params } from "./validate";

/** Ids the extent pick may list (one index lookup each); past them the match's own `_id`s are
 *  read instead, fewer than n × extent / MAX_PICKS of them. */
export const MAX_PICKS = 100_000;
/** A match of at most this many times n rows has its `_id`s read (few: cheap to read). */
const FEW_PER_ROW = 4;

const BY_ID: SortClause = { field: "_id", desc: false, nullsFirst: false };

/** `sample` as sent: undefined when absent; 409s on `sample` for a bad value or a parameter it
 *  cannot go with (the sample spans the whole match in `_id` order, and says how many rows). */
export function parseSample(params: Params, bag: ErrorBag): number | undefined {
  if (isUnset(params.sample)) return undefined;
  const v = params.sample;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\+?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    bag.add("sample", "Must be a positive integer");
    return undefined;
  }
  const set = (key: string) => !isUnset(params[key]);
  if (set("limit")) bag.add("sample", "sample and limit cannot both be given: sample says how many rows");
  if (set("offset")) bag.add("sample", "sample and offset cannot both be given: the sample spans the whole match");
  if (asBool(params.distinct, false)) bag.add("sample", "sample and distinct cannot both be given");
  if (asBool(params.include_next_page, false)) bag.add("sample", "a sample has no next page");
  if (set("sort") && !idOrderOnly(params.sort)) bag.add("sample", "a sample comes in _id order: sort may only be _id");
  // Clamped as `limit` is.
  return Math.min(n, config.limitMax);
}

/** True for a sort of `_id` ascending alone ("_id", "_id asc", ["\"_id\""]). */
function idOrderOnly(sort: unknown): boolean {
  const list = Array.isArray(sort) ? sort : [sort];
  const clauses = list.flatMap((s) => (typeof s === "string" ? s.split(",") : [null])).filter((s) => s === null || s.trim() !== "");
  return clauses.every((s) => s !== null && /^\s*("_id"|_id)(\s+asc)?\s*$/i.test(s));
}

/** Which `_id`s to read for n rows of a match of `total` rows in a table whose `_id`s run from
 *  `lo` to `hi`: a spread pick over that extent, or "positions" when the match is small or the pick
 *  would take more than MAX_PICKS ids (then pick over the match's positions). */
export function extentPicks(lo: number, hi: number, total: number, n: number): number[] | "positions" {
  const picks = Math.ceil((n * (hi - lo + 1)) / total);
  if (total <= FEW_PER_ROW * n || picks > MAX_PICKS) return "positions";
  return spreadIds(lo, hi, picks) ?? "positions";
}

/** At most n of `rows` (in `_id` order), evenly apart: the extent pick makes about n matches. */
export function thin<T>(rows: T[], n: number): T[] {
  if (rows.length <= n) return rows;
  return Array.from({ length: n }, (_, i) => rows[Math.floor((i * rows.length) / n)]);
}

/** The search's sample of n rows (`query` as bindSearch made it; its sort, page and encoding
 *  are replaced), with its exact total. */
export async function sampleSearch(engine: DatastoreEngine, r: Resource, query: SearchQuery, n: number): Promise<SearchOutput> {
  const base: SearchQuery = { ...query, sort: [BY_ID], offset: 0, distinct: false, lastId: false, encode: undefined, totalEstimationThreshold: undefined, includeTotal: false };
  const ids: SearchQuery = { ...base, columns: ["_id"] };
  const counted = await engine.search(r, { ...ids, limit: 0, includeTotal: true });
  const total = counted.total ?? 0;
  const answer = (out: SearchOutput, rows = out.rows): SearchOutput => ({ rows, total, totalEstimated: false, ...(out.readAt ? { readAt: out.readAt } : {}) });
  if (total <= n) return answer(await engine.search(r, { ...base, limit: n }));

  // The table's extent, not the match's: its ends are two lookups, where the match's first or
  // last row may lie past a long run of rows that do not match.
  const end = (desc: boolean) => engine.search(r, { ...ids, filters: [], fts: [], sort: [{ ...BY_ID, desc }], limit: 1 });
  const [first, last] = [await end(false), await end(true)];
  // Rows deleted between the reads: nothing left to spread over.
  if (!first.rows.length || !last.rows.length) return answer(counted, []);
  let picks = extentPicks(Number(first.rows[0][0]), Number(last.rows[0][0]), total, n);
  if (picks === "positions") {
    const all = (await engine.search(r, { ...ids, limit: total })).rows;
    picks = (spreadIds(0, all.length - 1, n) ?? all.map((_, i) => i)).map((i) => Number(all[i][0]));
  }
  const out = await engine.search(r, { ...base, filters: [...base.filters, { op: "in", field: "_id", values: picks }], limit: picks.length });
  return answer(out, thin(out.rows, n));
}
