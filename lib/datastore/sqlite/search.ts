// Runs a search on one connection: the page (as rows, or straight into JSON bytes), then the
// total; and the same plan as a stream of row chunks for dumps.
import { config } from "../../config";
import type { SearchOutput, SearchQuery } from "../engine";
import { RecordsWriter } from "../formats";
import type { Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { count, countPlan } from "./count";
import { within } from "./deadline";
import { bestFirstPage, bestFirstRank } from "./ranked";
import { pageSql, planSearch } from "./read-plan";

/** `keepLists` false: the rows may be a transaction's uncommitted ones, so a ranked list built
 *  from them is used once and not kept (its version number could come back with other rows). */
export function search(c: Conn, r: Internal, query: SearchQuery, keepLists = true): SearchOutput {
  const plan = planSearch(c, r, query);
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
  return within(c.db, config.queryTimeoutMs, () => {
    const stmt = c.cache.get(sql, "raw");
    const decode = (row: Stored[]) => row.map((v, i) => decoders[i](v));
    let out: SearchOutput;
    let last: Stored[] | undefined;
    if (query.encode) {
      // Row by row into JSON bytes: a 32,000-row page is never held as rows.
      const writer = new RecordsWriter(query.encode.format, query.encode.columns);
      for (const row of stmt.iterate(...params, query.limit, offset) as IterableIterator<Stored[]>) {
        writer.add(decode(query.lastId ? row.slice(0, -1) : row));
        last = row;
      }
      out = { rows: [], records: writer.finish() };
    } else {
      const raw = stmt.all(...params, query.limit, offset) as Stored[][];
      last = raw.at(-1);
      out = { rows: raw.map((row) => decode(query.lastId ? row.slice(0, -1) : row)) };
    }
    if (query.lastId && last) out.lastId = Number(last.at(-1));
    if (query.includeTotal) {
      const { total, estimated } = count(c, r, plan, query);
      out.total = total;
      out.totalEstimated = estimated;
    }
    return out;
  });
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

/** Rows of the search in chunks, from `c`'s snapshot, with no time limit (dumps take as long as they take). */
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
