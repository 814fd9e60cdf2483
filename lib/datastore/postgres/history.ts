// A resource's history on PostgreSQL, the SQLite engine's design in PostgreSQL's SQL
// (lib/datastore/history.ts holds the rules): `_id` only grows, so the log's `id_to` (the largest
// `_id` after each version) tells which rows a version inserted; an updated row's version is
// kept in the row, in its `_v` column (0: not updated since its insert; made with the history
// tables, out of every field list), and the images updates and deletes replaced in
// `<table>_hist` with their [from, to) versions (from 0: since the row's insert) and their
// `_full_text`, so `q` reads them as it reads the table, and copies of the table's btree
// indexes, so a filter reaches them as it reaches the table's rows. An image and the row's `_v` are
// written in the same statement as the change. An `as_of` read reads a subquery of the rows
// valid then in place of the table (source()).
// Each version's field list: `<table>_fields` (../past-fields.ts).
import pg from "pg";
import type { ChangesPage, Field, HistorySize, HistoryState, RowChange, RowImage, SearchQuery, VersionEntry, WriteAuthor } from "../engine";
import { quoteIdent as q, type PgResource, type Queryable, type StoredField } from "./resource";
import { imagesPast, insertsPast, mergeChanges } from "../history";
import { listAt, retiredFields, rowReader, withFields, type FieldList } from "../past-fields";
import { fullTextExpression } from "./fts";
import { selectColumn } from "./read-plan";
import { columnType, toParam } from "./values";

export function histTable(table: string): string {
  return `${table}_hist`;
}

export function fieldsTable(table: string): string {
  return `${table}_fields`;
}

async function exists(db: Queryable, name: string): Promise<boolean> {
  const { rows } = await db.query("SELECT to_regclass($1) IS NOT NULL AS x", [q(name)]);
  return rows[0].x === true;
}

/** Which of a table's history tables exist: its images', and its past field lists'. */
async function historyTables(db: Queryable, table: string): Promise<{ hist: boolean; fields: boolean }> {
  const { rows } = await db.query("SELECT to_regclass($1) IS NOT NULL AS hist, to_regclass($2) IS NOT NULL AS fields", [q(histTable(table)), q(fieldsTable(table))]);
  return rows[0];
}

export async function keepsHistory(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query("SELECT history FROM datastore_resources WHERE id = $1", [id]);
  return rows[0]?.history === true;
}

/** The lists of fields the resource had before its field changes, in `until` order. */
async function fieldLists(db: Queryable, table: string, known?: boolean): Promise<FieldList[]> {
  if (!(known ?? (await exists(db, fieldsTable(table))))) return [];
  const { rows } = await db.query(`SELECT until, fields FROM ${q(fieldsTable(table))} ORDER BY until`);
  return (rows as { until: string; fields: string }[]).map((row) => ({ until: Number(row.until), fields: JSON.parse(row.fields) as StoredField[] }));
}

/**
 * After datastore_create changed the fields (the catalog holds the new list, one version up):
 * keeps the list `r` had until then, when the resource keeps history, and logs the change as
 * a version, so a read as of any version before it reads it as it was.
 */
export async function keepFieldList(db: Queryable, r: PgResource, keep: boolean, author: WriteAuthor | undefined): Promise<void> {
  if (keep) {
    const name = q(fieldsTable(r.table));
    await db.query(`CREATE TABLE IF NOT EXISTS ${name} (until bigint PRIMARY KEY, fields text NOT NULL)`);
    await db.query(`INSERT INTO ${name} (until, fields) VALUES ($1, $2) ON CONFLICT (until) DO UPDATE SET fields = EXCLUDED.fields`, [r.version, JSON.stringify([...r.columns.values()])]);
  }
  await logVersion(db, r, "fields", author);
}

/** The fields version v had, when not today's. */
export async function fieldsAt(db: Queryable, r: PgResource, v: number): Promise<Field[] | undefined> {
  const then = listAt(await recall(db, r, "fields", () => fieldLists(db, r.table)), v);
  return then && withFields(r, then).fields;
}

/** The history tables, made at a resource's first update or delete that keeps history; answers
 *  the columns its images keep: today's fields', then the retired ones' (../past-fields.ts). */
