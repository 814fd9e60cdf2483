// Learned indexes in SQLite's SQL: the figures the budget (../index-learning-rule.ts) weighs,
// building one (index-builder.ts runs it on a connection of its own while the engine holds its
// write lock), and keeping them right when the declared indexes, the key or the fields change.
// The rule decides which to build.
import { now } from "../catalog-row";
import type { LearnedIndex } from "../engine";
import { budgetRefusal as overBudget, countRefusal, learnedName as nameOf, type BuildOutcome, type LearnLimits } from "../index-learning-rule";
import { findResource, type Internal } from "./catalog";
import type { Conn } from "./connection";
import { schemaOf, syncStates } from "./groups";
import { createIndex } from "./schema";
import { quoteIdent as q } from "./sql";

/** Index entries fill their pages almost fully when built in order (measured: 0.95). */
const FILL = 0.95;
/** Bytes an index entry takes besides its value: the rowid, the record header, the cell. */
const ENTRY_OVERHEAD = 8;

function learnedName(r: Internal, column: string): string {
  return nameOf(r.table, column);
}

/** Columns that some index of the table starts with, whoever made it. */
function leadingColumns(c: Conn, table: string): Set<string> {
  const out = new Set(["_id"]);
  const names = c.db.prepare("SELECT name FROM pragma_index_list(?)").pluck().all(table) as string[];
  for (const name of names) {
    const first = c.db.prepare("SELECT name FROM pragma_index_info(?) WHERE seqno = 0").pluck().get(name) as string | null | undefined;
    if (first) out.add(first);
  }
  return out;
}

/** Why an index on `field` may not be learned now (count and overlap only), or null. */
function quickRefusal(c: Conn, r: Internal | undefined, field: string, limits: LearnLimits): string | null {
  return countRefusal(r, field, r?.active ? leadingColumns(c, r.table) : new Set(), limits);
}

function bytesOf(c: Conn, r: Internal, name: string): number {
  return (c.db.prepare("SELECT pgsize FROM dbstat(?) WHERE name = ? AND aggregate = 1").pluck().get(schemaOf(r), name) as number | undefined) ?? 0;
}

/**
 * Whether an index on `field` fits the budget, read in one read transaction (it blocks nobody):
 * this one's estimate is its values' average stored length over the first 10,000 rows, times
 * the rows. Returns why not, or null.
 */
export function budgetRefusal(c: Conn, resourceId: string, field: string, limits: LearnLimits): string | null {
  return c.db.transaction(() => {
    const r = findResource(c, resourceId);
    const quick = quickRefusal(c, r, field, limits);
    if (quick || !r) return quick;
    const col = q(r.columns.get(field)!.column);
    const avg = c.db.prepare(`SELECT avg(coalesce(length(CAST(${col} AS BLOB)), 0)) FROM (SELECT ${col} FROM ${q(r.table)} ORDER BY _id LIMIT 10000)`).pluck().get() as
      | number
      | null;
    const estimate = (r.rowCount * ((avg ?? 0) + ENTRY_OVERHEAD)) / FILL;
    return overBudget(r, field, estimate, bytesOf(c, r, r.table), limits);
  })();
}

/**
 * Builds the index on `field` and records it, in one write transaction; the caller holds the
 * engine's write lock, so no other write waits on SQLite meanwhile. ANALYZE of the new index
 * alone (short: one index, not the whole table) lets the planner weigh it against the
 * declared ones. The resource's group is attached first (index-builder.ts).
 */
export function buildLearned(c: Conn, resourceId: string, field: string, reads: number, limits: LearnLimits): BuildOutcome {
  c.db.exec("BEGIN IMMEDIATE");
  try {
    const r = findResource(c, resourceId);
    const refused = quickRefusal(c, r, field, limits);
    if (refused || !r) {
      c.db.exec("ROLLBACK");
      return { refused: refused ?? "the resource is gone" };
    }
    const column = r.columns.get(field)!.column;
    const name = learnedName(r, column);
    const started = performance.now();
    createIndex(c, `CREATE INDEX ${schemaOf(r)}.${q(name)} ON ${q(r.table)} (${q(column)})`, schemaOf(r));
    c.db.exec(`ANALYZE ${q(name)}`);
    const buildMs = Math.round(performance.now() - started);
    const built: LearnedIndex = { fields: [field], created: now(), reads, buildMs, bytes: bytesOf(c, r, name) };
    saveLearned(c, r.id, [...r.learnedIndexes, built]);
    syncStates(c);
    c.db.exec("COMMIT");
    return { built };
  } catch (e) {
    if (c.db.inTransaction) c.db.exec("ROLLBACK");
    throw e;
  }
}

function saveLearned(c: Conn, id: string, learned: LearnedIndex[]): void {
  c.db.prepare("UPDATE datastore_resources SET learned_indexes = ? WHERE id = ?").run(JSON.stringify(learned), id);
}

function dropWhere(c: Conn, id: string, drop: (ix: LearnedIndex, r: Internal) => boolean): void {
  const r = findResource(c, id);
  if (!r || r.learnedIndexes.length === 0) return;
  const keep: LearnedIndex[] = [];
  for (const ix of r.learnedIndexes) {
    const f = r.columns.get(ix.fields[0]);
    if (f && !drop(ix, r)) keep.push(ix);
    else if (f) c.db.exec(`DROP INDEX IF EXISTS ${q(learnedName(r, f.column))}`);
  }
  if (keep.length !== r.learnedIndexes.length) saveLearned(c, id, keep);
}

/** After the declared indexes or the key changed: a learned index that one of them now starts
 *  with the same field as is redundant, and goes (the declared one wins). */
export function dropCovered(c: Conn, id: string): void {
  dropWhere(c, id, (ix, r) => r.primaryKey[0] === ix.fields[0] || r.indexes.some((d) => d[0] === ix.fields[0]));
}

/** Before fields are dropped: SQLite drops no column an index uses. */
export function dropOnFields(c: Conn, id: string, fields: string[]): void {
  if (fields.length) dropWhere(c, id, (ix) => ix.fields.some((f) => fields.includes(f)));
}

/** After the table was dropped (its indexes with it): nothing learned or picked is left. */
export function forget(c: Conn, id: string): void {
  c.db.prepare("UPDATE datastore_resources SET learned_indexes = '[]', import_indexes = '[]' WHERE id = ?").run(id);
}

/**
 * After the declared indexes were set: which of them the import rule chose. An index keeps the
 * reason it was made with while it stays declared; one no longer declared is forgotten.
 */
export function recordImportPicks(c: Conn, id: string, atImport: string[][]): void {
  const r = findResource(c, id);
  if (!r) return;
  const key = (ix: string[]) => JSON.stringify(ix);
  const declared = new Set(r.indexes.map(key));
  const picks = [...new Set([...r.importIndexes, ...atImport].map(key))].filter((k) => declared.has(k));
  c.db.prepare("UPDATE datastore_resources SET import_indexes = ? WHERE id = ?").run(`[${picks.join(",")}]`, id);
}
