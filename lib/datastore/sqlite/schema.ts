// A resource's table and its shape: create (or re-create after datastore_delete), add and
// drop fields, the primary key's unique index, declared indexes, aliases, and dropping the
// table while the resource stays. Table (`ds_<hex>`) and column (`cN`) names are generated
// here; positional names keep CKAN's case-sensitive field ids safe in SQLite's
// case-insensitive identifiers.
import { randomBytes } from "node:crypto";
import { column, now } from "../catalog-row";
import type { Field, NewResource, WriteAuthor } from "../engine";
import { DatastoreError } from "../errors";
import { DEFAULT_LANGUAGE } from "../text-language";
import { sqliteType } from "../types";
import { findResource, mustGet, saveFields, type Internal } from "./catalog";
import type { Conn } from "./connection";
import { isUniqueViolation } from "./errors";
import { dropFts, rebuildFts } from "./fts-index";
import { sameFields } from "../past-fields";
import { alterHistoryColumns, dropHistory, keepFieldList, keepsHistory, logVersion } from "./history";
import * as groups from "./groups";
import { quoteIdent as q } from "./sql";

/** Creates the resource and its table; an inactive resource (its table dropped) gets a new one,
 *  in the group it had (groups.ts: a resource's group never changes while it is in the catalog). */
