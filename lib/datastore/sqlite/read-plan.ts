// A search as SQL: the page statement (columns, FROM, WHERE, ORDER BY, LIMIT/OFFSET) and how
// its values decode; deep pages in `_id` order seek instead of skipping. (Best-first pages
// over full text alone take the ranked lists of ranked.ts instead.)
import { column } from "../catalog-row";
import type { SearchQuery } from "../engine";
import { fromStorage, isArrayType, storedAsIs, type Stored } from "../types";
import { ID_FIELD, type Internal, type StoredField } from "./catalog";
import type { Conn } from "./connection";
import { quoteIdent as q } from "./sql";
import { Where, bm25ToRank } from "./where";
import { inIdOrderAlready, pastIdAt } from "./history";

export interface ReadPlan {
  where: Where;
  select: string[];
  decoders: ((v: Stored) => unknown)[];
  /** Every column's value is its stored one: rows need no decoding. */
  asIs: boolean;
  from: string;
  cond: string;
  order: string[];
  params: unknown[];
  offset: number;
}

const same = (v: Stored) => v;

export function planSearch(c: Conn, r: Internal, query: SearchQuery): ReadPlan {
  const where = new Where(r);
  for (const f of query.filters) where.filter(f);
  where.fullText(query.fts);
  const ranks = where.ranks;
  const select: string[] = [];
  const decoders: ((v: Stored) => unknown)[] = [];
  for (const name of query.columns) {
    const rank = ranks.get(name);
    if (rank !== undefined) {
      select.push(rank);
      decoders.push((v) => bm25ToRank(v as number | null));
    } else {
      const f = column(r, name);
      select.push(`t.${q(f.column)}`);
      decoders.push(f === ID_FIELD || storedAsIs(f.type) ? same : (v) => fromStorage(f.type, v));
    }
  }
  // Keyset paging reads the `_id` of the page's last row, asked for or not (the last column).
  if (query.lastId) {
    select.push("t._id");
    decoders.push(same);
  }
  const order: string[] = [];
  for (const s of query.sort) {
    const rank = ranks.get(s.field);
    if (rank !== undefined) {
      order.push(`${rank} ${s.desc ? "ASC" : "DESC"}`); // raw bm25: lower is better
      continue;
    }
    const f = column(r, s.field);
    const col = isArrayType(f.type) ? `ds_array_key(t.${q(f.column)})` : `t.${q(f.column)}`;
    // SQLite sorts NULLs first ascending, PostgreSQL last. An explicit NULLS clause keeps
    // SQLite from reading an index in order, so it is left out when it changes nothing.
    const natural = s.nullsFirst === !s.desc;
    const nulls = natural || !mayHoldNulls(c, r, f) ? "" : ` NULLS ${s.nullsFirst ? "FIRST" : "LAST"}`;
    order.push(`${col} ${s.desc ? "DESC" : "ASC"}${nulls}`);
  }
  // A past version's rows come from a view already in `_id` order (history.ts): ordering them
  // again would sort every row for each page.
  if (inIdOrderAlready(r) && query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc) order.length = 0;
  const from = where.ftsJoin ? `${q(r.table)} AS t ${where.ftsJoin}` : `${q(r.table)} AS t`;
  // The page query may seek instead of skipping; counts use `where` as it stands.
  const seekFrom = denseOffsetStart(c, r, query, where);
  const cond = seekFrom === null ? where.sql() : `${where.sql()} AND t._id >= ?`;
  const params = seekFrom === null ? where.params : [...where.params, seekFrom];
  const offset = seekFrom === null ? query.offset : 0;
  return { where, from, cond, params, select, decoders, asIs: decoders.every((d) => d === same), order, offset };
}

export function pageSql(p: ReadPlan, distinct: boolean): string {
  return (
    `SELECT ${distinct ? "DISTINCT " : ""}${p.select.join(", ")} FROM ${p.from} WHERE ${p.cond}` +
    (p.order.length ? ` ORDER BY ${p.order.join(", ")}` : "") +
    " LIMIT ? OFFSET ?"
  );
}

/** False when an index on the column proves it holds no NULL (one index probe, not a scan). */
function mayHoldNulls(c: Conn, r: Internal, f: StoredField): boolean {
  if (f === ID_FIELD) return false;
  const indexed = r.primaryKey[0] === f.id || r.indexes.some((ix) => ix[0] === f.id) || r.learnedIndexes.some((ix) => ix.fields[0] === f.id);
  if (!indexed) return true;
  return c.cache.get(`SELECT 1 FROM ${q(r.table)} WHERE ${q(f.column)} IS NULL LIMIT 1`).get() !== undefined;
}

/**
 * Deep pages in `_id` order without filters: when no row was ever deleted out of the middle
 * (`_id`s are dense), row N is `_id = min + N`, so OFFSET becomes an index seek (a past
 * version's: history.ts pastIdAt).
 */
function denseOffsetStart(c: Conn, r: Internal, query: SearchQuery, where: Where): number | null {
  const byId = query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc;
  if (query.offset === 0 || !byId || query.distinct || where.parts.length || where.ftsJoin) return null;
  if (inIdOrderAlready(r)) return pastIdAt(c, r, query.offset);
  // Two subqueries: SQLite answers a lone min() or max() from the b-tree's ends, not both at once.
  const { lo, hi } = c.cache.get(`SELECT (SELECT min(_id) FROM ${q(r.table)}) AS lo, (SELECT max(_id) FROM ${q(r.table)}) AS hi`).get() as {
    lo: number | null;
    hi: number | null;
  };
  if (lo === null || hi === null || hi - lo + 1 !== r.rowCount) return null;
  return lo + query.offset;
}

/** True when the rows come in plain `_id` order (no full text, not distinct): such a search
 *  can be read by keyset, or by walking the table. */
export function inIdOrder(query: SearchQuery): boolean {
  return query.sort.length === 1 && query.sort[0].field === "_id" && !query.distinct && query.fts.length === 0;
}
