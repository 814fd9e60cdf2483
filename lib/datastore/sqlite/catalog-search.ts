// resource_search on SQLite (../catalog-search.ts): the catalog filtered, counted and paged in
// SQL, on indexes, and each resource's words in `datastore_catalog_words` with an FTS5 index over
// them (`datastore_catalog_fts`, kept in step by triggers), so a word is found without reading
// every catalog row. The engine writes a resource's words whenever what they come from changes.
import { catalogWords, type CatalogPage, type CatalogQuery } from "../catalog-search";
import type { CatalogRow } from "../catalog-row";
import { decodeRow, findResource } from "./catalog";
import type { Conn, DB } from "./connection";

/** The words' table and index (a migration; IF NOT EXISTS: harmless if run twice). */
export const CATALOG_WORDS = `
  CREATE TABLE IF NOT EXISTS datastore_catalog_words (
    rid INTEGER PRIMARY KEY,
    resource_id TEXT NOT NULL UNIQUE REFERENCES datastore_resources(id) ON DELETE CASCADE,
    words TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS datastore_catalog_fts USING fts5(words, content='datastore_catalog_words', content_rowid='rid', tokenize='unicode61', detail=column);
  CREATE TRIGGER IF NOT EXISTS datastore_catalog_words_ai AFTER INSERT ON datastore_catalog_words BEGIN
    INSERT INTO datastore_catalog_fts (rowid, words) VALUES (new.rid, new.words);
  END;
  CREATE TRIGGER IF NOT EXISTS datastore_catalog_words_ad AFTER DELETE ON datastore_catalog_words BEGIN
    INSERT INTO datastore_catalog_fts (datastore_catalog_fts, rowid, words) VALUES ('delete', old.rid, old.words);
  END;
  CREATE INDEX IF NOT EXISTS datastore_resources_by_name ON datastore_resources (name, id);
  CREATE INDEX IF NOT EXISTS datastore_resources_by_modified ON datastore_resources (modified, id);
  CREATE INDEX IF NOT EXISTS datastore_resources_by_rows ON datastore_resources (row_count, id);
  `;

/** Writes the words of resource `id` as the catalog now holds it (none when it is gone). */
export function syncWords(c: Conn, id: string): void {
  const r = findResource(c, id);
  c.cache.get("DELETE FROM datastore_catalog_words WHERE resource_id = ?").run(id);
  if (r && r.id === id) c.cache.get("INSERT INTO datastore_catalog_words (resource_id, words) VALUES (?, ?)").run(id, catalogWords(r));
}

/** Words for resources that have none (a store from before them). */
export function fillWords(c: Conn): void {
  const missing = c.db
    .prepare("SELECT id FROM datastore_resources AS r WHERE NOT EXISTS (SELECT 1 FROM datastore_catalog_words AS w WHERE w.resource_id = r.id)")
    .pluck()
    .all() as string[];
  if (missing.length) c.db.transaction(() => missing.forEach((id) => syncWords(c, id)))();
}

const folded = new WeakSet<DB>();

/** JavaScript's lower case (SQLite's lower() folds only ASCII), as `query` always compared. */
function lowerFunction(db: DB): void {
  if (folded.has(db)) return;
  db.function("datastore_lower", { deterministic: true }, (s: unknown) => (typeof s === "string" ? s.toLowerCase() : s));
  folded.add(db);
}

export function searchCatalog(c: Conn, query: CatalogQuery): CatalogPage {
  lowerFunction(c.db);
  const where: string[] = [];
  const values: unknown[] = [];
  if (!query.readPrivate) where.push("r.private = 0");
  if (query.hasTable) where.push("r.active = 1");
  if (query.only) {
    where.push("r.id IN (SELECT value FROM json_each(?))");
    values.push(JSON.stringify(query.only));
  }
  if (query.words.length) {
    where.push(
      `r.id IN (SELECT w.resource_id FROM datastore_catalog_fts AS f JOIN datastore_catalog_words AS w ON w.rid = f.rowid WHERE datastore_catalog_fts MATCH ?)`,
    );
    // Folded words hold only letters and digits: quoted, each is one token, as a prefix.
    values.push(query.words.map((w) => `"${w}"*`).join(" AND "));
  }
  for (const { column, term } of query.contains) {
    where.push(`instr(datastore_lower(r.${column}), ?) > 0`);
    values.push(term);
  }
  const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const count = c.cache.get(`SELECT count(*) FROM datastore_resources AS r ${filter}`, "pluck").get(...values) as number;
  const dir = query.desc ? " DESC" : "";
  const rows = c.cache
    .get(`SELECT r.* FROM datastore_resources AS r ${filter} ORDER BY r.${query.orderBy}${dir}, r.id${dir} LIMIT ? OFFSET ?`)
    .all(...values, query.limit, query.offset) as CatalogRow[];
  return { count, resources: rows.map((row) => decodeRow(c, row)) };
}
