// Runs a search on one connection (a client inside a transaction: one snapshot for the page and
// its total): the page as rows, or straight into JSON bytes, then the total; and the same
// statement read through a cursor in chunks for dumps. Most searches need no transaction and
// read in one statement instead (inOneStatement, one-statement.ts).
import type { SearchOutput, SearchQuery } from "../engine";
import type { ReadLimits } from "../read-limits";
import { encodeRecords, RecordsWriter } from "../formats";
import { count, countPlan } from "./count";
import { bestFirstPage, bestFirstRank, type RankedLists } from "./ranked";
import { limitParam, pageSql, planSearch, type ReadPlan } from "./read-plan";
import { idExtent } from "./spread-sample";
import type { PgResource, Queryable } from "./resource";

/** `lists`: where best-first pages keep their ranked lists (the read pool's); without them (in a
 *  write transaction) every match is ranked by the page statement itself. `plan`: the one the
 *  read was judged by (read-cost.ts). */
export async function search(
  db: Queryable,
  r: PgResource,
  query: SearchQuery,
  limits: ReadLimits,
  lists?: RankedLists,
  plan = planSearch(r, query),
): Promise<SearchOutput> {
  const rank = lists ? bestFirstRank(plan.where, query) : null;
  if (rank !== null) {
    const page = await bestFirstPage(db, r, plan.where, rank, query, lists);
    const out: SearchOutput = { rows: page.rows };
    if (query.encode) {
      out.records = encodeRecords(query.encode.format, query.encode.columns, page.rows);
      out.rows = [];
    }
    if (query.includeTotal) Object.assign(out, { total: page.total, totalEstimated: false });
    return out;
  }
  const seek = await denseOffsetStart(db, r, query, plan);
  const page = seek === null ? plan : planSearch(r, { ...query, filters: [{ op: "gte", field: "_id", value: seek }] });
  const { rows } = await db.query<unknown[]>({
    text: pageSql(r, page, query.distinct),
    values: [...page.params, limitParam(query.limit), seek === null ? query.offset : 0],
    rowMode: "array",
  });
  const out = pageOutput(plan, query, rows);
  if (query.includeTotal) {
    const told = totalFromPage(query, rows.length);
    const { total, estimated } = told !== undefined ? { total: told, estimated: false } : await count(db, r, plan, query, limits.countBudgetMs);
    out.total = total;
    out.totalEstimated = estimated;
  }
  return out;
}

/** The page's rows decoded, or encoded straight into the answer's bytes; with `lastId`, the
 *  `_id` of its last row (the statement's last column). */
export function pageOutput(plan: ReadPlan, query: SearchQuery, rows: unknown[][]): SearchOutput {
  const { decoders } = plan;
  const width = query.lastId ? decoders.length - 1 : decoders.length;
  const decode = (row: unknown[]) => {
    const out = new Array<unknown>(width);
    for (let i = 0; i < width; i++) out[i] = decoders[i](row[i]);
    return out;
  };
  const out: SearchOutput = { rows: [] };
  if (query.encode) {
    const writer = new RecordsWriter(query.encode.format, query.encode.columns);
    for (const row of rows) writer.add(decode(row));
    out.records = writer.finish();
  } else out.rows = rows.map(decode);
  if (query.lastId && rows.length) out.lastId = Number(rows[rows.length - 1][width]);
  return out;
}

/** The total when the page tells it: a page short of its limit holds the last match, so its
 *  end is the total and nothing is counted. Else undefined. */
export function totalFromPage(query: SearchQuery, rows: number): number | undefined {
  const short = query.limit >= 0 && rows < query.limit && (rows > 0 || query.offset === 0);
  return short ? query.offset + rows : undefined;
}

/**
 * Whether a search reads in one statement (one-statement.ts), or needs several over one
 * snapshot, in a transaction: a best-first page (its ranked list, then its rows), a deep page
 * in `_id` order (the ids' extent, then a seek), a total counted within a budget before its
 * estimate (total_estimation_threshold).
 */
export function inOneStatement(r: PgResource, query: SearchQuery, plan: ReadPlan): boolean {
  if (bestFirstRank(plan.where, query) !== null || denseSeekCandidate(query, plan)) return false;
  return !(query.includeTotal && query.totalEstimationThreshold !== undefined && !("rows" in countPlan(r, plan, query)));
}

function denseSeekCandidate(query: SearchQuery, plan: ReadPlan): boolean {
  const byId = query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc;
  return query.offset >= DENSE_SEEK_MIN_OFFSET && byId && !query.distinct && plan.where.empty;
}

/**
 * Deep pages in `_id` order without conditions: when no row was ever deleted out of the middle
 * (`_id`s are dense), row N is `_id = min + N`, so OFFSET becomes an index seek (as the SQLite
 * engine pages). The `_id` the page starts at, or null.
 */
async function denseOffsetStart(db: Queryable, r: PgResource, query: SearchQuery, plan: ReadPlan): Promise<number | null> {
  // A past version's rows are not the table's: its `_id`s are not dense by its extent.
  if (r.source !== undefined || !denseSeekCandidate(query, plan)) return null;
  const extent = await idExtent(db, r);
  if (extent === null || extent[1] - extent[0] + 1 !== r.rowCount) return null;
  return extent[0] + query.offset;
}

/** The statements an exact search runs (page, then count if needed): the benchmark's floor. */
export function searchStatements(r: PgResource, query: SearchQuery): { sql: string; params: unknown[] }[] {
  const plan = planSearch(r, query);
  const out = [{ sql: pageSql(r, plan, query.distinct), params: [...plan.params, limitParam(query.limit), query.offset] }];
  const how = countPlan(r, plan, query);
  if (query.includeTotal && !("rows" in how)) out.push({ sql: how.sql, params: how.params });
  return out;
}

let cursors = 0;

/** Offsets below this are read by OFFSET: skipping them costs less than the extent's query. */
const DENSE_SEEK_MIN_OFFSET = 5_000;

/**
 * The search's rows in chunks through a cursor, from the snapshot of `db`'s transaction (which
 * the caller holds open until the last chunk, with no statement_timeout: a sorted dump's first
 * FETCH sorts every match). Only one chunk is held at a time.
 */
export async function* cursorChunks(db: Queryable, r: PgResource, query: SearchQuery, chunkRows: number): AsyncGenerator<unknown[][]> {
  const plan = planSearch(r, { ...query, lastId: false });
  const name = `dump_${++cursors}`;
  const { decoders } = plan;
  await db.query({ text: `DECLARE ${name} NO SCROLL CURSOR FOR ${pageSql(r, plan, query.distinct)}`, values: [...plan.params, limitParam(query.limit), query.offset] });
  try {
    for (;;) {
      const { rows } = await db.query<unknown[]>({ text: `FETCH ${chunkRows} FROM ${name}`, rowMode: "array" });
      if (rows.length === 0) return;
      yield rows.map((row) => row.map((v, i) => decoders[i](v)));
      if (rows.length < chunkRows) return;
    }
  } finally {
    await db.query(`CLOSE ${name}`).catch(() => undefined);
  }
}
