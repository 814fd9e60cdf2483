// A checksum of everything a database holds, to show that a rejected write left it "byte for
// byte" as it was: the schema, then every row of every table (resource tables, their
// full-text shadow tables, the catalog, aliases, tokens, sqlite_sequence) in a fixed order.
// Only api_tokens.last_used is left out: reading with a token may refresh it.
import { createHash } from "node:crypto";
import type { DB } from "../db/connection";

const IGNORED_COLUMNS: Record<string, string[]> = { api_tokens: ["last_used"] };

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function encode(v: unknown): string {
  if (Buffer.isBuffer(v)) return `x'${v.toString("hex")}'`;
  if (typeof v === "bigint") return `${v}n`;
  return JSON.stringify(v) ?? "undefined";
}

/** sha256 (hex) over the schema and all rows of every ordinary table. */
export function dbChecksum(db: DB): string {
  const hash = createHash("sha256");
  const objects = db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name")
    .all() as { type: string; name: string; sql: string | null }[];
  for (const o of objects) hash.update(`${o.type}\u0000${o.name}\u0000${o.sql ?? ""}\n`);
  for (const o of objects) {
    // Virtual tables (FTS5) are checked through their shadow tables, which hold the data.
    if (o.type !== "table" || /^CREATE VIRTUAL TABLE/i.test(o.sql ?? "")) continue;
    const columns = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(o.name) as string[]).filter(
      (c) => !IGNORED_COLUMNS[o.name]?.includes(c),
    );
    if (columns.length === 0) continue;
    const list = columns.map(quote).join(", ");
    hash.update(`#${o.name}\n`);
    const rows = db.prepare(`SELECT ${list} FROM ${quote(o.name)} ORDER BY ${columns.map((_, i) => i + 1).join(", ")}`).raw(true);
    for (const row of rows.iterate() as IterableIterator<unknown[]>) hash.update(`${row.map(encode).join(",")}\n`);
  }
  return hash.digest("hex");
}

/** The resource tables' rows by resource id, as field id → value objects (for readable diffs). */
export function resourceRows(db: DB, resourceId: string): Record<string, unknown>[] | undefined {
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
}
