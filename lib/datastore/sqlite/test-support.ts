// For tests only: look inside a SQLite datastore file from outside the engine (checksums of
// everything it holds, a resource's raw rows, FTS5's own integrity check, fault injection),
// so tests elsewhere never need to know SQLite.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import type { DatastoreEngine } from "../engine";
import { SqliteEngine } from "./engine";
import { registerFtsFunctions } from "./fts-text";
import { attachAll } from "./groups";

const IGNORED_COLUMNS: Record<string, string[]> = { api_tokens: ["last_used"] };

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function encode(v: unknown): string {
  if (Buffer.isBuffer(v)) return `x'${v.toString("hex")}'`;
  if (typeof v === "bigint") return `${v}n`;
  return JSON.stringify(v) ?? "undefined";
}

/** Runs fn on a connection of its own to `file` (read-only unless `write`), with its group
 *  files attached (groups.ts: as `g<N>`, so unqualified names resolve). `timeout`: how long a
 *  busy database is waited for, in milliseconds (better-sqlite3's default unless given). */
export function withRawDb<T>(file: string, fn: (db: Database.Database) => T, write = false, timeout?: number): T {
  const db = new Database(file, { readonly: !write, fileMustExist: true, ...(timeout === undefined ? {} : { timeout }) });
  registerFtsFunctions(db); // FTS5's integrity check reads the index's view
  attachAll(db, file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** `sqlite_schema` of every file withRawDb attached, as one subquery (groups.ts). */
export function everySchema(db: Database.Database): string {
  const files = db.prepare("SELECT name FROM pragma_database_list WHERE name <> 'temp' ORDER BY seq").pluck().all() as string[];
  return `(${files.map((s) => `SELECT type, name, tbl_name, sql FROM ${quote(s)}.sqlite_schema`).join(" UNION ALL ")})`;
}

/**
 * sha256 (hex) over the schema and every row of every ordinary table (resource tables, their
 * full-text shadow tables, the catalog, aliases, tokens, sqlite_sequence) in a fixed order, to
 * show that a rejected write left the file as it was. Only api_tokens.last_used is left out:
 * reading with a token may refresh it.
 */
export function checksumFile(file: string): string {
  return withRawDb(file, (db) => {
    const hash = createHash("sha256");
    // Every file's objects (groups.ts), each file's own sqlite_sequence included.
    const schemas = db.prepare("SELECT name FROM pragma_database_list WHERE name <> 'temp' ORDER BY seq").pluck().all() as string[];
    const objects = schemas.flatMap((schema) =>
      (
        db.prepare(`SELECT type, name, tbl_name, sql FROM ${quote(schema)}.sqlite_schema WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name`).all() as {
          type: string;
          name: string;
          sql: string | null;
        }[]
      ).map((o) => ({ ...o, schema })),
    );
    for (const o of objects) hash.update(`${o.type}\u0000${o.name}\u0000${o.sql ?? ""}\n`);
    for (const o of objects) {
      // Virtual tables (FTS5) are checked through their shadow tables, which hold the data.
      if (o.type !== "table" || /^CREATE VIRTUAL TABLE/i.test(o.sql ?? "")) continue;
      const columns = (db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).pluck().all(o.name, o.schema) as string[]).filter(
        (c) => !IGNORED_COLUMNS[o.name]?.includes(c),
      );
      if (columns.length === 0) continue;
      hash.update(`#${o.name}\n`);
      const rows = db.prepare(`SELECT ${columns.map(quote).join(", ")} FROM ${quote(o.schema)}.${quote(o.name)} ORDER BY ${columns.map((_, i) => i + 1).join(", ")}`).raw(true);
      for (const row of rows.iterate() as IterableIterator<unknown[]>) hash.update(`${row.map(encode).join(",")}\n`);
    }
    return hash.digest("hex");
  });
}

/** A resource's rows as stored, by field id (for readable diffs); undefined if unknown. */
export function resourceRows(file: string, resourceId: string): Record<string, unknown>[] | undefined {
  return withRawDb(file, (db) => {
    const row = db.prepare("SELECT table_name, fields FROM datastore_resources WHERE id = ?").get(resourceId) as
      | { table_name: string; fields: string }
      | undefined;
    if (!row) return undefined;
    const fields = JSON.parse(row.fields) as { id: string; column: string }[];
    const cols = ["_id", ...fields.map((f) => f.column)];
    const names = ["_id", ...fields.map((f) => f.id)];
    return (db.prepare(`SELECT ${cols.map(quote).join(", ")} FROM ${quote(row.table_name)} ORDER BY _id`).raw(true).all() as unknown[][]).map((r) =>
      Object.fromEntries(r.map((v, i) => [names[i], v])),
    );
  });
}

/** The generated table name behind a resource. */
export function tableOf(file: string, resourceId: string): string {
  return withRawDb(file, (db) => db.prepare("SELECT table_name FROM datastore_resources WHERE id = ?").pluck().get(resourceId) as string);
}

/** FTS5's own check that a resource's index holds exactly what its table shows (throws if not). */
export function checkFtsIntegrity(file: string, resourceId: string): void {
  const fts = quote(`${tableOf(file, resourceId)}_fts`);
  withRawDb(file, (db) => db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('integrity-check', 1)`).run(), true);
}

/** Whether the write-ahead log can be emptied into the file at once: false while a connection
 *  still reads an older snapshot (a read transaction left open), true once none does. */
export function noReaderHoldsOldSnapshot(file: string): boolean {
  return withRawDb(file, (db) => (db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[])[0].busy === 0, true, 0);
}

/** `PRAGMA integrity_check` of the file: "ok" when sound. */
export function integrityCheck(file: string): string {
  return withRawDb(file, (db) => String(db.pragma("integrity_check", { simple: true })));
}

/** Caps the engine's files (main and the groups its writer has attached) at their current
 *  sizes plus `extraPages` pages each (null lifts the caps), so the next big write fails as on a
 *  full disk. */
export function limitPages(engine: DatastoreEngine, extraPages: number | null): void {
  if (!(engine instanceof SqliteEngine)) throw new Error("limitPages needs the SQLite engine");
  for (const s of engine.schemas()) {
    engine.pragma(extraPages === null ? `${s}.max_page_count = 4294967294` : `${s}.max_page_count = ${Number(engine.pragma(`${s}.page_count`)) + extraPages}`);
  }
}

/** Resource tables (and their full-text tables) that no catalog entry owns: what a crashed
 *  write would leave behind if it were not atomic. */
export function orphanTables(file: string): string[] {
  return withRawDb(file, (db) =>
    db
      .prepare(
        `SELECT name FROM ${everySchema(db)} s WHERE type = 'table' AND name LIKE 'ds\\_%' ESCAPE '\\'
         AND NOT EXISTS (SELECT 1 FROM datastore_resources r WHERE s.name = r.table_name OR s.name LIKE r.table_name || '\\_%' ESCAPE '\\')`,
      )
      .pluck()
      .all() as string[],
  );
}
