// Runs a search on one connection: the page (as rows, or straight into JSON bytes), then the
// total; and the same plan as a stream of row chunks for dumps.
import type { SearchOutput, SearchQuery } from "../engine";
import { RecordsWriter } from "../formats";
import type { Stored } from "../types";
import * as catalog from "./catalog";
import { attachFor } from "./groups";
import { atVersion } from "./history";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import type { AggregatePart } from "./aggregate";
import { count, countKept, countPlan, partCount } from "./count";
import { within } from "./deadline";
import { bestFirstPage, bestFirstRank } from "./ranked";
import { idOrderPage } from "./id-scan";
import { keysetPages } from "../keyset";
import { pageSql, planSearch, type ReadPlan } from "./read-plan";

/** Pages up to this many rows are read at once rather than row by row. */
const SMALL_PAGE_ROWS = 1000;

/** `keepLists` false: the rows may be a transaction's uncommitted ones, so a ranked list or a
 *  count made from them is used once and not kept (its version number could come back with other rows).
 *  `plan`: the one the read was judged by (read-cost.ts), in the same snapshot. */
export function search(c: Conn, r: Internal, query: SearchQuery, keepLists = true, plan = planSearch(c, r, query)): SearchOutput {
  const { params, decoders, offset } = plan;
  const sql = pageSql(plan, query.distinct);
  const rank = bestFirstRank(plan.where, query);
  if (rank !== null) {
    const page = bestFirstPage(c, r, plan.where, rank, query, keepLists);
    const out: SearchOutput = { rows: page.rows };
    if (query.encode) {
      const writer = new RecordsWriter(query.encode.format, query.encode.columns);
      for (const row of page.rows) writer.add(row);
      out.rows = [];
      out.records = writer.finish();
    }
    if (query.includeTotal) Object.assign(out, { total: page.total, totalEstimated: false });
    return out;
  }
  return within(c.db, c.limits.queryTimeoutMs, () => {
    const byId = idOrderPage(c, r, plan, query, keepLists);
    // A big page row by row: with `encode`, 32,000 rows go straight into JSON bytes, never held
    // as rows; a small one at once, which costs SQLite's bindings less per row.
    const stmt = c.cache.get(sql, "raw");
    const small = query.limit >= 0 && query.limit <= SMALL_PAGE_ROWS;
    const rows = byId?.rows ?? ((small ? stmt.all(...params, query.limit, offset) : stmt.iterate(...params, query.limit, offset)) as Iterable<Stored[]>);
    const decode = plan.asIs && !query.lastId ? (row: Stored[]) => row : (row: Stored[]) => (query.lastId ? row.slice(0, -1) : row).map((v, i) => decoders[i](v));
    const writer = query.encode ? new RecordsWriter(query.encode.format, query.encode.columns) : null;
    const out: SearchOutput = { rows: [] };
    let last: Stored[] | undefined;
    for (const row of rows) {
      if (writer) writer.add(decode(row));
      else out.rows.push(decode(row));
      last = row;
    }
    if (writer) out.records = writer.finish();
    if (query.lastId && last) out.lastId = Number(last.at(-1));
    if (query.includeTotal) {
      const counted = byId?.total ?? null;
      const { total, estimated } = counted === null ? count(c, r, plan, query, keepLists) : { total: counted, estimated: false };
      out.total = total;
      out.totalEstimated = estimated;
    }
    return out;
  });
}

/**
 * Whether the search's total takes a count of its own that reads rows: not the catalog's row
 * count, an index's count, a ranked list's length, nor one this connection kept. Such a count
 * can be read on another worker beside the page (search-apart.ts). Not for a past version,
 * whose rows come from a view.
 */
export function countsApart(c: Conn, r: Internal, query: SearchQuery, plan = planSearch(c, r, query)): boolean {
  if (!query.includeTotal || query.asOf !== undefined || bestFirstRank(plan.where, query) !== null) return false;
  const how = countPlan(c, r, plan, query);
  if ("rows" in how || !how.budgeted) return false;
  return query.totalEstimationThreshold != null || !countKept(c, r, how.sql, how.params);
}

/** The search's total alone, as `search` counts it; or with `part`, the exact count of the
 *  matches in that share of the table's `_id`s (parts add up). Under the query timeout. */
export function searchTotal(c: Conn, r: Internal, query: SearchQuery, part?: AggregatePart, plan = planSearch(c, r, query)): { total: number; estimated: boolean } {
  return within(c.db, c.limits.queryTimeoutMs, () => (part ? { total: partCount(c, r, plan, query, part), estimated: false } : count(c, r, plan, query)));
}

/** The statements an exact search runs without shortcuts (page, then count if needed): the
 *  benchmark's raw-SQL floor (for a best-first page, a plain ORDER BY rank over every match). */
export function searchStatements(c: Conn, r: Internal, query: SearchQuery): { sql: string; params: unknown[] }[] {
  const plan = planSearch(c, r, query);
  const out = [{ sql: pageSql(plan, query.distinct), params: [...plan.params, query.limit, plan.offset] }];
  const how = countPlan(c, r, plan, query);
  if (query.includeTotal && !("rows" in how)) out.push({ sql: how.sql, params: how.params });
  return out;
}

/** Rows of the search in chunks, from `c`'s snapshot (one statement), with no time limit
 *  (dumps take as long as they take). See keysetChunks for searches in `_id` order. */
export function* searchChunks(c: Conn, r: Internal, query: SearchQuery, chunkRows: number): Generator<unknown[][]> {
  const plan = planSearch(c, r, query);
  const limit = query.limit < 0 ? -1 : query.limit;
  const it = c.db.prepare(pageSql(plan, query.distinct)).raw(true).iterate(...plan.params, limit, plan.offset) as IterableIterator<Stored[]>;
  let chunk: unknown[][] = [];
  for (const row of it) {
    chunk.push(row.map((v, i) => plan.decoders[i](v)));
    if (chunk.length >= chunkRows) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

/**
 * Rows of a search in `_id` order (inIdOrder), chunk by chunk by keyset: each chunk is read in
 * its own short transaction as `_id` past the last one sent, so a slow reader holds no snapshot
 * open and every row is read once, the last chunk as cheaply as the first (CKAN 2.12's dump
 * walks by next_page too). Rows written meanwhile ahead of the walk are included.
 */
export function* keysetChunks(c: Conn, resourceId: string, query: SearchQuery, chunkRows: number): Generator<unknown[][]> {
  const pages = keysetPages(query, chunkRows);
  for (let step = pages.next(); !step.done; ) {
    const page = step.value;
    let raw: Stored[][];
    let decoders: ReadPlan["decoders"];
    attachFor(c, [resourceId]); // before the transaction (groups.ts)
    c.db.exec("BEGIN");
    try {
      const plan = planSearch(c, atVersion(c, catalog.mustGetForRead(c, resourceId), page), page);
      decoders = plan.decoders;
      raw = c.cache.get(pageSql(plan, false), "raw").all(...plan.params, page.limit, plan.offset) as Stored[][];
    } finally {
      c.db.exec("COMMIT");
    }
    if (raw.length === 0) return;
    yield raw.map((row) => row.slice(0, -1).map((v, i) => decoders[i](v)));
    step = pages.next({ rows: raw.length, lastId: Number(raw[raw.length - 1].at(-1)) });
  }
}
