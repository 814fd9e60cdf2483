// Versioned schema migrations for the catalog, in the engine's own schema, tracked in
// datastore_schema_version. Append a migration to add a version; never edit one that has
// shipped. Each version is applied in its own transaction under an advisory lock, so app
// servers starting together migrate once: the others wait, then find the work done.
import type pg from "pg";
import { ALIASES_AND_TOKENS } from "../catalog-tables";
import { DatastoreUnavailable } from "../errors";
import { VIEWS_TABLE } from "../view-row";
import { quoteIdent } from "./resource";

/** Run with the connection's search_path on the schema (connection.ts). */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE datastore_resources (
    id text PRIMARY KEY,
    table_name text NOT NULL UNIQUE,
    name text NOT NULL DEFAULT '',
    description text NOT NULL DEFAULT '',
    private boolean NOT NULL DEFAULT false,
    url_type text NOT NULL DEFAULT 'datastore',
    -- json, not jsonb: info objects keep their keys in the order given, and a field name may
    -- hold any character (jsonb refuses NUL). Only the engine reads these, whole.
    fields json NOT NULL DEFAULT '[]',
    primary_key json NOT NULL DEFAULT '[]',
    indexes json NOT NULL DEFAULT '[]',
    import_indexes json NOT NULL DEFAULT '[]',
    learned_indexes json NOT NULL DEFAULT '[]',
    next_column integer NOT NULL DEFAULT 1,
    row_count bigint NOT NULL DEFAULT 0,
    created text NOT NULL,
    modified text NOT NULL,
    active boolean NOT NULL DEFAULT true,
    version bigint NOT NULL DEFAULT 0
  );` + ALIASES_AND_TOKENS,
  // Saved views (datastore_view_*), each of one resource by its id.
  VIEWS_TABLE,
  // Uploads' imports, seen by every app server (uploads.ts); a row lives while its import
  // runs, and after it until the upload time-to-live.
  `
  CREATE TABLE upload_imports (
    upload_id text PRIMARY KEY,
    owner text NOT NULL,
    claim text NOT NULL,
    state text NOT NULL CHECK (state IN ('importing', 'imported', 'cancelled')),
    progress json,
    resource_id text,
    updated timestamptz NOT NULL DEFAULT now()
  );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock key of a schema's migrations (one per schema, so schemas do not wait on each other). */
const LOCK_KEY = "SELECT pg_advisory_xact_lock(hashtext('datastore-explorer migrations ' || $1))";

/**
 * The connection's search_path must lead to the schema before anything is created in it. The
 * pool asks for it in each connection's start-up options, which a pooler (PgBouncer) may drop:
 * then the role's own setting must say it, or tables would be made elsewhere.
 */
async function mustUseSchema(client: pg.PoolClient, schema: string): Promise<void> {
  const { rows } = await client.query<{ schema: string | null; role: string; db: string; usable: boolean }>(
    "SELECT current_schema() AS schema, current_user AS role, current_database() AS db, has_schema_privilege($1, 'USAGE') AS usable",
    [schema],
  );
  const { schema: current, role, db, usable } = rows[0];
  // A schema the role may not use is left out of the path: the next statement says so (42501).
  if (current === schema || !usable) return;
  throw new DatastoreUnavailable(
    `the connections' search_path leads to ${current === null ? "no schema" : `the schema "${current}"`}, not "${schema}" (DATASTORE_PG_SCHEMA): ` +
      "a connection pooler (PgBouncer) drops the start-up options that set it. Set it on the server for the role: " +
      `ALTER ROLE ${quoteIdent(role)} IN DATABASE ${quoteIdent(db)} SET search_path = ${quoteIdent(schema)} (docs/postgresql.md, "Through PgBouncer").`,
  );
}

/** Brings the schema to SCHEMA_VERSION; throws DatastoreUnavailable for a newer one. */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query("BEGIN");
      try {
        await client.query("SET LOCAL statement_timeout = 0");
        await client.query(LOCK_KEY, [schema]);
        // Created only when missing: CREATE SCHEMA needs CREATE on the database even with IF NOT
        // EXISTS, which a role given a schema of its own by a DBA need not have.
        const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
        if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
        await mustUseSchema(client, schema);
        await client.query("CREATE TABLE IF NOT EXISTS datastore_schema_version (version integer NOT NULL)");
        const { rows } = await client.query<{ version: number }>("SELECT version FROM datastore_schema_version");
        const current = rows.length ? Number(rows[0].version) : 0;
        if (current > SCHEMA_VERSION) {
          throw new DatastoreUnavailable(
            `the PostgreSQL schema "${schema}" is at version ${current}, newer than this build supports (${SCHEMA_VERSION}): ` +
              "run a newer Datastore Explorer, or set DATASTORE_PG_SCHEMA to another schema.",
          );
        }
        if (current === SCHEMA_VERSION) {
          await client.query("COMMIT");
          return;
        }
        await client.query(MIGRATIONS[current]);
        if (rows.length) await client.query("UPDATE datastore_schema_version SET version = $1", [current + 1]);
        else await client.query("INSERT INTO datastore_schema_version (version) VALUES ($1)", [current + 1]);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      }
    }
  } finally {
    client.release();
  }
}

/** The schema's version as stored (0: none), for the start-up check. */
export async function storedVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const found = await db.query<{ present: number }>("SELECT (to_regclass('datastore_schema_version') IS NOT NULL)::int AS present");
  if (Number(found.rows[0].present) === 0) return 0;
  const { rows } = await db.query<{ version: number }>("SELECT version FROM datastore_schema_version LIMIT 1");
  return rows.length ? Number(rows[0].version) : 0;
}
