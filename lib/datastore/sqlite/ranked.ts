// Best-first pages (a full-text search ordered by rank alone). Every match is ranked, as CKAN
// ranks every match: once per (resource version, query), into a list of ids in rank order
// kept per connection, so paging through a result, or asking the same search again, reads
// only the page's rows. Any write to the resource raises its version, so a list never
// outlives the rows it ranked.
import { column } from "../catalog-row";
import type { SearchQuery } from "../engine";
import { RankedLists, pagePositions, sharedRank, type RankedList } from "../ranked";
import { fromStorage, type Stored } from "../types";
import { ID_FIELD, type Internal } from "./catalog";
import type { Conn } from "./connection";
import { within } from "./deadline";
import { ftsTable } from "./fts-index";
import { quoteIdent as q } from "./sql";
import { Where, bm25ToRank } from "./where";

interface IdRanks extends RankedList {
  ids: Int32Array | Float64Array;
  ranks: Float32Array; // raw bm25, ascending (best first); float4, as CKAN's rank
}

const perConnection = new WeakMap<Conn, RankedLists<IdRanks>>();

/**
 * The rank expression when `query` is best-first over full text alone (no filters, no
 * negations, ordered by one bm25 expression that every rank column shares: ../ranked.ts);
 * else null, and the general plan orders the whole join by rank.
 */
export function bestFirstRank(where: Where, query: SearchQuery): string | null {
  // A past version's matches are one condition of their own (past-fts.ts), ranked already.
  const own = where.pastRanks ? 1 : 0;
  if (where.parts.length > own || (where.ftsMatch === null && !where.pastRanks)) return null;
  const expr = sharedRank(where.ranks, query);
  if (expr === null) return null;
  return expr.startsWith("bm25(") || where.pastRanks?.columns.has(expr) ? expr : null;
}

function listKey(r: Internal, where: Where, rank: string): string {
  return `${r.table}\0${r.version}\0${rank}\0${where.ftsMatch ?? where.pastRanks?.table}`;
}

/** Whether this connection keeps the ranked list already (its pages then cost only their rows). */
export function hasRankedList(c: Conn, r: Internal, where: Where, rank: string): boolean {
  return perConnection.get(c)?.has(listKey(r, where, rank)) ?? false;
}

function rankedList(c: Conn, r: Internal, where: Where, rank: string, keep: boolean): IdRanks {
  let lists = perConnection.get(c);
  if (!lists) perConnection.set(c, (lists = new RankedLists()));
  const key = listKey(r, where, rank);
  const past = where.pastRanks;
  const make = (): IdRanks => {
    if (past) {
      const [ids, scores] = c.db.prepare(`SELECT json_group_array(id), json_group_array(${past.columns.get(rank)}) FROM temp.${q(past.table)}`).raw(true).get() as [string, string];
      return rankOrder(JSON.parse(ids) as number[], JSON.parse(scores) as number[]);
    }
    const match = where.ftsMatch!;
    const fts = q(ftsTable(r.table));
    // Every match with its score in one row of two JSON arrays (in rowid order): cheaper than
    // a row per match, and than SQLite's sort of them. LIMIT -1 keeps the subquery whole, where
    // bm25() may run; the deadline check stops a list that would take too long.
    const sql =
      `SELECT json_group_array(id), json_group_array(s) FROM ` +
      `(SELECT rowid AS id, ${rank} AS s FROM ${fts} WHERE ${fts} MATCH ? AND (rowid % 251 != 0 OR ds_deadline()) LIMIT -1)`;
    const [idsJson, scoresJson] = within(c.db, c.limits.queryTimeoutMs, () => c.cache.get(sql, "raw").get(match) as [string, string]);
    return rankOrder(JSON.parse(idsJson) as number[], JSON.parse(scoresJson) as number[]);
  };
  return keep ? (lists.get(key) ?? lists.keep(key, make())) : make();
}

/**
 * Ids in rank order (raw bm25 ascending), equal scores in the order given (rowid order): a
 * counting sort over the distinct scores, which are few (one per way a row can match).
 */
export function rankOrder(ids: number[], scores: number[]): IdRanks {
  const distinct = Float64Array.from(new Set(scores)).sort();
  const bucket = new Map<number, number>();
  distinct.forEach((score, i) => bucket.set(score, i));
  const start = new Int32Array(distinct.length + 1);
  for (const score of scores) start[bucket.get(score)! + 1]++;
  for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
  const wide = ids.some((id) => id > 0x7fffffff);
  const out = { ids: wide ? new Float64Array(ids.length) : new Int32Array(ids.length), ranks: new Float32Array(ids.length) };
  for (let i = 0; i < ids.length; i++) {
    const at = start[bucket.get(scores[i])!]++;
    out.ids[at] = ids[i];
    out.ranks[at] = scores[i];
  }
  return out;
}

/** A best-first page (`desc` false reverses it: worst matches first), and the total. */
export function bestFirstPage(c: Conn, r: Internal, where: Where, rank: string, query: SearchQuery, keep = true): { rows: unknown[][]; total: number } {
  const list = rankedList(c, r, where, rank, keep);
  const n = list.ids.length;
  const positions = pagePositions(n, query);
  const ids = positions.map((p) => list.ids[p]);
  const select: string[] = [];
  const decoders: ((v: Stored, pos: number) => unknown)[] = [];
  for (const name of query.columns) {
    if (where.ranks.has(name)) {
      select.push("NULL");
      decoders.push((_v, pos) => bm25ToRank(list.ranks[pos]));
    } else {
      const f = column(r, name);
      select.push(`t.${q(f.column)}`);
      decoders.push(f === ID_FIELD ? (v) => v : (v) => fromStorage(f.type, v));
    }
  }
  let raw: Stored[][] = [];
  if (ids.length && where.pastRanks) {
    // A past version's rows come from a view of two parts, each read by `_id` (a join would
    // read the whole view); then put in the list's order.
    const rows = c.db.prepare(`SELECT ${select.join(", ")}, t._id FROM ${q(r.table)} AS t WHERE t._id IN (SELECT value FROM json_each(?))`).raw(true).all(JSON.stringify(ids)) as Stored[][];
    const byId = new Map(rows.map((row) => [Number(row.at(-1)), row.slice(0, -1)]));
    raw = ids.map((id) => byId.get(id)!);
  } else if (ids.length) {
    const sql = `SELECT ${select.join(", ")} FROM json_each(?) AS j JOIN ${q(r.table)} AS t ON t._id = j.value ORDER BY j.key`;
    raw = c.cache.get(sql, "raw").all(JSON.stringify(ids)) as Stored[][];
  }
  return { rows: raw.map((row, i) => row.map((v, k) => decoders[k](v, positions[i]))), total: n };
}
