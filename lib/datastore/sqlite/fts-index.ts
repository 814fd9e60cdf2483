// Each resource's full-text index: an external-content FTS5 table `<table>_fts` whose content
// is a view of the resource table (`<table>_text`: values as text, booleans as true/false,
// numbers spelled as one token, see fts-text.ts), kept in step with every write in the same
// transaction. FTS5 reads a row back through the view to unindex it, so a row leaves the index
// before the row itself changes, and whatever fills the index selects from the same view.
import type { Conn, DB } from "./connection";
import type { StoredField } from "./catalog";
import { DEFAULT_LANGUAGE } from "../text-language";
import { ftsColumnExpr, ftsTokenizer } from "./fts-text";
import { schemaOf } from "./groups";
import { ftsSource, quoteIdent as q } from "./sql";

/**
 * `detail=column` keeps only which column holds each word, not positions: about half the
 * index of full detail, and all that word, prefix and per-field queries need.
 */
function ftsOptions(table: string, language: string): string {
  return `content=${q(ftsSource(table))}, content_rowid='_id', detail=column, tokenize='${ftsTokenizer(language)}'`;
}

export function ftsTable(table: string): string {
  return `${table}_fts`;
}

/** One column of the view the index reads: its text as the tokenizer should see it. */
function viewColumn(f: StoredField, language: string): string {
  return `${ftsColumnExpr(q(f.column), f.type, language)} AS ${q(f.column)}`;
}

/** The view's query over `from` (quoted): the resource's table, or a table of the same columns,
 *  its text read in the resource's language. */
function textSelect(fields: StoredField[], from: string, language: string): string {
  return `SELECT _id, ${fields.map((f) => viewColumn(f, language)).join(", ")} FROM ${from}`;
}

export function dropFts(c: Conn, table: string): void {
  c.db.exec(`DROP TABLE IF EXISTS ${q(ftsTable(table))}`);
  c.db.exec(`DROP VIEW IF EXISTS ${q(ftsSource(table))}`);
}

/** Recreates the view and the index from the rows: needed when the set of columns, the
 *  resource's language, or the way the view spells a value changes (a migration then rebuilds
 *  every resource). */
export function rebuildFts(c: Conn, r: { table: string; group: number | null }, fields: StoredField[], language = DEFAULT_LANGUAGE): void {
  const table = r.table;
  const fts = ftsTable(table);
  dropFts(c, table);
  if (fields.length === 0) return;
  const cols = fields.map((f) => q(f.column)).join(", ");
  // In the table's own file (groups.ts): the view and the index read that file's tables.
  const schema = schemaOf(r);
  c.db.exec(`CREATE VIEW ${schema}.${q(ftsSource(table))} AS ${textSelect(fields, q(table), language)}`);
  c.db.exec(`CREATE VIRTUAL TABLE ${schema}.${q(fts)} USING fts5(${cols}, ${ftsOptions(table, language)})`);
  c.db.exec(`INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('rebuild')`);
}

/** Puts rows `from < _id <= to` (all rows above `from` when `to` is omitted) into the index. */
export function indexRange(c: Conn, table: string, fields: StoredField[], from: number, to?: number): number {
  if (fields.length === 0) return 0;
  const cols = fields.map((f) => q(f.column)).join(", ");
  const sql = `INSERT INTO ${q(ftsTable(table))} (rowid, ${cols}) SELECT _id, ${cols} FROM ${q(ftsSource(table))} WHERE _id > ?${to === undefined ? "" : " AND _id <= ?"}`;
  return c.cache.get(sql).run(...(to === undefined ? [from] : [from, to])).changes;
}

/** Puts every row of `from` (quoted: a table of the resource's columns, such as a bulk load's
 *  part) into the index `table`'s index, read as the view reads the resource's own rows. */
export function indexRowsOf(db: DB, table: string, fields: StoredField[], from: string, language: string): number {
  const fts = q(ftsTable(table));
  return db.prepare(`INSERT INTO ${fts} (rowid, ${fields.map((f) => q(f.column)).join(", ")}) ${textSelect(fields, from, language)}`).run().changes;
}

