// Best-first pages (a full-text search ordered by rank alone), as the SQLite engine serves them
// (sqlite/ranked.ts): every match is ranked, as CKAN ranks every match, once per (resource
// version, query), into a list of ids in rank order kept by the read pool, so paging through a
// result, or asking the same search again, reads only the page's rows. Any write to the
// resource raises its version, so a list never outlives the rows it ranked.
import type { SearchQuery } from "../engine";
import { column, selectColumn } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import type { PgWhere } from "./where";

interface RankedList {
  ids: Float64Array;
  ranks: Float64Array; // ts_rank as PostgreSQL prints it (a real), best first
}

/** Ids held in lists; a list longer than this is used once and not kept. */
const MAX_CACHED_IDS = 1_000_000;

/** Ranked lists, least recently used first out. */
export class RankedLists {
  private lists = new Map<string, RankedList>();
  private held = 0;

  has(key: string): boolean {
    return this.lists.has(key);
  }

  async get(key: string, make: () => Promise<RankedList>): Promise<RankedList> {
    const hit = this.lists.get(key);
    if (hit) {
      this.lists.delete(key); // most recently used last
      this.lists.set(key, hit);
      return hit;
    }
    const list = await make();
    if (list.ids.length > MAX_CACHED_IDS || this.lists.has(key)) return list;
    while (this.held + list.ids.length > MAX_CACHED_IDS) {
      const [oldest, old] = this.lists.entries().next().value!;
      this.lists.delete(oldest);
      this.held -= old.ids.length;
    }
    this.lists.set(key, list);
    this.held += list.ids.length;
    return list;
  }
}

/**
 * The rank expression when `query` is best-first over full text alone (no filters, no empty
 * query, not distinct, ordered by one rank expression that every rank column shares); else
 * null, and the general plan orders every match by rank.
 */
export function bestFirstRank(where: PgWhere, query: SearchQuery): string | null {
  if (query.distinct || where.parts.length > 0 || where.fts.length === 0 || where.fts.includes("FALSE") || query.sort.length === 0) return null;
  const expr = where.ranks.get(query.sort[0].field);
  if (!expr?.startsWith("ts_rank(")) return null;
  if (query.sort.some((s) => where.ranks.get(s.field) !== expr || s.desc !== query.sort[0].desc)) return null;
  for (const name of query.columns) {
    const other = where.ranks.get(name);
    if (other !== undefined && other !== expr) return null;
  }
  return expr;
}

/** Where a list is kept: the resource's version, its conditions and their values, the rank. */
export function listKey(r: PgResource, where: PgWhere, rank: string): string {
  return `${r.table}\0${r.version}\0${rank}\0${where.sql()}\0${JSON.stringify(where.params)}`;
}

function numbers(csv: string | null): Float64Array {
  return csv ? Float64Array.from(csv.split(","), Number) : new Float64Array(0);
}

/** Every match's id and rank, best first, equal ranks in `_id` order: one row of two lists. */
async function rankAll(db: Queryable, r: PgResource, where: PgWhere, rank: string): Promise<RankedList> {
  const sql =
    `SELECT string_agg(id::text, ',' ORDER BY s DESC, id), string_agg(s::text, ',' ORDER BY s DESC, id) ` +
    `FROM (SELECT t._id AS id, ${rank} AS s FROM ${q(r.table)} AS t WHERE ${where.sql()}) AS m`;
  const { rows } = await db.query<[string | null, string | null]>({ text: sql, values: where.params, rowMode: "array" });
  return { ids: numbers(rows[0][0]), ranks: numbers(rows[0][1]) };
}

/** A best-first page (`desc` false reverses it: worst matches first), and the total. Without
 *  `lists` (inside a write transaction, whose rows may never commit) nothing is kept. */
export async function bestFirstPage(
  db: Queryable,
  r: PgResource,
  where: PgWhere,
  rank: string,
  query: SearchQuery,
  lists?: RankedLists,
): Promise<{ rows: unknown[][]; total: number }> {
  const make = () => rankAll(db, r, where, rank);
  const list = lists ? await lists.get(listKey(r, where, rank), make) : await make();
  const n = list.ids.length;
  const best = query.sort[0].desc; // rank desc = best first
  const from = Math.min(query.offset, n);
  const to = Math.min(n, from + Math.max(0, query.limit < 0 ? n : query.limit));
  const positions: number[] = [];
  for (let i = from; i < to; i++) positions.push(best ? i : n - 1 - i);
  const select: string[] = [];
  const decoders: ((v: unknown, pos: number) => unknown)[] = [];
  for (const name of query.columns) {
    if (where.ranks.has(name)) {
      select.push("NULL");
      decoders.push((_v, pos) => list.ranks[pos]);
    } else {
      const c = selectColumn(column(r, name));
      select.push(c.sql);
      decoders.push((v) => c.decode(v));
    }
  }
  if (positions.length === 0) return { rows: [], total: n };
  const sql = `SELECT ${select.join(", ") || "1"} FROM unnest($1::int8[]) WITH ORDINALITY AS j(id, n) JOIN ${q(r.table)} AS t ON t._id = j.id ORDER BY j.n`;
  const { rows } = await db.query<unknown[]>({ text: sql, values: [positions.map((p) => list.ids[p])], rowMode: "array" });
  return { rows: rows.map((row, i) => row.slice(0, query.columns.length).map((v, k) => decoders[k](v, positions[i]))), total: n };
}
