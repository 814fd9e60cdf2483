// The catalog: one row per resource in `datastore_resources` (its table's generated name, its
// fields with the column `cN` each one lives in, keys, indexes, row count, a write version)
// and its aliases in `datastore_aliases`. Resources are read from here in every request.
// Learned indexes (learned-indexes.ts) are listed apart from the declared ones. A resource's
// objects live in its group's file (groups.ts), which mustGet attaches.
import { decodeCatalogRow, now, type CatalogRow, type StoredField, type StoredResource } from "../catalog-row";
import { DatastoreError } from "../errors";
import { writeCount } from "../resolved";
import type { Conn } from "./connection";
import * as groups from "./groups";

export { ID_FIELD, type StoredField } from "../catalog-row";

/** A resource with what the engine needs to build SQL for it (../catalog-row.ts), and the
 *  group file its objects live in (null: `main`). */
export type Internal = StoredResource & { group: number | null };

type Row = CatalogRow & { grp?: number | null };

function load(c: Conn, row: Row | undefined): Internal | undefined {
  if (!row) return undefined;
  const aliases = c.cache.get("SELECT alias FROM datastore_aliases WHERE resource_id = ? ORDER BY alias", "pluck").all(row.id) as string[];
  return { ...decodeCatalogRow(row, aliases), group: row.grp ?? null };
}

export function findResource(c: Conn, idOrAlias: string): Internal | undefined {
  // Two keyed lookups (an OR of both made SQLite scan the catalog).
  const row = c.cache
    .get(
      `SELECT * FROM datastore_resources WHERE id = @name
       UNION ALL SELECT r.* FROM datastore_aliases AS a JOIN datastore_resources AS r ON r.id = a.resource_id WHERE a.alias = @name
       LIMIT 1`,
    )
    .get({ name: idOrAlias }) as CatalogRow | undefined;
  return load(c, row);
}

const kept = new WeakMap<Conn, { version: number; writes: number; found: Map<string, Internal | undefined> }>();

/**
 * findResource, answered from the copies found before while neither this process wrote
 * (../resolved.ts) nor another connection committed (SQLite's data_version): the catalog is
 * read and decoded once per change, not on every request. Copies are shared: never changed.
 */
export function findResourceKept(c: Conn, idOrAlias: string): Internal | undefined {
  const version = c.cache.get("PRAGMA data_version", "pluck").get() as number;
  const writes = writeCount();
  let memo = kept.get(c);
  if (!memo || memo.version !== version || memo.writes !== writes) kept.set(c, (memo = { version, writes, found: new Map() }));
  if (memo.found.has(idOrAlias)) return memo.found.get(idOrAlias);
  const r = findResource(c, idOrAlias);
  if (memo.found.size >= 256) memo.found.clear();
  memo.found.set(idOrAlias, r);
  return r;
}

/** A resource's state, for answers kept per state (../page-cache.ts): its table (a new name
 *  each time a resource is created again) and its version (raised by every write). */
export function state(r: Internal): string {
  return `${r.table}:${r.version}`;
}

/** The resource with this id and a table, else 404; its group attached (groups.use). */
export function mustGet(c: Conn, id: string): Internal {
  const r = findResource(c, id);
  if (!r || !r.active) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  groups.use(c, r.group);
  return r;
}

/** Per connection: each resource's catalog row as last decoded, and what it decoded to. */
const decoded = new WeakMap<Conn, Map<string, { row: Row; r: Internal }>>();

/**
 * As mustGet, for a read worker, which resolves each task's resource again in the task's own
 * snapshot (the request resolved it on the server thread): the row is read every time, and
 * decoded only when it changed since this connection last decoded it. Its aliases, a table
 * apart, are as they were then: reads do not use them. A resource in a group is read from the
 * group's copy of its row, first in the transaction (groups.ts says why); its group is the one
 * groups.attachFor found before the transaction, else read here.
 */
export function mustGetForRead(c: Conn, id: string): Internal {
  let group = groups.knownGroup(c, id);
  if (group === undefined) group = (c.cache.get("SELECT grp FROM datastore_resources WHERE id = ?", "pluck").get(id) as number | null | undefined) ?? null;
  let copy: string | undefined;
  if (group !== null) {
    groups.use(c, group);
    copy = groups.stateRow(c, group, id);
  }
  const main = c.cache.get("SELECT * FROM datastore_resources WHERE id = ?").get(id) as Row | undefined;
  // Deleted and created again since attachFor looked: its group is asked again.
  if (main && (main.grp ?? null) !== group) {
    groups.forget(c, id);
    if (!c.db.inTransaction) return mustGetForRead(c, id);
    throw new groups.GroupNotAttached(main.grp ?? group!);
  }
  const row = group === null ? main : main && copy !== undefined ? ({ ...(JSON.parse(copy) as Row), grp: group } as Row) : undefined;
  if (!row || Number(row.active) !== 1) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  let memo = decoded.get(c);
  if (!memo) decoded.set(c, (memo = new Map()));
  const hit = memo.get(id);
  if (hit && sameRow(hit.row, row)) return hit.r;
  const r = load(c, row)!;
  if (memo.size >= 256) memo.clear();
  memo.set(id, { row, r });
  return r;
}

function sameRow(a: Row, b: Row): boolean {
  for (const key in b) if (a[key as keyof Row] !== b[key as keyof Row]) return false;
  return true;
}

/** A catalog row read elsewhere (catalog-search.ts), decoded with its aliases. */
export function decodeRow(c: Conn, row: CatalogRow): Internal {
  return load(c, row)!;
}

export function listResources(c: Conn): Internal[] {
  const rows = c.db.prepare("SELECT * FROM datastore_resources ORDER BY name, id").all() as CatalogRow[];
  return rows.map((r) => load(c, r)!);
}

export function nameOwner(c: Conn, name: string): string | undefined {
  return c.cache
    .get(
      `SELECT id FROM datastore_resources WHERE id = @name
       UNION ALL SELECT resource_id FROM datastore_aliases WHERE alias = @name`,
      "pluck",
    )
    .get({ name }) as string | undefined;
}

export function saveFields(c: Conn, r: Internal, fields: StoredField[], nextColumn: number): void {
  c.db
    .prepare("UPDATE datastore_resources SET fields = ?, next_column = ?, modified = ?, version = version + 1 WHERE id = ?")
    .run(JSON.stringify(fields), nextColumn, now(), r.id);
}

/** Records a write: the row count moves by `rowDelta`, the version goes up. */
export function touch(c: Conn, id: string, rowDelta: number): void {
  c.cache
    .get("UPDATE datastore_resources SET row_count = row_count + ?, modified = ?, version = version + 1 WHERE id = ?")
    .run(rowDelta, now(), id);
}

/** Removes the resource's catalog row and aliases (its table is the caller's to drop first). */
export function removeResource(c: Conn, id: string): void {
  c.db.prepare("DELETE FROM datastore_aliases WHERE resource_id = ?").run(id);
  c.db.prepare("DELETE FROM datastore_resources WHERE id = ?").run(id);
}
