// For tests only: look at a PostgreSQL datastore from outside the engine, as
// lib/datastore/sqlite/test-support.ts does for a SQLite file: a checksum of everything a schema
// holds, the app's connections cut, a resource table locked. Generic SQL over the system
// catalogs; the one thing assumed of the engine's layout is that resource tables are named ds_….
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";

/** The test cluster's superuser URL (set by lib/test/pg-setup.ts), or a clear error. */
export function superUrl(): string {
  const url = process.env.DATASTORE_TEST_PG_SUPER_URL;
  if (!url) throw new Error("DATASTORE_TEST_PG_SUPER_URL is not set: run this in vitest's postgres project");
  return url;
}

/** `url` with its database replaced by `db`. */
export function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** A statement prepared once per connection (by its text's hash) and its plan kept. */
const prepared = (text: string): pg.QueryConfig => ({ name: `ck_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`, text });

/** A new database owned by role `app`; returns its name. */
export async function createDatabase(prefix = "db"): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(superUrl(), (c) => c.query(`CREATE DATABASE ${quote(name)} OWNER app`));
  return name;
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const IGNORED_COLUMNS: Record<string, string[]> = { api_tokens: ["last_used"] };
// The quotas' shared budgets (postgres/rate-budgets.ts): made on first use and spent by every
// request, refused or not, as a process's own counters are on SQLite.
const IGNORED_TABLES = new Set(["rate_budgets"]);

/**
 * A checksum of `schema` on `url`: every table's columns, every index, and every row of every
 * table (catalog, tokens, resource tables), so a rejected write is seen to change nothing. Only
 * api_tokens.last_used is left out: reading with a token may refresh it; so is rate_budgets, the
 * quotas' running state. Identity sequences are
 * left out too: PostgreSQL spends numbers on a rolled-back insert, as CKAN's tables do.
 * One connection, kept until close(), and its statements prepared on it: planning a ROW() of a
 * 1,000-column table took ten times as long as running it (the fuzz world has one, read for
 * every case).
 */
export function schemaChecksummer(url: string, schema: string): { checksum(): Promise<string>; close(): Promise<void> } {
  let client: Promise<pg.Client> | undefined;
  const connect = () =>
    (client ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    })());
  return {
    async checksum() {
      const c = await connect();
      // The system catalogs, not information_schema.columns (the same rows, read in a third of
      // the time: the fuzz world's 1,000-column table is read for every case).
      const columns = await c.query<{ table_name: string; column_name: string; type: string }>(
        prepared(`SELECT c.relname AS table_name, a.attname AS column_name,
                format('%s %s %s', t.typname, CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END, pg_get_expr(d.adbin, d.adrelid)) AS type
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'f') AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY c.relname, a.attnum`),
        [schema],
      );
      const indexes = await c.query<{ indexdef: string }>(prepared("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND NOT tablename = ANY($2) ORDER BY indexname"), [
        schema,
        [...IGNORED_TABLES],
      ]);
      columns.rows = columns.rows.filter((r) => !IGNORED_TABLES.has(r.table_name));
      const parts: string[] = [...columns.rows.map((r) => `${r.table_name}.${r.column_name}: ${r.type}`), ...indexes.rows.map((r) => r.indexdef)];
      const tables = new Map<string, string[]>();
      for (const r of columns.rows) if (!IGNORED_COLUMNS[r.table_name]?.includes(r.column_name)) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
      // Every table's rows in one statement.
      const each = [...tables].map(
        ([table, cols]) =>
          `SELECT ${literal(table)} AS name, (SELECT md5(coalesce(string_agg(t, E'\\n' ORDER BY t), '')) FROM (SELECT ROW(${cols.map(quote).join(", ")})::text AS t FROM ${quote(schema)}.${quote(table)}) s) AS md5`,
      );
      const sums = each.length ? (await c.query<{ name: string; md5: string }>(prepared(each.join(" UNION ALL ")))).rows : [];
      const md5 = new Map(sums.map((r) => [r.name, r.md5]));
      for (const table of tables.keys()) parts.push(`#${table} ${md5.get(table)}`);
      return createHash("md5").update(parts.join("\n")).digest("hex");
    },
    async close() {
      const c = client;
      client = undefined;
      if (c) await (await c).end().catch(() => undefined);
    },
  };
}