export function createResource(c: Conn, meta: NewResource, fields: Field[]): Internal {
  const table = `ds_${randomBytes(8).toString("hex")}`;
  const stored = fields.map((f, i) => ({ ...f, column: `c${i + 1}` }));
  const columns = stored.map((f) => `${q(f.column)} ${sqliteType(f.type)}`);
  const inactive = findResource(c, meta.id);
  const again = inactive && inactive.id === meta.id && !inactive.active ? inactive : undefined;
  const group = again ? again.group : groups.placeNew(c);
  groups.use(c, group);
  const schema = groups.schemaOf({ group });
  c.db.exec(`CREATE TABLE ${schema}.${q(table)} (_id INTEGER PRIMARY KEY AUTOINCREMENT${columns.map((col) => `, ${col}`).join("")})`);
  const ts = now();
  if (again) {
    c.db
      .prepare(
        `UPDATE datastore_resources SET table_name = ?, fields = ?, next_column = ?, primary_key = '[]', indexes = '[]',
         row_count = 0, active = 1, modified = ?, version = version + 1, history_from = version + 1, history = ? WHERE id = ?`,
      )
      .run(table, JSON.stringify(stored), stored.length + 1, ts, meta.history === false ? 0 : 1, meta.id);
  } else {
    c.db
      .prepare(
        `INSERT INTO datastore_resources (id, table_name, name, description, private, fields, next_column, created, modified, history, grp)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(meta.id, table, meta.name, meta.description, meta.private ? 1 : 0, JSON.stringify(stored), stored.length + 1, ts, ts, meta.history === false ? 0 : 1, group);
  }
  const language = meta.language ?? DEFAULT_LANGUAGE;
  c.db.prepare("UPDATE datastore_resources SET language = ? WHERE id = ?").run(language, meta.id);
  rebuildFts(c, { table, group }, stored, language);
  const r = mustGet(c, meta.id);
  logVersion(c, r, "create", undefined);
  return r;
}

export function updateResourceMeta(c: Conn, id: string, meta: Partial<Omit<NewResource, "id">>): void {
  const r = findResource(c, id);
  if (!r || r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  c.db
    .prepare("UPDATE datastore_resources SET name = ?, description = ?, private = ?, modified = ? WHERE id = ?")
    .run(meta.name ?? r.name, meta.description ?? r.description, (meta.private ?? r.private) ? 1 : 0, now(), id);
}

export function alterFields(c: Conn, id: string, add: Field[], infoUpdates: Field[], drop: string[], author?: WriteAuthor): void {
  const r = mustGet(c, id);
  // While history is kept, a dropped field's column stays, out of the field list: the versions
  // before the drop read its values (../past-fields.ts; the retention removes it).
  const retire = keepsHistory(c, id);
  // The index's view names the columns: it goes first, and is rebuilt after the change.
  if (add.length || drop.length) dropFts(c, r.table);
  let next = r.nextColumn;
  const byId = new Map(r.columns);
  for (const f of infoUpdates) {
    const cur = byId.get(f.id);
    if (cur) byId.set(f.id, { ...cur, info: f.info });
  }
  if (drop.length) {
    // Indexes and keys over a dropped column go with it.
    setPrimaryKey(c, id, r.primaryKey.some((k) => drop.includes(k)) ? [] : r.primaryKey);
    setIndexes(c, id, r.indexes.filter((ix) => !ix.some((k) => drop.includes(k))));
    for (const fid of drop) {
      const col = byId.get(fid);
      if (!col) continue;
      if (!retire) {
        c.db.exec(`ALTER TABLE ${q(r.table)} DROP COLUMN ${q(col.column)}`);
        alterHistoryColumns(c, r.table, [], [col.column]);
      }
      byId.delete(fid);
    }
  }
  for (const f of add) {
    const name = `c${next++}`;
    c.db.exec(`ALTER TABLE ${q(r.table)} ADD COLUMN ${q(name)} ${sqliteType(f.type)}`);
    alterHistoryColumns(c, r.table, [{ ...f, column: name }], []);
    byId.set(f.id, { ...f, column: name });
  }
  saveFields(c, r, [...byId.values()], next);
  if (!sameFields([...r.columns.values()], [...byId.values()])) keepFieldList(c, r, retire, author);
  if (add.length || drop.length) rebuildFts(c, r, [...byId.values()], r.language);
}

/** Changes the full-text language: the index is built again, read in the new one. The version
 *  goes up, as answers kept from the old index (page-cache.ts) no longer hold. */
export function setLanguage(c: Conn, id: string, language: string): void {
  const r = mustGet(c, id);
  if (r.language === language) return;
  c.db.prepare("UPDATE datastore_resources SET language = ?, modified = ?, version = version + 1 WHERE id = ?").run(language, now(), id);
  rebuildFts(c, r, [...r.columns.values()], language);
}

export function setPrimaryKey(c: Conn, id: string, fields: string[]): void {
  const r = mustGet(c, id);
  const name = `${r.table}_pk`;
  c.db.exec(`DROP INDEX IF EXISTS ${q(name)}`);
  if (fields.length) {
    const cols = fields.map((f) => q(column(r, f).column)).join(", ");
    try {
      createIndex(c, `CREATE UNIQUE INDEX ${groups.schemaOf(r)}.${q(name)} ON ${q(r.table)} (${cols})`, groups.schemaOf(r));
    } catch (e) {
      if (isUniqueViolation(e)) throw uniquenessError(c, r, fields, cols);
      throw e;
    }
  }
  c.db.prepare("UPDATE datastore_resources SET primary_key = ? WHERE id = ?").run(JSON.stringify(fields), id);
}

/**
 * CKAN's answer when existing rows break a new unique key (datastore_create builds the key's
 * index after inserting the records), with `info` as CKAN passes on PostgreSQL's error
 * (unique_violation is SQLSTATE 23505).
 */
function uniquenessError(c: Conn, r: Internal, fields: string[], cols: string): DatastoreError {
  const dup = c.db.prepare(`SELECT ${cols} FROM ${q(r.table)} GROUP BY ${cols} HAVING count(*) > 1 LIMIT 1`).raw(true).get() as unknown[] | undefined;
  const values = (dup ?? []).map((v) => (v === null ? "null" : String(v))).join(", ");
  return DatastoreError.validation({
    constraints: ["Cannot insert records or create index because of uniqueness constraint"],
    info: {
      orig: `could not create unique index "${r.id}_pkey"\nDETAIL:  Key (${fields.join(", ")})=(${values}) is duplicated.\n`,
      pgcode: "23505",
    },
  });
}

/** The sort runs CREATE INDEX spills: small enough to sort within the CPU's caches. */
const SORT_RUN_KIB = 2048;

/**
 * Runs a CREATE INDEX with SQLite's sorter at its fastest: runs of SORT_RUN_KIB (the sorter
 * sizes them by the page cache) spilled to temporary files. The writer keeps temporary data in
 * memory, where the sorter's spills are slower (docs/performance.md, "Import"). The
 * connection's own settings come back afterwards. `schema`: the file the index goes to, whose
 * page cache the sorter sizes its runs by (groups.ts).
 */
export function createIndex(c: Conn, sql: string, schema = "main"): void {
  const db = c.db;
  const cache = db.pragma(`${schema}.cache_size`, { simple: true }) as number;
  const temp = db.pragma("temp_store", { simple: true }) as number;
  let toFiles = false;
  try {
    db.pragma("temp_store = FILE");
    toFiles = true;
  } catch {
    // A temporary table is in use in this transaction: the store cannot change; sort as it is.
  }
  db.pragma(`${schema}.cache_size = -${SORT_RUN_KIB}`);
  try {
    db.exec(sql);
  } finally {
    db.pragma(`${schema}.cache_size = ${cache}`);
    if (toFiles) db.pragma(`temp_store = ${temp}`);
  }
}

export function setIndexes(c: Conn, id: string, indexes: string[][]): void {
  const r = mustGet(c, id);
  const wanted = new Map<string, string[]>();
  for (const ix of indexes) {
    const cols = ix.map((f) => column(r, f).column);
    wanted.set(`${r.table}_ix_${cols.join("_")}`, cols);
  }
  // The table's own list, from the parsed schema: `sqlite_schema` has no index, and a query of
  // it reads every resource's rows.
  const existing = c.db
    .prepare("SELECT name FROM pragma_index_list(?) WHERE name LIKE ?")
    .pluck()
    .all(r.table, `${r.table}_ix_%`) as string[];
  // Keep indexes that stay wanted: rebuilding one on millions of rows takes seconds.
  for (const name of existing) if (!wanted.has(name)) c.db.exec(`DROP INDEX ${q(name)}`);
  for (const [name, cols] of wanted) {
    if (!existing.includes(name)) createIndex(c, `CREATE INDEX ${groups.schemaOf(r)}.${q(name)} ON ${q(r.table)} (${cols.map(q).join(", ")})`, groups.schemaOf(r));
  }
  c.db.prepare("UPDATE datastore_resources SET indexes = ? WHERE id = ?").run(JSON.stringify(indexes), id);
}

export function setAliases(c: Conn, id: string, aliases: string[]): void {
  c.db.prepare("DELETE FROM datastore_aliases WHERE resource_id = ?").run(id);
  const insert = c.db.prepare("INSERT INTO datastore_aliases (alias, resource_id) VALUES (?, ?)");
  for (const a of aliases) insert.run(a, id);
}

/** Drops the table, its index and aliases; the resource stays in the catalog, inactive. */
export function dropTable(c: Conn, id: string): void {
  const r = mustGet(c, id);
  dropFts(c, r.table);
  dropHistory(c, r.table);
  c.db.exec(`DROP TABLE IF EXISTS ${q(r.table)}`);
  c.db.prepare("DELETE FROM datastore_aliases WHERE resource_id = ?").run(id);
  c.db
    .prepare(
      `UPDATE datastore_resources SET active = 0, fields = '[]', primary_key = '[]', indexes = '[]', next_column = 1,
       row_count = 0, modified = ?, version = version + 1 WHERE id = ?`,
    )
    .run(now(), id);
}
