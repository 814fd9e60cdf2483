// The catalog tables every engine writes alike, aliases and API tokens (token-row.ts), as part
// of its first migration (sqlite/migrations.ts, postgres/migrations.ts), in SQL both read the
// same. Shipped: never edit; a change is a new migration in each engine.
export const ALIASES_AND_TOKENS = `
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
  `;
