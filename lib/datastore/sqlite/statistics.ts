// What the engine knows about a resource's data beyond its rows: sizes on disk
// (datastore_info) and per-field statistics of a sample (the auto-index rule).
import fs from "node:fs";
import type { FieldStats, ResourceStats } from "../engine";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { groupFiles, schemaOf } from "./groups";
import { quoteIdent as q } from "./sql";

const sizeCache = new WeakMap<Conn, Map<string, { key: string; stats: ResourceStats }>>();

/** Sizes, kept until the resource or the file changes (its version, or the page count):
 *  dbstat reads every page of the resource's tables and indexes. */
export function sizes(c: Conn, r: Internal): ResourceStats {
  // The file the resource lives in (groups.ts): its pages are what its writes change.
  const schema = schemaOf(r);
  const pageCount = c.db.pragma(`${schema}.page_count`, { simple: true }) as number;
  const key = sizesKey(r, pageCount);
  let known = sizeCache.get(c);
  if (!known) sizeCache.set(c, (known = new Map()));
  const hit = known.get(r.id);
  if (hit?.key === key) return { ...hit.stats, dbSize: storeSize(c) };
  const sizeOf = (names: string[]): number =>
    names.reduce((sum, name) => sum + ((c.cache.get("SELECT pgsize FROM dbstat(?) WHERE name = ? AND aggregate = 1", "pluck").get(schema, name) as number) ?? 0), 0);
  const objects = c.db.prepare(`SELECT name, type FROM ${schema}.sqlite_schema WHERE tbl_name = ? OR tbl_name LIKE ?`).all(r.table, `${r.table}_fts%`) as {
    name: string;
    type: string;
  }[];
  const tables = objects.filter((o) => o.type === "table" && !o.name.startsWith(`${r.table}_fts`)).map((o) => o.name);
  const others = objects.filter((o) => !tables.includes(o.name) && o.name !== `${r.table}_fts`).map((o) => o.name);
  const stats = { size: sizeOf(tables), idxSize: sizeOf(others), dbSize: 0 };
  known.set(r.id, { key, stats });
  return { ...stats, dbSize: storeSize(c) };
}

/** The whole store's bytes, as CKAN's db_size is its database's: the main file's pages and
 *  every group file (groups.ts), each read when asked (other resources' writes change it). */
function storeSize(c: Conn): number {
  const main = (c.db.pragma("main.page_size", { simple: true }) as number) * (c.db.pragma("main.page_count", { simple: true }) as number);
  return groupFiles(c.db.name).reduce((sum, g) => sum + (fs.statSync(g.file, { throwIfNoEntry: false })?.size ?? 0), main);
}

function sizesKey(r: Internal, pageCount: number): string {
  return JSON.stringify([r.table, r.version, r.indexes, pageCount]);
}

/** Whether this connection has the sizes already (then `sizes` reads nothing). */
export function knowsSizes(c: Conn, r: Internal): boolean {
  const pageCount = c.db.pragma(`${schemaOf(r)}.page_count`, { simple: true }) as number;
  return sizeCache.get(c)?.get(r.id)?.key === sizesKey(r, pageCount);
}

/** Distinct values and average length per field over the first `sampleRows` rows. */
export function fieldStats(c: Conn, r: Internal, sampleRows: number): FieldStats[] {
  const fields = [...r.columns.values()];
  if (fields.length === 0) return [];
  const exprs = fields.map((f) => `count(DISTINCT ${q(f.column)}), avg(length(${q(f.column)}))`).join(", ");
  const row = c.db.prepare(`SELECT ${exprs} FROM (SELECT * FROM ${q(r.table)} ORDER BY _id LIMIT ?)`).raw(true).get(sampleRows) as (number | null)[];
  return fields.map((f, i) => ({ id: f.id, distinct: row[2 * i] ?? 0, avgLength: row[2 * i + 1] ?? 0 }));
}
