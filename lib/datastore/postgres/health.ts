// Start-up checks of the PostgreSQL store, so a server that cannot serve says why once and
// stops instead of failing request after request: the server unreachable or refusing us, a
// schema newer than this build, a role that cannot write, a standby given as the primary, and
// ("full") resource tables missing or out of step with the catalog. Each problem becomes a
// DatastoreUnavailable that says what to do. A replica that serves another database is not
// a reason to stop: reads go to the primary instead (checkReplica).
import type pg from "pg";
import type { StartupCheck } from "../engine";
import { DatastoreUnavailable } from "../errors";
import { describeUrl } from "./connection";
import { codeOf, isConnectionError } from "./errors";
import { SCHEMA_VERSION, storedVersion } from "./migrations";
import { quoteIdent as q, type Queryable } from "./resource";

/** A sentence for a failure to connect or to set up the schema, with what to check. */
export function explainConnectError(e: unknown, url: string, schema: string): string {
  if (e instanceof DatastoreUnavailable) return e.message;
  const where = describeUrl(url);
  const code = codeOf(e);
  const detail = (e as Error)?.message ?? String(e);
  if (code === "28P01" || code === "28000") {
    return `PostgreSQL at ${where} refused the login (${detail}): check the user and password in DATASTORE_DATABASE_URL, and pg_hba.conf on the server.`;
  }
  if (code === "3D000") return `PostgreSQL at ${where}: ${detail}. Create the database (createdb), or fix its name in DATASTORE_DATABASE_URL.`;
  if (code === "42501") {
    return `PostgreSQL at ${where}: the role may not create or use the schema "${schema}" (${detail}). Connect as a role that owns the database, or GRANT CREATE ON DATABASE to it.`;
  }
  if (code === "57P03") return `PostgreSQL at ${where} is starting up or shutting down (${detail}); start again once it accepts connections.`;
  if (/unsupported startup parameter/.test(detail)) {
    return `a connection pooler at ${where} refused a start-up parameter (${detail}): add \`ignore_startup_parameters = options, statement_timeout\` to pgbouncer.ini, and set the role's search_path and statement_timeout on the server (docs/postgresql.md, "Through PgBouncer").`;
  }
  if (code === "53300") return `PostgreSQL at ${where} has no free connections (${detail}): raise max_connections, or lower DATASTORE_PG_POOL.`;
  if (isConnectionError(e)) {
    return `cannot connect to PostgreSQL at ${where} (${detail}): check that the server is running and listening there (host, port), and DATASTORE_DATABASE_URL.`;
  }
  return `cannot use PostgreSQL at ${where}, schema "${schema}": ${detail}`;
}

/**
 * Checks the store: reachable, the schema at this build's version, a primary (not a standby)
 * where the role can write the catalog and create tables; "full" also checks every active
 * resource's table is there and holds the rows the catalog counts.
 */
export async function checkStore(pool: pg.Pool, url: string, schema: string, level: StartupCheck): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw new DatastoreUnavailable(explainConnectError(e, url, schema));
  }
  const where = describeUrl(url);
  try {
    const version = await storedVersion(client);
    if (version !== SCHEMA_VERSION) {
      throw new DatastoreUnavailable(
        `the PostgreSQL schema "${schema}" at ${where} is at version ${version}, this build needs ${SCHEMA_VERSION}: ` +
          (version > SCHEMA_VERSION ? "run a newer Datastore Explorer." : "restart the server so it migrates the schema."),
      );
    }
    if (level === "off") return;
    const { rows } = await client.query<{ standby: number; read_only: string; create: number; write: number }>(
      `SELECT pg_is_in_recovery()::int AS standby, current_setting('transaction_read_only') AS read_only,
              has_schema_privilege(current_schema(), 'CREATE')::int AS create,
              has_table_privilege('datastore_resources', 'INSERT, UPDATE, DELETE')::int AS write`,
    );
    const s = rows[0];
    if (Number(s.standby) === 1 || s.read_only === "on") {
      throw new DatastoreUnavailable(
        `PostgreSQL at ${where} is read-only (a standby, or default_transaction_read_only): DATASTORE_DATABASE_URL must name the primary; a replica goes in DATASTORE_READ_DATABASE_URL.`,
      );
    }
    if (Number(s.create) !== 1 || Number(s.write) !== 1) {
      throw new DatastoreUnavailable(
        `the role in DATASTORE_DATABASE_URL may not write the schema "${schema}" at ${where}: connect as the role that owns it, or grant it CREATE on the schema and write on its tables.`,
      );
    }
    if (level === "full") await checkTables(client, schema, where);
  } catch (e) {
    if (e instanceof DatastoreUnavailable) throw e;
    throw new DatastoreUnavailable(explainConnectError(e, url, schema));
  } finally {
    client.release();
  }
}

