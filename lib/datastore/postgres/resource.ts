// What the PostgreSQL engine's parts share: a resource as the catalog holds it (its table's
// generated name, the column each field lives in, its write version), and anything that can run
// a query (a pool, or the client of a transaction).
import type pg from "pg";
import type { StoredResource } from "../catalog-row";

export { ID_FIELD, type StoredField } from "../catalog-row";

/** A resource with what the engine needs to build SQL for it (../catalog-row.ts); its table
 *  lives in the engine's schema. */
export type PgResource = StoredResource & {
  /** An `as_of` read's rows (history.ts atVersion): a subquery read in place of the table. */
  source?: string;
};

/** The rows a read reads: the table, or at an `as_of` version the subquery history.ts made. */
export function source(r: PgResource): string {
  return r.source ?? quoteIdent(r.table);
}

/** A pool or a checked-out client: anything with pg's query(). */
export type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** A quoted identifier. Only for names the catalog generated (`ds_…`, `cN`, the schema). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
