// resource_search on PostgreSQL (../catalog-search.ts): the catalog filtered, counted and paged in
// SQL, on indexes, and each resource's words in `datastore_catalog_words` under a GIN index of
// their tsvector ('simple': the words are folded already), so a word is found without reading
// every catalog row. The engine writes a resource's words whenever what they come from changes.
import { catalogWords, type CatalogPage, type CatalogQuery } from "../catalog-search";
import { findResource, listRows } from "./catalog";
import type { Queryable } from "./resource";

/** The words' table and index, and the catalog's orders on indexes (a migration). */
export const CATALOG_WORDS = `
  CREATE TABLE datastore_catalog_words (
    resource_id text PRIMARY KEY REFERENCES datastore_resources(id) ON DELETE CASCADE,
    words text NOT NULL
  );
  CREATE INDEX datastore_catalog_words_fts ON datastore_catalog_words USING gin (to_tsvector('pg_catalog.simple', words));
  CREATE INDEX datastore_resources_by_name ON datastore_resources (name COLLATE "C", id COLLATE "C");
  CREATE INDEX datastore_resources_by_modified ON datastore_resources (modified COLLATE "C", id COLLATE "C");
  CREATE INDEX datastore_resources_by_rows ON datastore_resources (row_count, id COLLATE "C");
  `;

/** Writes the words of resource `id` as the catalog now holds it (none when it is gone). */
export async function syncWords(db: Queryable, id: string): Promise<void> {
  const r = await findResource(db, id);
  if (!r || r.id !== id) {
    await db.query("DELETE FROM datastore_catalog_words WHERE resource_id = $1", [id]);
    return;
  }
  await db.query(
    `INSERT INTO datastore_catalog_words (resource_id, words) VALUES ($1, $2)
     ON CONFLICT (resource_id) DO UPDATE SET words = excluded.words`,
    [id, catalogWords(r)],
  );
}

/** Words for resources that have none (a store from before them). */
export async function fillWords(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM datastore_resources AS r WHERE NOT EXISTS (SELECT 1 FROM datastore_catalog_words AS w WHERE w.resource_id = r.id)",
  );
  for (const { id } of rows) await syncWords(db, id);
}

/** Text columns in code-point order, as SQLite and JavaScript compare them. */
const ORDER_EXPR: Record<CatalogQuery["orderBy"], string> = {
  id: `r.id COLLATE "C"`,
  name: `r.name COLLATE "C"`,
  description: `r.description COLLATE "C"`,
  url_type: `r.url_type COLLATE "C"`,
  created: `r.created COLLATE "C"`,
  modified: `r.modified COLLATE "C"`,
  row_count: "r.row_count",
};

export async function searchCatalog(db: Queryable, query: CatalogQuery): Promise<CatalogPage> {
  const where: string[] = [];
  const values: unknown[] = [];
  const $ = (v: unknown) => `$${values.push(v)}`;
  if (!query.readPrivate) where.push("NOT r.private");
  if (query.hasTable) where.push("r.active");
  if (query.only) where.push(`r.id = ANY(${$(query.only)}::text[])`);
  if (query.words.length) {
    // Folded words hold only letters and digits: each is one lexeme, as a prefix.
    const tsquery = query.words.map((w) => `${w}:*`).join(" & ");
    where.push(
      `r.id IN (SELECT w.resource_id FROM datastore_catalog_words AS w WHERE to_tsvector('pg_catalog.simple', w.words) @@ to_tsquery('pg_catalog.simple', ${$(tsquery)}))`,
    );
  }
  for (const { column, term } of query.contains) where.push(`strpos(lower(r.${column}), ${$(term)}) > 0`);
  const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const dir = query.desc ? " DESC" : "";
  const counted = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM datastore_resources AS r ${filter}`, values);
  const page = `${filter} ORDER BY ${ORDER_EXPR[query.orderBy]}${dir}, r.id COLLATE "C"${dir} LIMIT ${$(query.limit)} OFFSET ${$(query.offset)}`;
  return { count: Number(counted.rows[0].n), resources: await listRows(db, page, values) };
}
