// Runs a search on one connection (a client inside a transaction: one snapshot for the page and
// its total): the page as rows, or straight into JSON bytes, then the total; and the same
// statement read through a cursor in chunks for dumps.
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
  if (query.includeTotal) {
    // A page short of its limit holds the last match: its end is the total, and nothing is counted.
    const short = query.limit >= 0 && rows.length < query.limit && (rows.length > 0 || query.offset === 0);
    const { total, estimated } = short ? { total: query.offset + rows.length, estimated: false } : await count(db, r, plan, query, limits.countBudgetMs);
    out.total = total;
    out.totalEstimated = estimated;
  }
  return out;
}

/**
 * Deep pages in `_id` order without conditions: when no row was ever deleted out of the middle
 * (`_id`s are dense), row N is `_id = min + N`, so OFFSET becomes an index seek (as the SQLite
 * engine pages). The `_id` the page starts at, or null.
 */
async function denseOffsetStart(db: Queryable, r: PgResource, query: SearchQuery, plan: ReadPlan): Promise<number | null> {
  const byId = query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc;
  if (query.offset < DENSE_SEEK_MIN_OFFSET || !byId || query.distinct || !plan.where.empty) return null;
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
