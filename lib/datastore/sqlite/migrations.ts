// Versioned schema migrations for the catalog, tracked in PRAGMA user_version.
// Append a migration to add a version; never edit one that has shipped.
import type { Database } from "better-sqlite3";
import { DatastoreUnavailable } from "../errors";

const MIGRATIONS: (string | ((db: Database) => void))[] = [
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
  // datastore_delete without filters keeps the resource without a table (CKAN); `version`
  // counts writes, so anything cached from a resource's rows knows when it went stale.
  `
  ALTER TABLE datastore_resources ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE datastore_resources ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  `,
];

const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new DatastoreUnavailable(
      `the database schema version ${current} is newer than this build supports (${SCHEMA_VERSION}): run a newer Datastore Explorer, or point DATASTORE_DB at another file.`,
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      const step = MIGRATIONS[v];
      if (typeof step === "string") db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