export async function ensureHistoryTables(db: Queryable, r: PgResource): Promise<StoredField[]> {
  const hist = histTable(r.table);
  const found = await historyTables(db, r.table);
  const today = [...r.columns.values()];
  const columns = found.fields ? [...today, ...retiredFields(await fieldLists(db, r.table, true), today)] : today;
  if (found.hist) {
    await mirrorIndexes(db, r.table);
    return columns;
  }
  const cols = columns.map((f) => `, ${q(f.column)} ${columnType(f.type)}`).join("");
  // `_v` with a constant default: no rewrite of the table (PostgreSQL 11+). `_hist_gone`: the
  // rows deleted after a version, which an as_of read's row count adds (atVersion).
  await db.query(
    `CREATE TABLE ${q(hist)} ("_hid" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "_id" bigint NOT NULL, "_valid_from" bigint NOT NULL, "_valid_to" bigint NOT NULL, "_deleted" boolean NOT NULL DEFAULT false, "_full_text" tsvector${cols});
     CREATE INDEX ${q(`${hist}_id`)} ON ${q(hist)} ("_id", "_valid_from");
     CREATE INDEX ${q(`${hist}_to`)} ON ${q(hist)} ("_valid_to", "_id");
     CREATE INDEX ${q(`${hist}_gone`)} ON ${q(hist)} ("_valid_to", "_id") WHERE "_deleted";
     ALTER TABLE ${q(r.table)} ADD COLUMN IF NOT EXISTS "_v" bigint NOT NULL DEFAULT 0`,
  );
  await mirrorIndexes(db, r.table);
  return columns;
}

/** Suffix of an index of `_hist` copied from one of the table's. */
const MIRROR = "_h";

/**
 * The table's btree indexes (declared, keys, learned; `_id`'s aside) copied onto `_hist`, not
 * unique, as `<index>_h`: an as_of read's filters reach the images by them as they reach the
 * table's rows (a count of `origin = 'SEA'` as of a version would otherwise read every image).
 * Brought up to date at each write that keeps images: an index made since is copied then. A
 * copy whose index was dropped stays: dropping it there would wait, inside the user's write,
 * for every as_of read of the images to end (an exclusive lock), and a stale copy is harmless.
 */
async function mirrorIndexes(db: Queryable, table: string): Promise<void> {
  const { rows } = await db.query<{ name: string; def: string; live: boolean }>(
    `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS def, i.indrelid = $1::regclass AS live
     FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid JOIN pg_am AS a ON a.oid = c.relam
     WHERE i.indrelid IN ($1::regclass, $2::regclass) AND NOT i.indisprimary AND i.indisvalid AND a.amname = 'btree'`,
    [q(table), q(histTable(table))],
  );
  // Within PostgreSQL's 63 bytes (index names are ASCII): a longer name would be cut, and not found again.
  const wanted = new Map(rows.filter((row) => row.live).map((row) => [`${row.name.slice(0, 63 - MIRROR.length)}${MIRROR}`, row.def]));
  const kept = new Set(rows.filter((row) => !row.live && row.name.endsWith(MIRROR)).map((row) => row.name));
  for (const [name, def] of wanted) {
    // The definition from its method on (`USING btree (…) [WHERE …]`), on the images.
    if (!kept.has(name)) await db.query(`CREATE INDEX ${q(name)} ON ${q(histTable(table))}${def.slice(def.indexOf(" USING "))}`);
  }
}

export async function alterHistoryColumns(db: Queryable, table: string, add: StoredField[], drop: string[]): Promise<void> {
  const hist = histTable(table);
  if (!(await exists(db, hist))) return;
  for (const col of drop) await db.query(`ALTER TABLE ${q(hist)} DROP COLUMN ${q(col)}`);
  for (const f of add) await db.query(`ALTER TABLE ${q(hist)} ADD COLUMN ${q(f.column)} ${columnType(f.type)}`);
}

