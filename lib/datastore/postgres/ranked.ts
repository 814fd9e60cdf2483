// Best-first pages (a full-text search ordered by rank alone), as the SQLite engine serves them
// (sqlite/ranked.ts): every match is ranked, as CKAN ranks every match, once per (resource
// version, query), into a list of ids in rank order kept by the read pool, so paging through a
// result, or asking the same search again, reads only the page's rows. Any write to the
// resource raises its version, so a list never outlives the rows it ranked.
import { column } from "../catalog-row";
import type { SearchQuery } from "../engine";
import { RankedLists as Lists, pagePositions, sharedRank, type RankedList } from "../ranked";
import { selectColumn } from "./read-plan";
import { source, type PgResource, type Queryable } from "./resource";
import type { PgWhere } from "./where";

export interface IdRanks extends RankedList {
  ids: Float64Array;
  ranks: Float64Array; // ts_rank as PostgreSQL prints it (a real), best first
}

/** Ranked lists, shared by the read pool's connections. */
export class RankedLists extends Lists<IdRanks> {}

/**
 * The rank expression when `query` is best-first over full text alone (no filters, no empty
 * query, ordered by one ts_rank expression that every rank column shares: ../ranked.ts); else
 * null, and the general plan orders every match by rank.
 */
export function bestFirstRank(where: PgWhere, query: SearchQuery): string | null {
  if (where.parts.length > 0 || where.fts.length === 0 || where.fts.includes(where.FALSE)) return null;
  const expr = sharedRank(where.ranks, query);
  return expr?.startsWith("ts_rank(") ? expr : null;
}

/** Where a list is kept: the resource's version, its conditions and their values, the rank. */
export function listKey(r: PgResource, where: PgWhere, rank: string): string {
  return `${r.table}\0${r.version}\0${r.source ?? ""}\0${rank}\0${where.sql()}\0${JSON.stringify(where.params)}`;
}

function numbers(csv: string | null): Float64Array {
  return csv ? Float64Array.from(csv.split(","), Number) : new Float64Array(0);
}

/** Every match's id and rank, best first, equal ranks in `_id` order: one row of two lists. */
async function rankAll(db: Queryable, r: PgResource, where: PgWhere, rank: string): Promise<IdRanks> {
  const sql =
    `SELECT string_agg(id::text, ',' ORDER BY s DESC, id), string_agg(s::text, ',' ORDER BY s DESC, id) ` +
    `FROM (SELECT t._id AS id, ${rank} AS s FROM ${source(r)} AS t WHERE ${where.sql()}) AS m`;
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
  const key = lists ? listKey(r, where, rank) : "";
  let list = lists?.get(key);
  if (!list) {
    list = await rankAll(db, r, where, rank);
    lists?.keep(key, list);
  }
  const page = rankedPage(r, where, list, query);
  if (page.ids.length === 0) return { rows: [], total: list.ids.length };
  const { rows } = await db.query<unknown[]>({ text: page.sql(), values: [page.ids], rowMode: "array" });
  return { rows: page.decode(rows), total: list.ids.length };
}

/**
 * The statement reading a best-first page's rows from a ranked list: its one value (`ids`, the
 * page's ids in list order) and how its rows decode. `gate`: a condition on no row (as
 * read-plan.ts pageSql's).
 */
export function rankedPage(r: PgResource, where: PgWhere, list: IdRanks, query: SearchQuery): { ids: number[]; sql(gate?: string): string; decode(rows: unknown[][]): unknown[][] } {
  const positions = pagePositions(list.ids.length, query);
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
  return {
    ids: positions.map((p) => list.ids[p]),
    sql: (gate) =>
      `SELECT ${select.join(", ") || "1"} FROM unnest($1::int8[]) WITH ORDINALITY AS j(id, n) JOIN ${source(r)} AS t ON t._id = j.id` +
      `${gate ? ` WHERE ${gate}` : ""} ORDER BY j.n`,
    decode: (rows) => rows.map((row, i) => row.slice(0, query.columns.length).map((v, k) => decoders[k](v, positions[i]))),
  };
}