/**
 * An index `name` in the temp schema of the rows `rows` selects (`_id` and the resource's
 * columns, as stored), read and tokenized as the resource's own index reads its rows. It keeps
 * its text: FTS5 reads a word's occurrences in a row from it (bm25, highlight).
 */
export function tempIndex(db: DB, name: string, fields: StoredField[], rows: string, language: string): void {
  const cols = fields.map((f) => q(f.column)).join(", ");
  db.exec(`CREATE VIRTUAL TABLE temp.${q(name)} USING fts5(${cols}, detail=column, tokenize='${ftsTokenizer(language)}')`);
  db.exec(`INSERT INTO temp.${q(name)} (rowid, ${cols}) ${textSelect(fields, `(${rows})`, language)}`);
}

/** FTS5's merge settings that bulk loading changes (bulk-load.ts). */
export interface FtsSettings {
  automerge: number;
  hashsize: number;
}

/**
 * FTS5's settings while bulk indexing, and its defaults. Merging less eagerly merges a growing
 * index in fewer, larger steps; a larger in-memory batch of new terms (`hashsize`) writes
 * fewer segments to merge (docs/performance.md "Import" has what each saves).
 */
export const LOAD_FTS: FtsSettings = { automerge: 16, hashsize: 64 * 1024 * 1024 };
const DEFAULT_FTS: FtsSettings = { automerge: 4, hashsize: 1024 * 1024 };

export function ftsSettings(db: DB, table: string): FtsSettings {
  const rows = db.prepare(`SELECT k, v FROM ${q(`${ftsTable(table)}_config`)} WHERE k IN ('automerge', 'hashsize')`).all() as { k: string; v: unknown }[];
  const out = { ...DEFAULT_FTS };
  for (const { k, v } of rows) if (typeof v === "number") out[k as keyof FtsSettings] = v;
  return out;
}

/** Sets FTS5 options (`automerge`, `hashsize`, or any other it takes) as its own commands do. */
export function setFtsSettings(db: DB, table: string, settings: Record<string, unknown>): void {
  const fts = q(ftsTable(table));
  // Numbers as integer literals: FTS5 wants integers, and better-sqlite3 binds JS numbers as doubles.
  const insert = db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES (?, ?)`);
  for (const [k, v] of Object.entries(settings)) {
    if (typeof v === "number") db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('${k.replace(/'/g, "''")}', ${Math.trunc(v)})`);
    else insert.run(k, v);
  }
}

/** The options an index was given besides FTS5's own version record: what a copy must repeat. */
export function ftsOptionsSet(db: DB, table: string): Record<string, unknown> {
  const rows = db.prepare(`SELECT k, v FROM ${q(`${ftsTable(table)}_config`)} WHERE k <> 'version'`).all() as { k: string; v: unknown }[];
  return Object.fromEntries(rows.map((r) => [r.k, r.v]));
}

/** FTS5's tables behind an index of ours (content is the view, so there is no `_content`). */
const SHADOWS = ["data", "idx", "docsize", "config"];

/**
 * Replaces the index of `table` (in schema `target`) by the one of the same name and definition
 * in the attached database `schema`, built from the same rows (fts-worker.ts): FTS5's tables copied in whole,
 * the records FTS5 itself wrote there. The tables are written directly, so the connection
 * leaves defensive mode for the copy.
 */
export function adoptFts(db: DB, table: string, schema: string, target: string): void {
  // FTS5 keeps the index's layout as this connection last read it, and forgets it when a
  // savepoint rolls back that the index took part in; it takes part once written to in the
  // transaction (here: an option set to the value it has; the copy then replaces both).
  setFtsSettings(db, table, { ...ftsSettings(db, table) });
  db.exec("SAVEPOINT fts_adopt; ROLLBACK TO fts_adopt; RELEASE fts_adopt");
  db.unsafeMode(true);
  try {
    for (const s of SHADOWS) {
      const name = q(`${ftsTable(table)}_${s}`);
      db.exec(`DELETE FROM ${target}.${name}`);
      db.exec(`INSERT INTO ${target}.${name} SELECT * FROM ${q(schema)}.${name}`);
    }
  } finally {
    db.unsafeMode(false);
  }
}
