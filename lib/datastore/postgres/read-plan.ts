// A search as SQL on PostgreSQL: the page statement (columns, WHERE, ORDER BY, LIMIT/OFFSET)
// and how each column's value decodes. CKAN's own statement shape (backend/postgres.py), so the
// page is what CKAN would run; the values come back as the SQLite engine answers them.
import { column } from "../catalog-row";
import type { SearchQuery } from "../engine";
import { quoteIdent as q, source, type PgResource, type StoredField } from "./resource";
import { PgWhere } from "./where";

export interface ReadPlan {
  where: PgWhere;
  /** Output expressions, in `columns` order (then `_id` with `lastId`). */
  select: string[];
  /** The output expressions alone (what DISTINCT is over). */
  output: string[];
  decoders: ((v: unknown) => unknown)[];
  order: string[];
  /** DISTINCT as GROUP BY the output (ordered by columns it does not hold). */
  grouped: boolean;
  /** The WHERE values, then nothing else: LIMIT and OFFSET are bound after them. */
  params: unknown[];
}

/** A field by id, `_id` included; 409 on `field` for one the resource does not have. */
const same = (v: unknown) => v;
const parseJson = (v: unknown) => (v === null ? null : (JSON.parse(v as string) as unknown));

/** A column as selected: json as its text (no equality on json, which DISTINCT needs), parsed here. */
export function selectColumn(f: StoredField): { sql: string; decode: (v: unknown) => unknown } {
  const col = `t.${q(f.column)}`;
  return f.type === "json" ? { sql: `${col}::text`, decode: parseJson } : { sql: col, decode: same };
}

/** A column as ordered: json by its text, as SQLite orders its stored JSON text. */
export function orderColumn(f: StoredField): string {
  return f.type === "json" ? `t.${q(f.column)}::text` : `t.${q(f.column)}`;
}

/** The WHERE of a search: its filters and full-text conditions. */
export function searchWhere(r: PgResource, query: Pick<SearchQuery, "filters" | "fts">, params: unknown[] = []): PgWhere {
  const where = new PgWhere(r, params);
  for (const f of query.filters) where.filter(f);
  where.fullText(query.fts);
  return where;
}

export function planSearch(r: PgResource, query: SearchQuery): ReadPlan {
  const where = searchWhere(r, query);
  const select: string[] = [];
  const decoders: ((v: unknown) => unknown)[] = [];
  for (const name of query.columns) {
    const rank = where.ranks.get(name);
    if (rank !== undefined) {
      select.push(rank);
      decoders.push(same);
    } else {
      const c = selectColumn(column(r, name));
      select.push(c.sql);
      decoders.push(c.decode);
    }
  }
  const output = [...select];
  // Keyset paging reads the `_id` of the page's last row, asked for or not (the last column).
  if (query.lastId) {
    select.push("t._id");
    decoders.push(same);
  }
  const order: string[] = [];
  let ranked = false;
  let grouped = false;
  for (const s of query.sort) {
    const rank = where.ranks.get(s.field);
    let expr = rank ?? orderColumn(column(r, s.field));
    ranked ||= rank !== undefined;
    if (query.distinct && !output.includes(expr)) {
      // PostgreSQL orders DISTINCT rows only by their own columns; SQLite orders them by any
      // row's value of another. The rows are grouped instead, ordered by the group's first value.
      grouped = true;
      expr = `${s.desc ? "max" : "min"}(${expr})`;
    }
    // PostgreSQL's default: NULLs last ascending, first descending. Said only when it differs,
    // so an index still gives the order.
    const nulls = s.nullsFirst === s.desc ? "" : ` NULLS ${s.nullsFirst ? "FIRST" : "LAST"}`;
    order.push(`${expr} ${s.desc ? "DESC" : "ASC"}${nulls}`);
  }
  // Rows of equal rank in `_id` order (reversed with the worst first), as ranked.ts's lists and
  // the SQLite engine's give them: pages of a ranked search do not overlap.
  if (ranked && !query.distinct && !query.sort.some((s) => s.field === "_id")) order.push(query.sort[0].desc ? "t._id" : "t._id DESC");
  return { where, select, output, decoders, order, grouped, params: where.params };
}

/** The page statement; LIMIT and OFFSET are the two parameters after the plan's. `gate`: a
 *  condition on no row (one-statement.ts's check), which PostgreSQL tests once, before reading. */
export function pageSql(r: PgResource, p: ReadPlan, distinct: boolean, gate?: string): string {
  const n = p.params.length;
  const where = gate ? `${gate} AND (${p.where.sql()})` : p.where.sql();
  return (
    `SELECT ${distinct && !p.grouped ? "DISTINCT " : ""}${p.select.join(", ") || "1"} FROM ${source(r)} AS t WHERE ${where}` +
    (p.grouped ? ` GROUP BY ${p.output.join(", ")}` : "") +
    (p.order.length ? ` ORDER BY ${p.order.join(", ")}` : "") +
    ` LIMIT $${n + 1} OFFSET $${n + 2}`
  );
}

/** LIMIT's value: a negative limit (a dump of everything) is no limit. */
export function limitParam(limit: number): number | null {
  return limit < 0 ? null : limit;
}

/** True when the rows come in plain `_id` order (no full text, not distinct): such a search
 *  can be read by keyset. */
export function inIdOrder(query: SearchQuery): boolean {
  return query.sort.length === 1 && query.sort[0].field === "_id" && !query.distinct && query.fts.length === 0;
}
