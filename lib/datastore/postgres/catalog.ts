// The catalog: one row per resource in `datastore_resources` (its table's generated name, its
// fields with the column `cN` each one lives in, keys, indexes, row count, a write version)
// and its aliases in `datastore_aliases`. Lists and fields are read as text and parsed here,
// so the catalog does not depend on the type parsers set for data columns.
import { decodeCatalogRow, now, type CatalogRow, type StoredField } from "../catalog-row";
import { DatastoreError } from "../errors";
import type { PgResource, Queryable } from "./resource";

/** A catalog row with its aliases as one JSON list (COLUMNS). */
type Row = CatalogRow & { aliases: string };

/** The columns of a catalog row over alias `r`, everything as text or int (see top). */
const COLUMNS = `r.id, r.table_name, r.name, r.description, r.private::int AS private, r.url_type,
  r.fields::text AS fields, r.primary_key::text AS primary_key, r.indexes::text AS indexes,
  r.import_indexes::text AS import_indexes, r.learned_indexes::text AS learned_indexes, r.next_column,
  r.row_count::text AS row_count, r.created, r.modified, r.active::int AS active, r.version::text AS version, r.language,
  (SELECT coalesce(json_agg(a.alias ORDER BY a.alias COLLATE "C"), '[]')::text FROM datastore_aliases AS a WHERE a.resource_id = r.id) AS aliases`;

function load(row: Row | undefined): PgResource | undefined {
  return row && decodeCatalogRow(row, JSON.parse(row.aliases));
}

/** PostgreSQL text cannot hold NUL: no stored name has one, and the server refuses it as a
 *  parameter, so such a name is simply not found (as SQLite answers). */
export function storable(name: string): boolean {
  return !name.includes("\u0000");
}

/** The resource with this id, else the one this alias names. */
export async function findResource(db: Queryable, idOrAlias: string): Promise<PgResource | undefined> {
  if (!storable(idOrAlias)) return undefined;
  // Two keyed lookups: the id first, as an id always wins over an alias.
  // Named, so each connection parses and plans it once: every request starts with it.
  const { rows } = await db.query<Row>({
    name: "datastore_find_resource",
    text: `SELECT ${COLUMNS} FROM datastore_resources AS r WHERE r.id = $1
     UNION ALL SELECT ${COLUMNS} FROM datastore_aliases AS x JOIN datastore_resources AS r ON r.id = x.resource_id WHERE x.alias = $1
     LIMIT 1`,
    values: [idOrAlias],
  });
  return load(rows[0]);
}

/**
 * A one-row query for a read's WITH: `ok`, whether `name` still names the resource of copy `r`
 * as the copy has it: the same id, table, privacy and version (which every write, and every
 * change of its fields or row count, raises), with a table. No row: the name names nothing.
 * Its values are appended to `values`. With the read in one statement, the read and the check
 * see one snapshot, so a read gated by `ok` reads only from a current copy.
 */
export function copyCheck(r: PgResource, name: string, values: unknown[]): string {
  const $ = (v: unknown) => `$${values.push(v)}`;
  const n = $(name);
  return `SELECT (c.id = ${$(r.id)} AND c.version = ${$(String(r.version))}::int8 AND c.table_name = ${$(r.table)} AND c.private = ${$(r.private)}::boolean AND c.active) AS ok
    FROM (SELECT id, version, table_name, private, active FROM datastore_resources WHERE id = ${n}
      UNION ALL SELECT r.id, r.version, r.table_name, r.private, r.active FROM datastore_aliases AS x JOIN datastore_resources AS r ON r.id = x.resource_id WHERE x.alias = ${n}
      LIMIT 1) AS c`;
}

/** As findResource, and locks the catalog row until the transaction ends, so writers to one
 *  resource (on any app server) take turns; the row read is the latest committed. */
export async function lockResource(db: Queryable, idOrAlias: string): Promise<PgResource | undefined> {
  if (!storable(idOrAlias)) return undefined;
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM datastore_resources AS r
     WHERE r.id = $1 OR r.id = (SELECT resource_id FROM datastore_aliases WHERE alias = $1)
     ORDER BY r.id = $1 DESC LIMIT 1 FOR UPDATE OF r`,
    [idOrAlias],
  );
  return load(rows[0]);
}

function mustBeActive(r: PgResource | undefined, id: string): PgResource {
  if (!r || !r.active) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  return r;
}

/** The resource with this id and a table, else 404. */
export async function mustGet(db: Queryable, id: string): Promise<PgResource> {
  return mustBeActive(await findResource(db, id), id);
}

/** As mustGet, locked for a write (lockResource). */
export async function mustLock(db: Queryable, id: string): Promise<PgResource> {
  return mustBeActive(await lockResource(db, id), id);
}

/** Catalog rows over alias `r` chosen by `tail` (WHERE, ORDER BY, LIMIT: catalog-search.ts). */
export async function listRows(db: Queryable, tail: string, values: unknown[]): Promise<PgResource[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM datastore_resources AS r ${tail}`, values);
  return rows.map((r) => load(r)!);
}

export async function listResources(db: Queryable): Promise<PgResource[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM datastore_resources AS r ORDER BY r.name COLLATE "C", r.id COLLATE "C"`);
  return rows.map((r) => load(r)!);
}

export async function nameOwner(db: Queryable, name: string): Promise<string | undefined> {
  if (!storable(name)) return undefined;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM datastore_resources WHERE id = $1
     UNION ALL SELECT resource_id FROM datastore_aliases WHERE alias = $1 LIMIT 1`,
    [name],
  );
  return rows[0]?.id;
}

export async function saveFields(db: Queryable, id: string, fields: StoredField[], nextColumn: number): Promise<void> {
  await db.query("UPDATE datastore_resources SET fields = $1, next_column = $2, modified = $3, version = version + 1 WHERE id = $4", [
    JSON.stringify(fields),
    nextColumn,
    now(),
    id,
  ]);
}

/** Records a write: the row count moves by `rowDelta`, the version goes up. */
export async function touch(db: Queryable, id: string, rowDelta: number): Promise<void> {
  await db.query("UPDATE datastore_resources SET row_count = row_count + $1, modified = $2, version = version + 1 WHERE id = $3", [rowDelta, now(), id]);
}

/** Removes the resource's catalog row and aliases (its table is the caller's to drop first). */
export async function removeResource(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM datastore_aliases WHERE resource_id = $1", [id]);
  await db.query("DELETE FROM datastore_resources WHERE id = $1", [id]);
}