/** One checksum of `schema` (a connection of its own). */
export async function schemaChecksum(url: string, schema: string): Promise<string> {
  const s = schemaChecksummer(url, schema);
  try {
    return await s.checksum();
  } finally {
    await s.close();
  }
}

/** Ends every connection role `app` has to database `db` (pg_terminate_backend, as a DBA or a
 *  failover would); returns how many. */
export async function terminateAppConnections(db: string): Promise<number> {
  return withClient(superUrl(), async (c) => {
    const r = await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = 'app' AND pid <> pg_backend_pid()", [db]);
    return r.rowCount ?? 0;
  });
}

/** Connections of role `app` to `db` waiting for a lock (a request held up by lockResourceTables). */
export async function appConnectionsWaiting(db: string): Promise<number> {
  return withClient(superUrl(), async (c) => {
    const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND usename = 'app' AND wait_event_type = 'Lock'", [db]);
    return r.rows[0].n as number;
  });
}

/**
 * Holds an ACCESS EXCLUSIVE lock on every resource table (ds_…) of `schema` in database `db`,
 * as a long migration or a DBA's LOCK would: any read or write of them waits until release().
 */
export async function lockResourceTables(db: string, schema: string): Promise<{ tables: string[]; release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: withDatabase(superUrl(), db) });
  await client.connect();
  const found = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname LIKE 'ds\\_%' ORDER BY 1`,
    [schema],
  );
  const tables = found.rows.map((r) => r.relname);
  if (tables.length === 0) {
    await client.end();
    throw new Error(`no resource table (ds_…) in schema ${schema}`);
  }
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${tables.map((t) => `${quote(schema)}.${quote(t)}`).join(", ")} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  return {
    tables,
    async release() {
      if (released) return;
      released = true;
      await client.query("ROLLBACK").catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** The database a URL names. */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/**
 * A full disk, as PostgreSQL reports one (SQLSTATE 53100, disk_full), for the writes to `schema`
 * only: an event trigger fails every DDL command there (a new resource's table), and a trigger on
 * each resource table (ds_…) every insert, update and delete. lift() removes them again.
 */
export async function simulateDiskFull(appUrl: string, schema: string): Promise<{ lift(): Promise<void> }> {
  const url = withDatabase(superUrl(), databaseOf(appUrl));
  const tag = `test_disk_full_${schema}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  const fn = `public.${quote(tag)}`;
  const literal = schema.replace(/'/g, "''");
  await withClient(url, async (c) => {
    const tables = (await c.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname LIKE 'ds\\_%'`,
      [schema],
    )).rows.map((r) => r.relname);
    const raise = "RAISE EXCEPTION 'could not extend file: No space left on device (simulated)' USING ERRCODE = '53100'";
    await c.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${raise}; END $$`);
    await c.query(
      `CREATE FUNCTION public.${quote(`${tag}_ddl`)}() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN
         IF EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands() WHERE schema_name = '${literal}') THEN ${raise}; END IF; END $$`,
    );
    for (const t of tables) await c.query(`CREATE TRIGGER ${quote(tag)} BEFORE INSERT OR UPDATE OR DELETE ON ${quote(schema)}.${quote(t)} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    // Last: from here on, DDL in the schema (ours included) fails.
    await c.query(`CREATE EVENT TRIGGER ${quote(tag)} ON ddl_command_end EXECUTE FUNCTION public.${quote(`${tag}_ddl`)}()`);
  });
  return {
    async lift() {
      await withClient(url, async (c) => {
        await c.query(`DROP EVENT TRIGGER IF EXISTS ${quote(tag)}`);
        await c.query(`DROP FUNCTION IF EXISTS public.${quote(`${tag}_ddl`)}()`);
        await c.query(`DROP FUNCTION IF EXISTS ${fn}() CASCADE`); // and the table triggers
      });
    },
  };
}

/** Every row of every table in `schema`, as text: to show a secret is stored nowhere. */
export async function schemaText(url: string, schema: string): Promise<string> {
  return withClient(url, async (c) => {
    const tables = (await c.query<{ relname: string }>(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY 1",
      [schema],
    )).rows.map((r) => r.relname);
    const parts: string[] = [];
    for (const t of tables) {
      const rows = await c.query<{ t: string }>(`SELECT t::text AS t FROM ${quote(schema)}.${quote(t)} t`);
      parts.push(...rows.rows.map((r) => `${t}: ${r.t}`));
    }
    return parts.join("\n");
  });
}
