// Versioned schema migrations for the catalog, tracked in PRAGMA user_version.
// Append a migration to add a version; never edit one that has shipped.
import type { Database } from "better-sqlite3";

const MIGRATIONS: string[] = [
  `
  CREATE TABLE datastore_resources (
    id TEXT PRIMARY KEY,
    table_name TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    private INTEGER NOT NULL DEFAULT 0,
    url_type TEXT NOT NULL DEFAULT 'datastore',
    fields TEXT NOT NULL DEFAULT '[]',
    primary_key TEXT NOT NULL DEFAULT '[]',
    indexes TEXT NOT NULL DEFAULT '[]',
    next_column INTEGER NOT NULL DEFAULT 1,
    row_count INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    modified TEXT NOT NULL
  );
  CREATE TABLE datastore_aliases (
    alias TEXT PRIMARY KEY,
    resource_id TEXT NOT NULL REFERENCES datastore_resources(id) ON DELETE CASCADE
  );
  CREATE INDEX datastore_aliases_resource ON datastore_aliases(resource_id);
  CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    token_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    expires TEXT,
    last_used TEXT
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `database schema version ${current} is newer than this build supports (${SCHEMA_VERSION})`,
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
