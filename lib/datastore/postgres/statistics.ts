// What the engine knows about a resource's data beyond its rows: sizes on disk (datastore_info,
// as CKAN reads them) and per-field statistics of a sample (the auto-index rule).
import type { FieldStats, ResourceStats } from "../engine";
import { isArrayType } from "../types";
import { quoteIdent as q, type PgResource, type Queryable, type StoredField } from "./resource";

/** The table's own size, its indexes' (full text's GIN included) and the whole database's.
 *  PostgreSQL keeps these per file: nothing is scanned. */
export async function sizes(db: Queryable, r: PgResource): Promise<ResourceStats> {
  const { rows } = await db.query<[unknown, unknown, unknown]>({
    text: `SELECT coalesce(pg_relation_size(to_regclass($1)), 0)::int8, coalesce(pg_indexes_size(to_regclass($1)), 0)::int8, pg_database_size(current_database())::int8`,
    values: [q(r.table)],
    rowMode: "array",
  });
  const [size, idxSize, dbSize] = rows[0].map(Number);
  return { size, idxSize, dbSize };
}

/** A value's length as the SQLite engine measures it (its stored text: booleans 1 or 0, arrays
 *  as JSON text). */
function lengthOf(f: StoredField): string {
  const col = q(f.column);
  if (f.type === "bool") return `length(${col}::int::text)`;
  if (isArrayType(f.type)) return `length(to_json(${col})::text)`;
  return `length(${col}::text)`;
}

/** Distinct values and average length per field over the first `sampleRows` rows. */
export async function fieldStats(db: Queryable, r: PgResource, sampleRows: number): Promise<FieldStats[]> {
  const fields = [...r.columns.values()];
  const out: FieldStats[] = [];
  // Two figures a field; a SELECT holds at most 1664 of them.
  for (let at = 0; at < fields.length; at += FIELDS_PER_STATEMENT) {
    const some = fields.slice(at, at + FIELDS_PER_STATEMENT);
    const exprs = some.map((f) => `count(DISTINCT ${q(f.column)}${f.type === "json" ? "::text" : ""})::int8, avg(${lengthOf(f)})::float8`).join(", ");
    const { rows } = await db.query<unknown[]>({
      text: `SELECT ${exprs} FROM (SELECT * FROM ${q(r.table)} ORDER BY _id LIMIT $1) AS s`,
      values: [sampleRows],
      rowMode: "array",
    });
    const row = rows[0];
    out.push(...some.map((f, i) => ({ id: f.id, distinct: Number(row[2 * i] ?? 0), avgLength: Number(row[2 * i + 1] ?? 0) })));
  }
  return out;
}

const FIELDS_PER_STATEMENT = 500;
