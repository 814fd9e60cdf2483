// Versioned schema migrations for the catalog, tracked in PRAGMA user_version.
// Append a migration to add a version; never edit one that has shipped.
import { ALIASES_AND_TOKENS } from "../catalog-tables";
import { auditTable } from "../audit-row";
import { DatastoreUnavailable } from "../errors";
import { TOKEN_LIMITS, TOKEN_RATE } from "../token-row";
import { VIEWS_TABLE } from "../view-row";
import type { StoredField } from "./catalog";
import type { Conn } from "./connection";
import { rebuildFts } from "./fts-index";
import { CATALOG_WORDS } from "./catalog-search";
import { quoteIdent } from "./sql";

const MIGRATIONS: (string | ((c: Conn) => void))[] = [
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
  );` + ALIASES_AND_TOKENS,
  // datastore_delete without filters keeps the resource without a table (CKAN); `version`
  // counts writes, so anything cached from a resource's rows knows when it went stale.
  `
  ALTER TABLE datastore_resources ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE datastore_resources ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  `,
  // Numbers became one full-text token (13.4, -4, 1.5e-3): every index is read again through
  // its new view. FTS5 unindexes a row by reading it back through the view, so an index may
  // never outlive the view it was built from.
  (c) => {
    const rows = c.db.prepare("SELECT table_name, fields FROM datastore_resources WHERE active = 1").all() as { table_name: string; fields: string }[];
    for (const r of rows) rebuildFts(c, { table: r.table_name, group: null }, JSON.parse(r.fields) as StoredField[]);
    c.db.exec("UPDATE datastore_resources SET version = version + 1");
  },
  // Why each index exists: the import rule's picks among `indexes`, and the indexes learned
  // from slow reads, kept apart so a declared `indexes` list never drops them by accident.
  `
  ALTER TABLE datastore_resources ADD COLUMN import_indexes TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE datastore_resources ADD COLUMN learned_indexes TEXT NOT NULL DEFAULT '[]';
  `,
  // Saved views (datastore_view_*), each of one resource by its id.
  VIEWS_TABLE,
  // Tokens limited to chosen resources and actions, and the audit trail of every write.
  TOKEN_LIMITS + auditTable("INTEGER PRIMARY KEY AUTOINCREMENT"),
  // A resource's full-text language (../text-language.ts); those made before stay english.
  "ALTER TABLE datastore_resources ADD COLUMN language TEXT NOT NULL DEFAULT 'english';",
  // resource_search at scale: each resource's words with a full-text index, and the catalog's
  // orders on indexes (catalog-search.ts); the engine fills in the words of older resources.
  CATALOG_WORDS,
  // History (issue 27, history.ts): whether a resource keeps it, the oldest version readable,
  // and the log of versions with the largest `_id` after each. What a resource held before is
  // its baseline, as of its last change.
  (c) => {
    c.db.exec(`
      ALTER TABLE datastore_resources ADD COLUMN history INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE datastore_resources ADD COLUMN history_from INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE datastore_versions (
        resource_id TEXT NOT NULL, version INTEGER NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL,
        token_id TEXT, token_name TEXT, id_to INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (resource_id, version)
      ) WITHOUT ROWID;
      CREATE INDEX datastore_versions_at ON datastore_versions (resource_id, at);
      UPDATE datastore_resources SET history_from = version;`);
    const rows = c.db.prepare("SELECT id, table_name, version, modified FROM datastore_resources WHERE active = 1").all() as { id: string; table_name: string; version: number; modified: string }[];
    const log = c.db.prepare("INSERT INTO datastore_versions (resource_id, version, at, kind, id_to) VALUES (?, ?, ?, 'baseline', ?)");
    for (const r of rows) {
      const last = c.db.prepare(`SELECT coalesce(max(_id), 0) FROM "${r.table_name}"`).pluck().get() as number;
      log.run(r.id, r.version, `${r.modified}.000Z`, last);
    }
  },
  // A token's own request budget, given by an admin (api_token_patch; lib/http/rate-limit.ts).
  TOKEN_RATE,
  // datastore_changes seeks the images replaced after its cursor: by (_valid_to, _id), in order.
  (c) => {
    const tables = c.db.prepare("SELECT table_name FROM datastore_resources").pluck().all() as string[];
    for (const table of tables) {
      const hist = `${table}_hist`;
      if (c.db.prepare("SELECT 1 FROM pragma_table_info(?) LIMIT 1").get(hist) === undefined) continue;
      c.db.exec(`DROP INDEX IF EXISTS ${quoteIdent(`${hist}_to`)}; CREATE INDEX ${quoteIdent(`${hist}_to`)} ON ${quoteIdent(hist)} (_valid_to, _id)`);
    }
  },
  // Issue 28: each new resource's objects in a group file beside this one (groups.ts); NULL
  // keeps a resource's objects in `main`, as every resource made before was. The triggers note
  // each catalog row a transaction changes, for groups.ts syncStates to copy before it commits:
  // a later migration that changes grouped resources' rows must attach their groups and sync.
  `
  ALTER TABLE datastore_resources ADD COLUMN grp INTEGER;
  CREATE INDEX datastore_resources_grp ON datastore_resources (grp);
  CREATE TABLE datastore_group_dirty (id TEXT PRIMARY KEY, grp INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TRIGGER datastore_group_dirty_insert AFTER INSERT ON datastore_resources WHEN new.grp IS NOT NULL
    BEGIN INSERT OR IGNORE INTO datastore_group_dirty VALUES (new.id, new.grp); END;
  CREATE TRIGGER datastore_group_dirty_update AFTER UPDATE ON datastore_resources WHEN old.grp IS NOT NULL
    BEGIN INSERT OR IGNORE INTO datastore_group_dirty VALUES (old.id, old.grp); END;
  CREATE TRIGGER datastore_group_dirty_delete AFTER DELETE ON datastore_resources WHEN old.grp IS NOT NULL
    BEGIN INSERT OR IGNORE INTO datastore_group_dirty VALUES (old.id, old.grp); END;
  `,
];

const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(c: Conn): void {
  const db = c.db;
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
      else step(c);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