export async function dropHistory(db: Queryable, table: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${q(histTable(table))}; DROP TABLE IF EXISTS ${q(fieldsTable(table))}`);
}

/** Logs the version a write just recorded in the catalog (after catalog.touch), with the
 *  largest `_id` ever given (ids are not reused: a delete of the last rows must not make their
 *  ids look inserted later; a create starts a new table, counted from its rows). */
export async function logVersion(db: Queryable, r: PgResource, kind: string, author: WriteAuthor | undefined): Promise<void> {
  await db.query(
    `INSERT INTO datastore_versions (resource_id, version, at, kind, token_id, token_name, id_to)
     SELECT id, version, $1, $2, $3, $4, greatest((SELECT coalesce(max("_id"), 0) FROM ${q(r.table)}),
       CASE WHEN $2 = 'create' THEN 0 ELSE (SELECT p.id_to FROM datastore_versions AS p WHERE p.resource_id = $5 AND p.version < datastore_resources.version ORDER BY p.version DESC LIMIT 1) END)
     FROM datastore_resources WHERE id = $5
     ON CONFLICT (resource_id, version) DO UPDATE SET at = EXCLUDED.at, kind = EXCLUDED.kind, token_id = EXCLUDED.token_id, token_name = EXCLUDED.token_name, id_to = EXCLUDED.id_to;
     `,
    [new Date().toISOString(), kind, author?.tokenId ?? null, author?.tokenName ?? null, r.id],
  );
  await db.query("UPDATE datastore_resources SET history_from = version WHERE id = $1 AND NOT history", [r.id]);
}

/** The row writer's SQL for one version: each image kept in the statement that changes it. */
export class ImageKeeper {
  private readonly cols: string[];
  constructor(
    private readonly r: PgResource,
    private readonly version: number,
    /** The largest `_id` before this version: rows past it are this version's inserts, and
     *  updating one again in the same batch keeps no image (no reader could see it). */
    private readonly insertedAfter: number | null,
    /** The field columns an image keeps (ensureHistoryTables). */
    columns: StoredField[],
  ) {
    this.cols = ['"_id"', '"_full_text"', ...columns.map((f) => q(f.column))];
  }

  /** Rows this version may keep an image of: those it did not insert. */
  private kept(t: string): string {
    return this.insertedAfter === null ? "true" : `${t}."_id" <= ${this.insertedAfter}`;
  }

  /** A WITH prefix for an UPDATE of the rows whose `_id`s are the bigint[] parameter `ids`
   *  (a placeholder): their images before it, once per row and version (a row's `_v` is this
   *  version once its image is kept). */
  beforeUpdate(ids: string): string {
    return `WITH ds_kept AS (INSERT INTO ${q(histTable(this.r.table))} ("_valid_from", "_valid_to", ${this.cols.join(", ")})
      SELECT t."_v", ${this.version}, ${this.cols.map((c) => `t.${c}`).join(", ")} FROM ${q(this.r.table)} AS t WHERE t."_id" = ANY(${ids}) AND t."_v" <> ${this.version} AND ${this.kept("t")}) `;
  }

  /** The SET item of that UPDATE (table alias `t`) that gives each row whose image it kept
   *  this version. */
  versionSet(): string {
    return `"_v" = CASE WHEN ${this.kept("t")} THEN ${this.version} ELSE t."_v" END`;
  }

  /** A DELETE of the rows matching `cond` (over alias `t`) that keeps their images; its one
   *  row is how many went. */
  deleteSql(cond: string): string {
    return `WITH ds_gone AS (DELETE FROM ${q(this.r.table)} AS t${cond ? ` WHERE ${cond}` : ""} RETURNING t."_v", ${this.cols.map((c) => `t.${c}`).join(", ")}),
      ds_kept AS (INSERT INTO ${q(histTable(this.r.table))} ("_valid_from", "_valid_to", "_deleted", ${this.cols.join(", ")}) SELECT g."_v", ${this.version}, true, ${this.cols.map((c) => `g.${c}`).join(", ")} FROM ds_gone AS g)
      SELECT count(*)::int8 AS n FROM ds_gone`;
  }
}

async function one<T>(db: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  const { rows } = await db.query(sql, params);
  return rows[0] as T | undefined;
}

/** The largest `_id` before version v (null: none logged). */
export async function lastIdBefore(db: Queryable, id: string, v: number): Promise<number | null> {
  const row = await one<{ id_to: string }>(db, "SELECT id_to FROM datastore_versions WHERE resource_id = $1 AND version < $2 ORDER BY version DESC LIMIT 1", [id, v]);
  return row ? Number(row.id_to) : null;
}

/** Answers about a resource's past, per pool, by the resource, its version and the question:
 *  they hold while the resource stays at that version (each write makes a new one; pruning
 *  removes only what no readable version reads). Outside transactions only: a transaction's
 *  own writes may roll back, and its version with them. */
const remembered = new WeakMap<object, Map<string, unknown>>();
const REMEMBERED = 256;

async function recall<T>(db: Queryable, r: PgResource, question: string, read: () => Promise<T>, readAt?: (value: T) => number): Promise<T> {
  if (!(db instanceof pg.Pool)) return read();
  let kept = remembered.get(db);
  if (!kept) remembered.set(db, (kept = new Map()));
  const key = `${r.id}\0${r.table}\0${r.version}\0${question}`;
  if (kept.has(key)) return kept.get(key) as T;
  const value = await read();
  // Counts of today's rows are kept only when read at the caller's version: `r` may be a little
  // old (../resolved.ts), and what another server wrote since would be kept under the version before it.
  if (readAt && readAt(value) !== r.version) return value;
  if (kept.size >= REMEMBERED) kept.delete(kept.keys().next().value!);
  kept.set(key, value);
  return value;
}

/** The largest `_id` at version v (the newest logged at or before it). */
async function lastIdAt(db: Queryable, id: string, v: number): Promise<number> {
  const row = await one<{ id_to: string }>(db, "SELECT id_to FROM datastore_versions WHERE resource_id = $1 AND version <= $2 ORDER BY version DESC LIMIT 1", [id, v]);
  return row ? Number(row.id_to) : 0;
}

/** The version that inserted row `_id`: the first of the table's life whose largest `_id` reaches it. */
async function insertedAt(db: Queryable, r: PgResource, rowId: number): Promise<number> {
  const row = await one<{ v: string | null }>(
    db,
    `SELECT min(version) AS v FROM datastore_versions WHERE resource_id = $1 AND id_to >= $2
     AND version >= (SELECT coalesce(max(version), 0) FROM datastore_versions WHERE resource_id = $1 AND kind = 'create')`,
    [r.id, rowId],
  );
  return row?.v == null ? 0 : Number(row.v);
}

/**
 * The resource as it was at `query.asOf`: the same resource, read through a subquery of the
 * rows valid then (live rows inserted by then and not updated since, and the images valid
 * then), with that version's row count.
 *
 * The two parts are a UNION ALL of plain selects, each with the [from, to) versions it is
 * valid in (a live row's from its `_v`), filtered outside it: a UNION ALL whose parts have no
 * WHERE of their own is what PostgreSQL flattens into one relation of two tables, where the
 * read's own filters reach each table's indexes and an ORDER BY … LIMIT merges two index
 * scans; with a WHERE (or a join) in a part, each part is planned alone, unordered, and a
 * page in `_id` order sorted every row of the version.
 */
export async function atVersion(db: Queryable, today: PgResource, query: SearchQuery): Promise<PgResource> {
  const v = query.asOf;
  if (v === undefined) return today;
  const { hist: hasHist, then, last, later, gone } = await recall(db, today, `past\0${v}`, () => readPast(db, today, v), (past) => past.version);
  // With its field list then: a dropped field's column is still in both tables (../past-fields.ts).
  const r = then ? withFields(today, then) : today;
  const fields = [...r.columns.values()];
  // A field dropped since is not in today's `_full_text` (nor in images kept after the drop):
  // the words of then are read from the version's columns, which stay while history needs them.
  const todayColumns = new Set([...today.columns.values()].map((f) => f.column));
  const text = fields.some((f) => !todayColumns.has(f.column)) ? `${fullTextExpression(fields, "t", r.language)} AS "_full_text"` : 't."_full_text"';
  const cols = ['t."_id"', text, ...fields.map((f) => `t.${q(f.column)}`)].join(", ");
  const outer = ['u."_id"', 'u."_full_text"', ...fields.map((f) => `u.${q(f.column)}`)].join(", ");
  const sql = hasHist
    ? `(SELECT ${outer} FROM (SELECT ${cols}, t."_v" AS "_from", ${Number.MAX_SAFE_INTEGER}::int8 AS "_to" FROM ${q(r.table)} AS t
        UNION ALL SELECT ${cols}, t."_valid_from", t."_valid_to" FROM ${q(histTable(r.table))} AS t) AS u
        WHERE u."_id" <= ${last} AND u."_from" <= ${v} AND u."_to" > ${v})`
    : `(SELECT ${cols} FROM ${q(r.table)} AS t WHERE t."_id" <= ${last})`;
  // Each row of then is live today or was deleted since: today's less those inserted after it,
  // plus those deleted since.
  return { ...r, source: sql, rowCount: r.rowCount - later + gone };
}

/** What a read as of v needs: whether images are kept, the field list then (when not today's),
 *  the largest `_id` then, today's rows inserted after and the rows of then deleted since
 *  (`_hist_gone`); each count from an index range. */
/** What a read as of v needs, with the resource's version its counts were read at (-1 when
 *  its two statements saw different ones). */
async function readPast(db: Queryable, r: PgResource, v: number): Promise<{ version: number; hist: boolean; then: StoredField[] | undefined; last: number; later: number; gone: number }> {
  const version = `(SELECT version FROM datastore_resources WHERE id = $3)::int8 AS version`;
  const head = (await one<{ version: string; hist: boolean; fields: boolean; last: string | null; later: string }>(
    db,
    `SELECT ${version}, to_regclass($1) IS NOT NULL AS hist, to_regclass($2) IS NOT NULL AS fields, l.id_to AS last,
       (SELECT count(*) FROM ${q(r.table)} WHERE "_id" > coalesce(l.id_to, 0))::int8 AS later
     FROM (SELECT (SELECT id_to FROM datastore_versions WHERE resource_id = $3 AND version <= $4 ORDER BY version DESC LIMIT 1) AS id_to) AS l`,
    [q(histTable(r.table)), q(fieldsTable(r.table)), r.id, v],
  ))!;
  const last = Number(head.last ?? 0);
  const then = head.fields ? listAt(await fieldLists(db, r.table, true), v) : undefined;
  const tail = head.hist
    ? (await one<{ version: string; n: string }>(db, `SELECT ${version}, (SELECT count(*) FROM ${q(histTable(r.table))} WHERE "_deleted" AND "_valid_to" > $1 AND "_id" <= $2)::int8 AS n`, [v, last, r.id]))!
    : { version: head.version, n: "0" };
  return { version: tail.version === head.version ? Number(head.version) : -1, hist: head.hist, then, last, later: Number(head.later), gone: Number(tail.n) };
}

interface LogRow {
  version: string;
  at: string;
  kind: string;
  token_name: string | null;
}

function entry(row: LogRow): VersionEntry {
  return { version: Number(row.version), time: row.at, kind: row.kind, token: row.token_name };
}

export async function historyState(db: Queryable, r: PgResource): Promise<HistoryState> {
  const row = (await one<{ version: string; history: boolean; history_from: string; written: string | null; at: string | null }>(
    db,
    `SELECT r.version, r.history, r.history_from, l.version AS written, l.at FROM datastore_resources AS r
     LEFT JOIN LATERAL (SELECT version, at FROM datastore_versions WHERE resource_id = r.id ORDER BY version DESC LIMIT 1) AS l ON true
     WHERE r.id = $1`,
    [r.id],
  ))!;
  const written = Number(row.written ?? row.history_from);
  return { version: Number(row.version), written, lastModified: row.at, enabled: row.history, oldest: row.history ? Number(row.history_from) : written };
}

export async function historySize(db: Queryable, r: PgResource): Promise<HistorySize> {
  const from = (await historyState(db, r)).oldest;
  const versions = Number((await one<{ n: string }>(db, "SELECT count(*)::int8 AS n FROM datastore_versions WHERE resource_id = $1 AND version >= $2", [r.id, from]))!.n);
  const hist = histTable(r.table);
  if (!(await exists(db, hist))) return { versions, rows: 0, bytes: 0 };
  const row = (await one<{ n: string; b: string }>(db, `SELECT (SELECT count(*) FROM ${q(hist)})::int8 AS n, pg_total_relation_size($1::regclass)::int8 AS b`, [q(hist)]))!;
  return { versions, rows: Number(row.n), bytes: Number(row.b) };
}

export function versionAt(db: Queryable, r: PgResource, at: { version: number } | { time: string }): Promise<VersionEntry | undefined> {
  return recall(db, r, `at\0${JSON.stringify(at)}`, async () => {
    const row =
      "version" in at
        ? await one<LogRow>(db, "SELECT * FROM datastore_versions WHERE resource_id = $1 AND version <= $2 ORDER BY version DESC LIMIT 1", [r.id, at.version])
        : await one<LogRow>(db, "SELECT * FROM datastore_versions WHERE resource_id = $1 AND at <= $2 ORDER BY at DESC, version DESC LIMIT 1", [r.id, at.time]);
    return row ? entry(row) : undefined;
  });
}

export async function versionEntries(db: Queryable, r: PgResource, versions: number[]): Promise<VersionEntry[]> {
  if (versions.length === 0) return [];
  const { rows } = await db.query("SELECT * FROM datastore_versions WHERE resource_id = $1 AND version = ANY($2::int8[])", [r.id, versions]);
  return (rows as LogRow[]).map(entry);
}

/** `_id` and every field column an image keeps, as selected (json as text), and a row of them
 *  as field ids to JSON values with the field list version v had. */
async function decoder(db: Queryable, r: PgResource): Promise<{ cols: string; decode: (row: unknown[], v: number) => Record<string, unknown> }> {
  const lists = await fieldLists(db, r.table);
  const today = [...r.columns.values()];
  const columns = [...today, ...retiredFields(lists, today)];
  const selected = columns.map((f) => selectColumn(f));
  // A column keeps the type it was made with: its decoding is the column's.
  const decodeOf = new Map(columns.map((f, i) => [f.column, selected[i].decode]));
  const read = rowReader(columns, (f, value) => decodeOf.get(f.column)!(value));
  return { cols: ['t."_id"', ...selected.map((s) => s.sql)].join(", "), decode: (row, v) => read(row, listAt(lists, v) ?? today) };
}

async function rows(db: Queryable, sql: string, params: unknown[]): Promise<unknown[][]> {
  return (await db.query({ text: sql, values: params, rowMode: "array" })).rows as unknown[][];
}

export async function rowImages(db: Queryable, r: PgResource, row: { id: number } | { key: Record<string, unknown> }): Promise<{ id: number; ids: number[]; images: RowImage[] } | undefined> {
  const hist = histTable(r.table);
  const hasHist = await exists(db, hist);
  let ids: number[];
  if ("id" in row) ids = [row.id];
  else {
    const params: unknown[] = [];
    const cond = Object.keys(row.key)
      .map((k) => {
        const f = r.columns.get(k)!;
        const v = toParam(f.type, row.key[k]);
        if (v === null || v === undefined) return `${q(f.column)} IS NULL`;
        params.push(v);
        return f.type === "json" ? `${q(f.column)}::text = $${params.length}::text` : `${q(f.column)} = $${params.length}`;
      })
      .join(" AND ");
    // Every row that held the key, oldest first: a delete and insert again gives a new _id.
    ids = (await rows(db, `SELECT "_id" FROM ${q(r.table)} WHERE ${cond}${hasHist ? ` UNION SELECT "_id" FROM ${q(hist)} WHERE ${cond}` : ""} ORDER BY 1`, params)).map((x) => Number(x[0]));
  }
  const { cols, decode } = await decoder(db, r);
  const images: RowImage[] = [];
  const found: number[] = [];
  for (const id of ids) {
    const own: (Omit<RowImage, "record"> & { row: unknown[] })[] = [];
    if (hasHist) {
      for (const [from, to, deleted, ...rest] of await rows(db, `SELECT t."_valid_from", t."_valid_to", t."_deleted", ${cols} FROM ${q(hist)} AS t WHERE t."_id" = $1 ORDER BY t."_valid_from"`, [id])) {
        own.push({ from: Number(from), to: Number(to), deleted: deleted === true, row: rest });
      }
    }
    const live = (await rows(db, `SELECT ${hasHist ? 't."_v"' : "NULL"}, ${cols} FROM ${q(r.table)} AS t WHERE t."_id" = $1`, [id]))[0];
    if (live) own.push({ from: live[0] == null ? 0 : Number(live[0]), to: null, deleted: false, row: live.slice(1) });
    if (own.length === 0) continue;
    for (const img of own) if (img.from === 0) img.from = await insertedAt(db, r, id);
    // Each version's record is read with the field list it had.
    images.push(...own.map(({ row: stored, ...img }) => ({ ...img, record: decode(stored, img.from) })));
    found.push(id);
  }
  if (found.length === 0) return undefined;
  return { id: found[found.length - 1], ids: found, images };
}

/** Changes after `since`, in (version, _id) order, as the SQLite engine lists them (its
 *  history.ts): the rows inserted since, and each image replaced since, each list sought from the
 *  cursor by index and merged; counted on the first page only; a page's rows read in two queries. */
export async function changes(db: Queryable, r: PgResource, since: number, after: { version: number; id: number } | null, limit: number): Promise<ChangesPage> {
  const t = q(r.table);
  const hasHist = await exists(db, histTable(r.table));
  const h = q(histTable(r.table));
  const last = await lastIdAt(db, r.id, since);
  const counts = after ? null : await countChanges(db, r, since, last, hasHist);
  if (limit <= 0) return { changes: [], total: counts?.n ?? null, records: counts?.d ?? null };
  const past = insertsPast(last, after, after ? await lastIdAt(db, r.id, after.version - 1) : 0, after ? await lastIdAt(db, r.id, after.version) : 0);
  // $1 resource, $2 the first version an insert past the cursor may have, $3 past, $4 limit. A
  // row updated or deleted since has its insert's image (from 0); one that was not, only its live row.
  const ids = hasHist
    ? `SELECT DISTINCT id FROM ((SELECT "_id" AS id FROM ${t} WHERE "_id" > $3 ORDER BY "_id" LIMIT $4) UNION ALL (SELECT "_id" FROM ${h} WHERE "_id" > $3 AND "_valid_from" = 0 ORDER BY "_id" LIMIT $4)) AS u ORDER BY id LIMIT $4`
    : `SELECT "_id" AS id FROM ${t} WHERE "_id" > $3 ORDER BY "_id" LIMIT $4`;
  const inserts = await rows(
    db,
    `SELECT (SELECT version FROM datastore_versions WHERE resource_id = $1 AND version >= $2 AND id_to >= x.id ORDER BY version LIMIT 1), x.id FROM (${ids}) AS x`,
    [r.id, Math.max(since + 1, after?.version ?? 0), past, limit],
  );
  const seek = imagesPast(since, after);
  const images = hasHist
    ? await rows(db, `SELECT "_valid_to", "_id", "_deleted" FROM ${h} WHERE ("_valid_to", "_id") > ($1::int8, $2::int8) ORDER BY "_valid_to", "_id" LIMIT $3`, [seek.av, seek.ai, limit])
    : [];
  const page = mergeChanges(
    inserts.map(([v, id]) => ({ v: Number(v), id: Number(id), k: "i" as const })),
    images.map(([v, id, d]) => ({ v: Number(v), id: Number(id), k: d === true ? ("d" as const) : ("u" as const) })),
    limit,
  );
  const { cols, decode } = await decoder(db, r);
  // The images the page shows: each change's row after (kept from its version, or from 0 for
  // an insert) and before (kept to its version); else the live row, when its version is that.
  const from = page.filter((x) => x.k !== "d").map((x) => [x.id, x.k === "i" ? 0 : x.v]);
  const to = page.filter((x) => x.k !== "i").map((x) => [x.id, x.v]);
  const kept = new Map<string, unknown[]>();
  if (hasHist && page.length) {
    const found = await rows(
      db,
      `SELECT 'f', t."_valid_from", ${cols} FROM ${h} AS t JOIN unnest($1::int8[], $2::int8[]) AS p(id, v) ON t."_id" = p.id AND t."_valid_from" = p.v
       UNION ALL SELECT 't', t."_valid_to", ${cols} FROM ${h} AS t JOIN unnest($3::int8[], $4::int8[]) AS p(id, v) ON t."_id" = p.id AND t."_valid_to" = p.v`,
      [from.map((x) => x[0]), from.map((x) => x[1]), to.map((x) => x[0]), to.map((x) => x[1])],
    );
    for (const [side, v, ...row] of found) kept.set(`${side}:${Number(row[0])}:${Number(v)}`, row);
  }
  const liveIds = from.filter(([id, f]) => !kept.has(`f:${id}:${f}`)).map(([id]) => id);
  const live = new Map<number, { v: number; row: unknown[] }>();
  if (liveIds.length) {
    const version = hasHist ? 't."_v"' : "0";
    for (const [v, ...row] of await rows(db, `SELECT ${version}, ${cols} FROM ${t} AS t WHERE t."_id" = ANY($1::int8[])`, [liveIds])) live.set(Number(row[0]), { v: Number(v), row });
  }
  const out: RowChange[] = page.map(({ v, id, k }) => {
    let now: unknown[] | undefined;
    if (k !== "d") {
      const f = k === "i" ? 0 : v;
      const l = live.get(id);
      now = kept.get(`f:${id}:${f}`) ?? (l?.v === f ? l.row : undefined);
    }
    const old = k === "i" ? undefined : kept.get(`t:${id}:${v}`);
    // The row after, with the version's field list; before, with the list just before it.
    return { version: v, id, record: now ? decode(now, v) : null, old: old ? decode(old, v - 1) : null };
  });
  return { changes: out, total: counts?.n ?? null, records: counts?.d ?? null };
}

/** How many changes follow `since`, and how many rows they touch: the rows inserted since (every
 *  "_id" past the largest then, live or kept) and the images replaced since. */
async function countChanges(db: Queryable, r: PgResource, since: number, last: number, hasHist: boolean): Promise<{ n: number; d: number }> {
  const t = q(r.table);
  if (!hasHist) {
    const n = Number((await one<{ n: string }>(db, `SELECT count(*)::int8 AS n FROM ${t} WHERE "_id" > $1`, [last]))!.n);
    return { n, d: n };
  }
  const h = q(histTable(r.table));
  const row = (await one<{ i: string; u: string; d: string }>(
    db,
    `SELECT (SELECT count(*) FROM (SELECT "_id" FROM ${t} WHERE "_id" > $1 UNION SELECT "_id" FROM ${h} WHERE "_id" > $1) AS x)::int8 AS i,
       (SELECT count(*) FROM ${h} WHERE "_valid_to" > $2)::int8 AS u,
       (SELECT count(*) FROM (SELECT "_id" FROM ${t} WHERE "_id" > $1 UNION SELECT "_id" FROM ${h} WHERE "_id" > $1 OR "_valid_to" > $2) AS x)::int8 AS d`,
    [last, since],
  ))!;
  return { n: Number(row.i) + Number(row.u), d: Number(row.d) };
}

/** Removes images no version from the newest logged at or before `before` on can read, and
 *  makes that version the oldest kept; returns how many images went. */
export async function prune(db: Queryable, r: PgResource, before: string): Promise<number> {
  const keep = await one<{ v: string | null }>(db, "SELECT max(version) AS v FROM datastore_versions WHERE resource_id = $1 AND at <= $2", [r.id, before]);
  if (keep?.v == null || Number(keep.v) <= (await historyState(db, r)).oldest) return 0;
  await db.query("UPDATE datastore_resources SET history_from = greatest(history_from, $1) WHERE id = $2", [keep.v, r.id]);
  await pruneFieldLists(db, r, Number(keep.v));
  if (!(await exists(db, histTable(r.table)))) return 0;
  const res = await db.query(`DELETE FROM ${q(histTable(r.table))} WHERE "_valid_to" <= $1`, [keep.v]);
  return res.rowCount ?? 0;
}

/** Removes the field lists no version from `keep` on reads, and the retired columns (live and
 *  kept) that no list still names. */
async function pruneFieldLists(db: Queryable, r: PgResource, keep: number): Promise<void> {
  const lists = await fieldLists(db, r.table);
  if (lists.length === 0) return;
  const today = [...r.columns.values()];
  const named = new Set(retiredFields(lists.filter((l) => l.until >= keep), today).map((f) => f.column));
  await db.query(`DELETE FROM ${q(fieldsTable(r.table))} WHERE until < $1`, [keep]);
  for (const f of retiredFields(lists, today)) {
    if (named.has(f.column)) continue;
    await db.query(`ALTER TABLE ${q(r.table)} DROP COLUMN ${q(f.column)}`);
    await alterHistoryColumns(db, r.table, [], [f.column]);
  }
}
