// Each resource's full-text index: a contentless FTS5 table `<table>_fts` that reads its text
// through a view of the resource table (`<table>_text`: values as text, booleans as
// true/false, numbers spelled as one token, see fts-text.ts), kept in step with every write in
// the same transaction. FTS5 reads a row back
// through the view to unindex it, so a row leaves the index before the row itself changes,
// and whatever fills the index selects from the same view.
import type { Conn } from "./connection";
import type { StoredField } from "./catalog";
import { FTS_TOKENIZER, ftsColumnExpr } from "./fts-text";
import { ftsSource, quoteIdent as q } from "./sql";

/**
 * `detail=column` keeps only which column holds each word, not positions: about half the
 * index of full detail, and all that word, prefix and per-field queries need.
 */
function ftsOptions(table: string): string {
  return `content=${q(ftsSource(table))}, content_rowid='_id', detail=column, tokenize='${FTS_TOKENIZER}'`;
}

export function ftsTable(table: string): string {
  return `${table}_fts`;
}

/** One column of the view the index reads: its text as the tokenizer should see it. */
function viewColumn(f: StoredField): string {
  return `${ftsColumnExpr(q(f.column), f.type)} AS ${q(f.column)}`;
}

export function dropFts(c: Conn, table: string): void {
  c.db.exec(`DROP TABLE IF EXISTS ${q(ftsTable(table))}`);
  c.db.exec(`DROP VIEW IF EXISTS ${q(ftsSource(table))}`);
}

/** Recreates the view and the index from the rows: needed when the set of columns, or the
 *  way the view spells a value, changes (a migration then rebuilds every resource). */
export function rebuildFts(c: Conn, table: string, fields: StoredField[]): void {
  const fts = ftsTable(table);
  dropFts(c, table);
  if (fields.length === 0) return;
  const cols = fields.map((f) => q(f.column)).join(", ");
  c.db.exec(`CREATE VIEW ${q(ftsSource(table))} AS SELECT _id, ${fields.map(viewColumn).join(", ")} FROM ${q(table)}`);
  c.db.exec(`CREATE VIRTUAL TABLE ${q(fts)} USING fts5(${cols}, ${ftsOptions(table)})`);
  c.db.exec(`INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('rebuild')`);
}

/** Puts rows `from < _id <= to` (all rows above `from` when `to` is omitted) into the index. */
export function indexRange(c: Conn, table: string, fields: StoredField[], from: number, to?: number): number {
  if (fields.length === 0) return 0;
  const cols = fields.map((f) => q(f.column)).join(", ");
  const sql = `INSERT INTO ${q(ftsTable(table))} (rowid, ${cols}) SELECT _id, ${cols} FROM ${q(ftsSource(table))} WHERE _id > ?${to === undefined ? "" : " AND _id <= ?"}`;
  return c.cache.get(sql).run(...(to === undefined ? [from] : [from, to])).changes;
}
