// What the PostgreSQL engine's parts share: a resource as the catalog holds it (its table's
// generated name, the column each field lives in, its write version), and anything that can run
// a query (a pool, or the client of a transaction).
import type pg from "pg";
import type { Field, LearnedIndex, Resource } from "../engine";

export interface StoredField extends Field {
  /** The generated column (`c1`, `c2`, …) the field lives in; never a name from a request. */
  column: string;
}

/** A resource with what the engine needs to build SQL for it. */
export interface PgResource extends Resource {
  importIndexes: string[][];
  learnedIndexes: LearnedIndex[];
  /** The generated table name (`ds_<hex>`), in the engine's schema. */
  table: string;
  columns: Map<string, StoredField>;
  nextColumn: number;
  /** Goes up with every write to the resource's rows or fields (in the same transaction). */
  version: number;
}

export const ID_FIELD: StoredField = { id: "_id", type: "int8", column: "_id" };

/** A pool or a checked-out client: anything with pg's query(). */
export type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** A quoted identifier. Only for names the catalog generated (`ds_…`, `cN`, the schema). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