/** Every active resource's table exists and holds as many rows as the catalog says. */
async function checkTables(client: pg.PoolClient, schema: string, where: string): Promise<void> {
  const { rows } = await client.query<{ id: string; table_name: string; row_count: string; present: number }>(
    "SELECT id, table_name, row_count::text AS row_count, (to_regclass(quote_ident(table_name)) IS NOT NULL)::int AS present FROM datastore_resources WHERE active",
  );
  const problems: string[] = [];
  for (const r of rows) {
    if (Number(r.present) !== 1) {
      problems.push(`resource ${r.id}: its table ${r.table_name} is missing`);
      continue;
    }
    const counted = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${q(r.table_name)}`);
    if (counted.rows[0].n !== r.row_count) problems.push(`resource ${r.id}: the catalog counts ${r.row_count} rows, its table holds ${counted.rows[0].n}`);
  }
  if (problems.length) {
    throw new DatastoreUnavailable(
      `the PostgreSQL schema "${schema}" at ${where} is damaged (${problems.slice(0, 5).join("; ")}${problems.length > 5 ? "; …" : ""}): restore it from a backup (npm run backup makes one with pg_dump).`,
    );
  }
}

/** What a database is, the same on its streaming replicas and on no other database: its
 *  cluster's system identifier and its oid. Null when the role may not read the identifier. */
async function identity(db: Queryable): Promise<string | null> {
  try {
    const { rows } = await db.query<[string]>({
      text: "SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || (SELECT oid::text FROM pg_database WHERE datname = current_database())",
      rowMode: "array",
    });
    return rows[0][0];
  } catch (e) {
    if (codeOf(e) === "42501") return null;
    throw e;
  }
}

/**
 * Whether the replica at `readUrl` serves the primary's database (a streaming replica of it),
 * so reads may go there. An unreachable replica stops the start (DatastoreUnavailable); one
 * of another cluster or database is said in one line, and the primary serves every read.
 */
export async function checkReplica(primary: pg.Pool, replica: pg.Pool, url: string, readUrl: string, schema: string): Promise<boolean> {
  let theirs: string | null;
  try {
    theirs = await identity(replica);
  } catch (e) {
    throw new DatastoreUnavailable(explainConnectError(e, readUrl, schema).replace("DATASTORE_DATABASE_URL", "DATASTORE_READ_DATABASE_URL"));
  }
  const ours = await identity(primary);
  if (ours === null || theirs === null) {
    console.warn(`datastore: cannot tell whether ${describeUrl(readUrl)} is a replica of ${describeUrl(url)} (the role may not read pg_control_system()); reading from it as DATASTORE_READ_DATABASE_URL says`);
    return true;
  }
  if (ours === theirs) return true;
  console.error(
    `datastore: DATASTORE_READ_DATABASE_URL (${describeUrl(readUrl)}) is not a replica of DATASTORE_DATABASE_URL (${describeUrl(url)}): another cluster or database; every read goes to the primary`,
  );
  return false;
}
