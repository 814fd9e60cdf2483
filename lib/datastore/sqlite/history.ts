// A resource's history on SQLite (lib/datastore/history.ts holds the rules). `_id` only grows,
// so the log's `id_to` (the largest `_id` after each version) tells which rows a version had
// inserted; an updated row's version is kept in `<table>_ver`, and the images updates and
// deletes replaced in `<table>_hist` with their [from, to) versions (from 0: since the row's
// insert). A bulk load writes neither: it is one logged version. An `as_of` read reads a
// temporary view of the rows valid at that version, under the table's usual SQL (its full text:
// past-fts.ts). Each version's field list: `<table>_fields` (../past-fields.ts).
import type { ChangesPage, Field, HistorySize, HistoryState, RowChange, RowImage, SearchQuery, VersionEntry, WriteAuthor } from "../engine";
import { fromStorage, sqliteType, storedAsIs, toStorage, type Stored } from "../types";
import type { Internal, StoredField } from "./catalog";
import type { Conn, Statement } from "./connection";
import { imagesPast, insertsPast, mergeChanges } from "../history";
import { listAt, retiredFields, rowReader, withFields, type FieldList } from "../past-fields";
import { schemaOf } from "./groups";
import { PastText, setPastText } from "./past-fts";
import { quoteIdent as q } from "./sql";

export function histTable(table: string): string {
  return `${table}_hist`;
}

export function verTable(table: string): string {
  return `${table}_ver`;
}

export function fieldsTable(table: string): string {
  return `${table}_fields`;
}

/** Whether table `name` exists. Asked of the parsed schema: a lookup in `sqlite_schema` scans
 *  it (it has no index), which cost every write and past read time growing with the resources. */
function exists(c: Conn, name: string): boolean {
  return c.cache.get("SELECT 1 FROM pragma_table_info(?) LIMIT 1", "pluck").get(name) !== undefined;
}

/** The lists of fields the resource had before its field changes, in `until` order. */
export function fieldLists(c: Conn, table: string): FieldList[] {
  const name = fieldsTable(table);
  if (!exists(c, name)) return [];
  const rows = c.db.prepare(`SELECT until, fields FROM ${q(name)} ORDER BY until`).all() as { until: number; fields: string }[];
  return rows.map((row) => ({ until: row.until, fields: JSON.parse(row.fields) as StoredField[] }));
}

/** The columns an image keeps: today's fields', then the retired ones' (../past-fields.ts). */
function imageFields(c: Conn, r: Internal): StoredField[] {
  const today = [...r.columns.values()];
  return [...today, ...retiredFields(fieldLists(c, r.table), today)];
}

/**
 * After datastore_create changed the fields (the catalog holds the new list, one version up):
 * keeps the list `r` had until then, when the resource keeps history, and logs the change as
 * a version, so a read as of any version before it reads it as it was.
 */
export function keepFieldList(c: Conn, r: Internal, keep: boolean, author: WriteAuthor | undefined): void {
  if (keep) {
    const name = fieldsTable(r.table);
    c.db.exec(`CREATE TABLE IF NOT EXISTS ${schemaOf(r)}.${q(name)} (until INTEGER PRIMARY KEY, fields TEXT NOT NULL)`);
    c.db.prepare(`INSERT OR REPLACE INTO ${q(name)} (until, fields) VALUES (?, ?)`).run(r.version, JSON.stringify([...r.columns.values()]));
  }
  logVersion(c, r, "fields", author);
}

/** The fields version v had, when not today's. */
export function fieldsAt(c: Conn, r: Internal, v: number): Field[] | undefined {
  const then = listAt(fieldLists(c, r.table), v);
  return then && withFields(r, then).fields;
}

/** The history tables, made at a resource's first update or delete that keeps history, with
 *  the columns its images keep. */
export function ensureHistoryTables(c: Conn, r: Internal): { hist: string; ver: string; columns: StoredField[] } {
  const hist = histTable(r.table);
  const ver = verTable(r.table);
  const columns = imageFields(c, r);
  if (exists(c, hist)) return { hist, ver, columns };
  const cols = columns.map((f) => `, ${q(f.column)} ${sqliteType(f.type)}`).join("");
  const s = schemaOf(r);
  c.db.exec(
    `CREATE TABLE ${s}.${q(hist)} (_hid INTEGER PRIMARY KEY, _id INTEGER NOT NULL, _valid_from INTEGER NOT NULL, _valid_to INTEGER NOT NULL, _deleted INTEGER NOT NULL DEFAULT 0${cols});
     CREATE INDEX ${s}.${q(`${hist}_id`)} ON ${q(hist)} (_id, _valid_from);
     CREATE INDEX ${s}.${q(`${hist}_to`)} ON ${q(hist)} (_valid_to, _id);
     CREATE TABLE ${s}.${q(ver)} (_id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
     CREATE INDEX ${s}.${q(`${ver}_v`)} ON ${q(ver)} (v);`,
  );
  return { hist, ver, columns };
}

/** Keeps the history table's columns the live table's (fields added or dropped). */
export function alterHistoryColumns(c: Conn, table: string, add: StoredField[], drop: string[]): void {
  const hist = histTable(table);
  if (!exists(c, hist)) return;
  for (const col of drop) c.db.exec(`ALTER TABLE ${q(hist)} DROP COLUMN ${q(col)}`);
  for (const f of add) c.db.exec(`ALTER TABLE ${q(hist)} ADD COLUMN ${q(f.column)} ${sqliteType(f.type)}`);
}

export function dropHistory(c: Conn, table: string): void {
  c.db.exec(`DROP TABLE IF EXISTS ${q(histTable(table))}; DROP TABLE IF EXISTS ${q(verTable(table))}; DROP TABLE IF EXISTS ${q(fieldsTable(table))}`);
}

/** Whether the resource keeps history (datastore_create `history`). */
export function keepsHistory(c: Conn, id: string): boolean {
  return c.cache.get("SELECT history FROM datastore_resources WHERE id = ?", "pluck").get(id) === 1;
}

/** The version a write in progress writes: the catalog's next one (catalog.touch raises it). */
export function nextVersion(r: Internal): number {
  return r.version + 1;
}

/** Logs the version a write just committed to the catalog (after catalog.touch), with the
 *  table's largest `_id` now. */
export function logVersion(c: Conn, r: Internal, kind: string, author: WriteAuthor | undefined): void {
  // The largest `_id` ever given (ids are not reused): a delete of the last rows must not make
  // their ids look inserted later. A create starts a new table, and counts from its rows.
  const now = c.cache.get(`SELECT coalesce(max(_id), 0) FROM ${q(r.table)}`, "pluck").get() as number;
  const before = kind === "create" ? 0 : (c.cache.get("SELECT id_to FROM datastore_versions WHERE resource_id = @id AND version < (SELECT version FROM datastore_resources WHERE id = @id) ORDER BY version DESC LIMIT 1", "pluck").get({ id: r.id }) as number | undefined) ?? 0;
  const last = Math.max(now, before);
  c.cache
    .get(
      `INSERT OR REPLACE INTO datastore_versions (resource_id, version, at, kind, token_id, token_name, id_to)
       SELECT id, version, ?, ?, ?, ?, ? FROM datastore_resources WHERE id = ?`,
    )
    .run(new Date().toISOString(), kind, author?.tokenId ?? null, author?.tokenName ?? null, last, r.id);
  // Without history, the oldest version readable is the last that changed rows.
  c.cache.get("UPDATE datastore_resources SET history_from = version WHERE id = ? AND history = 0").run(r.id);
}

/** The row writer's statements for one version: an image kept before a row changes. */
export class ImageKeeper {
  private readonly cols: string;
  constructor(
    private readonly c: Conn,
    private readonly r: Internal,
    private readonly tables: { hist: string; ver: string; columns: StoredField[] },
    private readonly version: number,
  ) {
    this.cols = ["_id", ...tables.columns.map((f) => q(f.column))].join(", ");
    const logged = c.cache.get("SELECT id_to FROM datastore_versions WHERE resource_id = ? AND version < ? ORDER BY version DESC LIMIT 1", "pluck").get(r.id, version) as number | undefined;
    this.insertedAfter = logged ?? Infinity;
  }

  /** Rows past the largest `_id` before this version are this version's inserts: updating one
   *  again in the same batch keeps no image (no reader could see it), and its insert stays one change. */
  private readonly insertedAfter: number;

  /** Rows keepFirst kept: their images are written already. */
  private readonly kept = new Set<number>();

  /**
   * Before a batch's writes: the images of the rows among `ids` (those its records name) that
   * exist and were inserted before this version, in one INSERT … SELECT, and their new version
   * in one upsert; beforeUpdate then skips them. Done before the batch writes anything: no
   * page is dirty yet and FTS5 has nothing pending, so the one statement journal costs little,
   * where one such statement per row, amid the batch's writes, cost more than the row's own
   * update (and reading each image to write it back costs a statement and a copy per row).
   */
  keepFirst(ids: number[]): void {
    if (ids.length === 0) return;
    const { hist, ver } = this.tables;
    const t = q(this.r.table);
    const tcols = this.cols.split(", ").map((col) => `t.${col}`).join(", ");
    const bind = { ids: JSON.stringify(ids), to: this.version, after: Number.isFinite(this.insertedAfter) ? this.insertedAfter : Number.MAX_SAFE_INTEGER };
    const rows = `json_each(@ids) AS j JOIN ${t} AS t ON t._id = j.value`;
    this.c.db
      .prepare(`INSERT INTO ${q(hist)} (_valid_from, _valid_to, ${this.cols}) SELECT coalesce(v.v, 0), @to, ${tcols} FROM ${rows} LEFT JOIN ${q(ver)} AS v ON v._id = t._id WHERE t._id <= @after`)
      .run(bind);
    this.c.db.prepare(`INSERT INTO ${q(ver)} (_id, v) SELECT t._id, @to FROM ${rows} WHERE t._id <= @after ON CONFLICT (_id) DO UPDATE SET v = excluded.v`).run(bind);
    for (const id of ids) this.kept.add(id);
  }

  /**
   * Before an update of a row keepFirst did not keep: its image, once per row and version, and
   * its new version. Read, then written with one-row VALUES statements: an INSERT … SELECT
   * opens a statement journal, which amid a batch's writes cost more than the row's own writes
   * (and makes FTS5 write out its pending changes).
   */
  beforeUpdate(id: number | bigint): void {
    if (id > this.insertedAfter || this.kept.has(Number(id))) return;
    const row = this.statements().read.get({ id }) as unknown[] | undefined;
    if (!row) return;
    const [from, ...image] = row;
    if (from !== null && Number(from) === this.version) return; // kept already in this version
    const s = this.statements();
    s.keep.run(from ?? 0, this.version, ...image);
    if (from === null) s.mark.run(id, this.version);
    else s.remark.run(this.version, id);
  }

  private prepared?: { read: Statement; keep: Statement; mark: Statement; remark: Statement };

  /** Prepared once per version written (their SQL is long: a lookup by its text costs per row). */
  private statements(): { read: Statement; keep: Statement; mark: Statement; remark: Statement } {
    if (this.prepared) return this.prepared;
    const { hist, ver } = this.tables;
    const n = this.tables.columns.length + 1; // _id and the fields
    const db = this.c.db;
    return (this.prepared = {
      // Integers read as such, so that written again each is the same value.
      read: db.prepare(`SELECT (SELECT v FROM ${q(ver)} WHERE _id = @id), ${this.cols} FROM ${q(this.r.table)} WHERE _id = @id`).raw(true).safeIntegers(true),
      keep: db.prepare(`INSERT INTO ${q(hist)} (_valid_from, _valid_to, ${this.cols}) VALUES (?, ?${", ?".repeat(n)})`),
      mark: db.prepare(`INSERT INTO ${q(ver)} (_id, v) VALUES (?, ?)`),
      remark: db.prepare(`UPDATE ${q(ver)} SET v = ? WHERE _id = ?`),
    });
  }

  /** Before a delete of the rows matching `cond` (over alias `t`): their images. */
  beforeDelete(cond: string, params: unknown[]): void {
    const { hist, ver } = this.tables;
    const tcols = this.cols.split(", ").map((col) => `t.${col}`).join(", ");
    const where = cond ? ` WHERE ${cond}` : "";
    this.c.db
      .prepare(`INSERT INTO ${q(hist)} (_valid_from, _valid_to, _deleted, ${this.cols}) SELECT coalesce(v.v, 0), ?, 1, ${tcols} FROM ${q(this.r.table)} AS t LEFT JOIN ${q(ver)} AS v ON v._id = t._id${where}`)
      .run(this.version, ...params);
    this.c.db.prepare(`DELETE FROM ${q(ver)} WHERE _id IN (SELECT t._id FROM ${q(this.r.table)} AS t${where})`).run(...params);
  }
}

/** The largest `_id` at version v (the newest logged at or before it). */
function lastIdAt(c: Conn, id: string, v: number): number {
  return (c.cache.get("SELECT id_to FROM datastore_versions WHERE resource_id = ? AND version <= ? ORDER BY version DESC LIMIT 1", "pluck").get(id, v) as number | undefined) ?? 0;
}

/** The first version of the table's current life (its creation, or the baseline before it). */
function epoch(c: Conn, id: string): number {
  return (c.cache.get("SELECT coalesce(max(version), 0) FROM datastore_versions WHERE resource_id = ? AND kind = 'create'", "pluck").get(id) as number) ?? 0;
}

/** The version that inserted row `_id`: the first whose largest `_id` reaches it. */
function insertedAt(c: Conn, r: Internal, rowId: number): number {
  return (c.cache.get("SELECT min(version) FROM datastore_versions WHERE resource_id = ? AND version >= ? AND id_to >= ?", "pluck").get(r.id, epoch(c, r.id), rowId) as number | null) ?? 0;
}

/** A view atVersion made: its row count, the version's largest `_id`, and (once a deep page
 *  asked) where its rows stand against today's table's `_id`s (pastIdAt). */
interface PastView {
  rows: number;
  last: number;
  seek?: { lo: number; hi: number; before: number } | null;
}

/** How a view's two parts are read: as SQLite picks (`any`), merged in `_id` order (`id`), or
 *  walked in `_id` order whatever the filters (`walk`: today's rows by the table's own b-tree,
 *  the images by their `_id` index). */
type ViewKind = "any" | "id" | "walk";

/** The copies atVersion made over history tables, with what each was made from. */
const pastCopies = new WeakMap<Internal, { live: Internal; v: number; kind: ViewKind; view: PastView }>();

/** A copy whose rows come in `_id` order already (the view's ORDER BY, merged). */
export function inIdOrderAlready(r: Internal): boolean {
  return pastCopies.get(r)?.kind === "id";
}

/**
 * The `_id` a page at `offset` of a past copy in `_id` order starts at, found without reading
 * the rows before it; null when it cannot be told so. Ids are never reused, so when today's
 * `_id`s run unbroken from lo to hi, no row in that range was ever deleted: each of those ids
 * up to the version's largest was a row then (today's, or its image), and the version's rows
 * before lo are the images valid then (rows deleted since; counted once per view).
 */
export function pastIdAt(c: Conn, r: Internal, offset: number): number | null {
  const past = pastCopies.get(r);
  if (past?.kind !== "id") return null;
  const { live, v, view } = past;
  if (view.seek === undefined) {
    const t = q(live.table);
    const { lo, hi } = c.cache.get(`SELECT (SELECT min(_id) FROM ${t}) AS lo, (SELECT max(_id) FROM ${t}) AS hi`).get() as { lo: number | null; hi: number | null };
    view.seek =
      lo === null || hi === null || hi - lo + 1 !== live.rowCount
        ? null
        : { lo, hi, before: c.cache.get(`SELECT count(*) FROM ${q(histTable(live.table))} WHERE _id < ? AND _valid_from <= ? AND _valid_to > ?`, "pluck").get(lo, v, v) as number };
  }
  const seek = view.seek;
  if (seek === null || offset < seek.before) return null;
  const id = seek.lo + offset - seek.before;
  return id <= Math.min(seek.hi, view.last) ? id : null;
}

/**
 * For a page of a past copy in `_id` order under filters (id-scan.ts): today's resource, for
 * judging how dense the matches are, and the same version's view read as a walk in `_id`
 * order (made when first asked for). Null when `r` is not such a copy.
 */
export function pastWalk(c: Conn, r: Internal): { live: Internal; walk: () => string } | null {
  const past = pastCopies.get(r);
  if (!past) return null;
  return { live: past.live, walk: () => pastView(c, past.live, past.v, "walk").name };
}

/** Per connection: the temporary views it made for `as_of` reads (oldest first). */
const views = new WeakMap<Conn, Map<string, PastView>>();
const MAX_VIEWS = 16;

/** Whether a read takes rows in `_id` order from the whole table (a plain page, a keyset walk
 *  without filters): then the view merges its two parts in that order, and the page reads
 *  only its rows. A filtered read gets the parts unordered, so each part's conditions use its
 *  indexes, and the matches are sorted as today's read sorts them (or walked: pastWalk). */
function wantsIdOrder(query: SearchQuery): boolean {
  if (query.filters.length > 0) return false;
  return query.sort.length === 0 || (query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc);
}

/**
 * The resource as it was at `query.asOf`: the same resource, with its field list then, over a
 * temporary view of the rows valid then (live rows inserted by then and not updated since, and
 * the images valid then), with that version's row count. A row updated since is told by one
 * lookup in `_ver`. A dropped field's column is still in both tables (../past-fields.ts).
 */
export function atVersion(c: Conn, r: Internal, query: SearchQuery): Internal {
  const v = query.asOf;
  if (v === undefined) return r;
  const then = listAt(fieldLists(c, r.table), v);
  const shaped = then ? withFields(r, then) : r;
  const hasHist = exists(c, histTable(r.table));
  const kind: ViewKind | null = hasHist ? (wantsIdOrder(query) ? "id" : "any") : null;
  const { name, view } = pastView(c, shaped, v, kind);
  const past = { ...shaped, table: name, rowCount: view.rows };
  if (kind) pastCopies.set(past, { live: shaped, v, kind, view });
  // Full text reads today's index for the rows unchanged since, and a temp one for the others.
  if (query.fts.length) setPastText(past, new PastText(c, r, name, v, view.last, hasHist ? { hist: histTable(r.table), ver: verTable(r.table) } : null, [...shaped.columns.values()]));
  return past;
}

/** The temporary view of `r`'s rows at version v, made once per connection (null kind: the
 *  table has no history tables, and its rows then are today's inserted by then). */
function pastView(c: Conn, r: Internal, v: number, kind: ViewKind | null): { name: string; view: PastView } {
  const name = `${r.table}@${v}@${r.version}${kind === "id" || kind === "walk" ? `@${kind}` : ""}`;
  let made = views.get(c);
  if (!made) views.set(c, (made = new Map()));
  let view = made.get(name);
  if (view !== undefined) {
    // Used last, dropped last: a read may make its walk's view while it holds this one.
    made.delete(name);
    made.set(name, view);
    return { name, view };
  }
  const last = lastIdAt(c, r.id, v);
  const cols = ["_id", ...[...r.columns.values()].map((f) => q(f.column))].join(", ");
  const hist = histTable(r.table);
  const sql = kind
    ? `SELECT ${cols} FROM ${schemaOf(r)}.${q(r.table)} AS l${kind === "walk" ? " NOT INDEXED" : ""} WHERE _id <= ${last} AND NOT EXISTS (SELECT 1 FROM ${schemaOf(r)}.${q(verTable(r.table))} AS m WHERE m._id = l._id AND m.v > ${v})
       UNION ALL SELECT ${cols} FROM ${schemaOf(r)}.${q(hist)}${kind === "walk" ? ` INDEXED BY ${q(`${hist}_id`)}` : ""} WHERE _valid_to > ${v} AND _valid_from <= ${v} AND _id <= ${last}${kind === "any" ? "" : " ORDER BY _id"}`
    : `SELECT ${cols} FROM ${schemaOf(r)}.${q(r.table)} WHERE _id <= ${last}`;
  c.db.exec(`CREATE TEMP VIEW IF NOT EXISTS ${q(name)} AS ${sql}`);
  view = { rows: rowsAt(c, r, v, last, kind !== null), last };
  made.set(name, view);
  for (const old of made.keys()) {
    if (made.size <= MAX_VIEWS) break;
    c.db.exec(`DROP VIEW IF EXISTS temp.${q(old)}; DROP TABLE IF EXISTS temp.${q(`${old}#text`)}`);
    made.delete(old);
  }
  return { name, view };
}

/** Drops the temporary views this connection made of `table`'s past. */
function forgetViews(c: Conn, table: string): void {
  const made = views.get(c);
  if (!made) return;
  for (const name of made.keys()) {
    if (!name.startsWith(`${table}@`)) continue;
    c.db.exec(`DROP VIEW IF EXISTS temp.${q(name)}; DROP TABLE IF EXISTS temp.${q(`${name}#text`)}`);
    made.delete(name);
  }
}

/** Rows at version v, from index ranges: today's inserted by then, less those updated since,
 *  plus the images valid then. */
function rowsAt(c: Conn, r: Internal, v: number, last: number, hasHist: boolean): number {
  const later = c.cache.get(`SELECT count(*) FROM ${q(r.table)} WHERE _id > ?`, "pluck").get(last) as number;
  if (!hasHist) return r.rowCount - later;
  const updated = c.cache.get(`SELECT count(*) FROM ${q(verTable(r.table))} WHERE v > ? AND _id <= ?`, "pluck").get(v, last) as number;
  const old = c.cache.get(`SELECT count(*) FROM ${q(histTable(r.table))} WHERE _valid_to > @v AND _valid_from <= @v AND _id <= @last`, "pluck").get({ v, last }) as number;
  return r.rowCount - later - updated + old;
}

interface LogRow {
  version: number;
  at: string;
  kind: string;
  token_name: string | null;
}

function entry(row: LogRow): VersionEntry {
  return { version: row.version, time: row.at, kind: row.kind, token: row.token_name };
}

export function historyState(c: Conn, r: Internal): HistoryState {
  const row = c.cache
    .get(
      `SELECT r.version, r.history, r.history_from, l.version AS written, l.at FROM datastore_resources AS r
       LEFT JOIN datastore_versions AS l ON l.resource_id = r.id AND l.version = (SELECT max(version) FROM datastore_versions WHERE resource_id = r.id)
       WHERE r.id = ?`,
    )
    .get(r.id) as { version: number; history: number; history_from: number; written: number | null; at: string | null };
  const written = row.written ?? row.history_from;
  return { version: row.version, written, lastModified: row.at, enabled: row.history === 1, oldest: row.history === 1 ? row.history_from : written };
}

export function historySize(c: Conn, r: Internal): HistorySize {
  const hist = histTable(r.table);
  const ver = verTable(r.table);
  const from = historyState(c, r).oldest;
  const versions = c.cache.get("SELECT count(*) FROM datastore_versions WHERE resource_id = ? AND version >= ?", "pluck").get(r.id, from) as number;
  if (!exists(c, hist)) return { versions, rows: 0, bytes: 0 };
  const rows = c.db.prepare(`SELECT count(*) FROM ${q(hist)}`).pluck().get() as number;
  const names = [hist, `${hist}_id`, `${hist}_to`, ver, `${ver}_v`];
  const bytes = c.db.prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat(?) WHERE aggregate = 1 AND name IN (${names.map(() => "?").join(", ")})`).pluck().get(schemaOf(r), ...names) as number;
  return { versions, rows, bytes };
}

export function versionAt(c: Conn, r: Internal, at: { version: number } | { time: string }): VersionEntry | undefined {
  const row =
    "version" in at
      ? c.cache.get("SELECT * FROM datastore_versions WHERE resource_id = ? AND version <= ? ORDER BY version DESC LIMIT 1").get(r.id, at.version)
      : c.cache.get("SELECT * FROM datastore_versions WHERE resource_id = ? AND at <= ? ORDER BY at DESC, version DESC LIMIT 1").get(r.id, at.time);
  return row ? entry(row as LogRow) : undefined;
}

export function versionEntries(c: Conn, r: Internal, versions: number[]): VersionEntry[] {
  if (versions.length === 0) return [];
  const rows = c.db
    .prepare(`SELECT * FROM datastore_versions WHERE resource_id = ? AND version IN (${versions.map(() => "?").join(", ")})`)
    .all(r.id, ...versions) as LogRow[];
  return rows.map(entry);
}

/** The columns of a stored row (`_id`, then every field column an image keeps, in `cols`
 *  order), and the row as field ids to JSON values with the field list version v had. */
function decoder(c: Conn, r: Internal): { cols: string; decode: (row: Stored[], v: number) => Record<string, unknown> } {
  const lists = fieldLists(c, r.table);
  const today = [...r.columns.values()];
  const columns = [...today, ...retiredFields(lists, today)];
  const read = rowReader(columns, (f, v) => (storedAsIs(f.type) ? v : fromStorage(f.type, v as Stored)));
  return { cols: ["_id", ...columns.map((f) => q(f.column))].join(", "), decode: (row, v) => read(row, listAt(lists, v) ?? today) };
}

export function rowImages(c: Conn, r: Internal, row: { id: number } | { key: Record<string, unknown> }): { id: number; ids: number[]; images: RowImage[] } | undefined {
  const hist = histTable(r.table);
  const hasHist = exists(c, hist);
  let ids: number[];
  if ("id" in row) ids = [row.id];
  else {
    // Every row that held the key, oldest first: a delete and insert again gives a new _id.
    const keys = Object.keys(row.key).map((k) => ({ f: r.columns.get(k)!, v: row.key[k] }));
    const cond = keys.map(({ f }) => `${q(f.column)} IS ?`).join(" AND ");
    const values = keys.map(({ f, v }) => toStorage(f.type, v));
    const sql = `SELECT _id FROM ${q(r.table)} WHERE ${cond}${hasHist ? ` UNION SELECT _id FROM ${q(hist)} WHERE ${cond}` : ""} ORDER BY _id`;
    ids = c.db.prepare(sql).pluck().all(...values, ...(hasHist ? values : [])) as number[];
  }
  const { cols, decode } = decoder(c, r);
  const images: RowImage[] = [];
  const found: number[] = [];
  for (const id of ids) {
    const own: (Omit<RowImage, "record"> & { row: Stored[] })[] = [];
    if (hasHist) {
      const rows = c.db.prepare(`SELECT _valid_from, _valid_to, _deleted, ${cols} FROM ${q(hist)} WHERE _id = ? ORDER BY _valid_from`).raw(true).all(id) as Stored[][];
      for (const [from, to, deleted, ...rest] of rows) own.push({ from: Number(from), to: Number(to), deleted: deleted === 1, row: rest });
    }
    const live = c.db.prepare(`SELECT ${cols} FROM ${q(r.table)} WHERE _id = ?`).raw(true).get(id) as Stored[] | undefined;
    if (live) {
      const v = hasHist ? (c.db.prepare(`SELECT v FROM ${q(verTable(r.table))} WHERE _id = ?`).pluck().get(id) as number | undefined) : undefined;
      own.push({ from: v ?? 0, to: null, deleted: false, row: live });
    }
    if (own.length === 0) continue;
    for (const img of own) if (img.from === 0) img.from = insertedAt(c, r, id);
    // Each version's record is read with the field list it had.
    images.push(...own.map(({ row: stored, ...img }) => ({ ...img, record: decode(stored, img.from) })));
    found.push(id);
  }
  if (found.length === 0) return undefined;
  return { id: found[found.length - 1], ids: found, images };
}

/**
 * Changes after `since`, in (version, _id) order: the rows inserted since (their `_id` past the
 * largest then, their version the first whose largest `_id` reaches them), and each image
 * replaced since (an update, or a delete). A page seeks each list from its cursor by index (the
 * inserts by `_id`, the images by (`_valid_to`, `_id`)), takes `limit` of each and merges them;
 * the counts, which read every change, are made on the first page only.
 */
export function changes(c: Conn, r: Internal, since: number, after: { version: number; id: number } | null, limit: number): ChangesPage {
  const t = q(r.table);
  const hasHist = exists(c, histTable(r.table));
  const h = q(histTable(r.table));
  const ver = q(verTable(r.table));
  const last = lastIdAt(c, r.id, since);
  const counts = after ? null : countChanges(c, r, since, last, hasHist);
  if (limit <= 0) return { changes: [], total: counts?.n ?? null, records: counts?.d ?? null };
  const past = insertsPast(last, after, after ? lastIdAt(c, r.id, after.version - 1) : 0, after ? lastIdAt(c, r.id, after.version) : 0);
  // A row updated or deleted since has its insert's image (from 0); one that was not, only its live row.
  const ids = hasHist
    ? `SELECT _id FROM (SELECT _id FROM ${t} WHERE _id > @past ORDER BY _id LIMIT @limit) UNION SELECT _id FROM (SELECT _id FROM ${h} WHERE _id > @past AND _valid_from = 0 ORDER BY _id LIMIT @limit) ORDER BY _id LIMIT @limit`
    : `SELECT _id FROM ${t} WHERE _id > @past ORDER BY _id LIMIT @limit`;
  // Every insert past the cursor is of its version or later: the log is read from there.
  const inserts = c.db
    .prepare(`SELECT (SELECT version FROM datastore_versions WHERE resource_id = @rid AND version >= @from AND id_to >= x._id ORDER BY version LIMIT 1) AS v, x._id AS id FROM (${ids}) AS x`)
    .all({ past, limit, rid: r.id, from: Math.max(since + 1, after?.version ?? 0) }) as { v: number; id: number }[];
  const images = hasHist
    ? (c.db
        .prepare(`SELECT _valid_to AS v, _id AS id, _deleted AS d FROM ${h} WHERE (_valid_to, _id) > (@av, @ai) ORDER BY _valid_to, _id LIMIT @limit`)
        .all({ ...imagesPast(since, after), limit }) as { v: number; id: number; d: number }[])
    : [];
  const page = mergeChanges(
    inserts.map(({ v, id }) => ({ v, id, k: "i" as const })),
    images.map(({ v, id, d }) => ({ v, id, k: d === 1 ? ("d" as const) : ("u" as const) })),
    limit,
  );
  const { cols, decode } = decoder(c, r);
  const live = c.cache.get(`SELECT ${cols} FROM ${t} WHERE _id = ?`, "raw");
  const liveVersion = hasHist ? c.cache.get(`SELECT v FROM ${ver} WHERE _id = ?`, "pluck") : undefined;
  const imageFrom = hasHist ? c.cache.get(`SELECT ${cols} FROM ${h} WHERE _id = ? AND _valid_from = ?`, "raw") : undefined;
  const imageTo = hasHist ? c.cache.get(`SELECT ${cols} FROM ${h} WHERE _id = ? AND _valid_to = ?`, "raw") : undefined;
  /** The row's image from version `from` (0: since its insert): kept, or the live row's. */
  const imageAt = (id: number, from: number): Stored[] | undefined => {
    const kept = imageFrom?.get(id, from) as Stored[] | undefined;
    if (kept) return kept;
    return ((liveVersion?.get(id) as number | undefined) ?? 0) === from ? (live.get(id) as Stored[] | undefined) : undefined;
  };
  const out: RowChange[] = page.map(({ v, id, k }) => {
    const now = k === "d" ? undefined : imageAt(id, k === "i" ? 0 : v);
    const old = k === "i" ? undefined : (imageTo?.get(id, v) as Stored[] | undefined);
    // The row after, with the version's field list; before, with the list just before it.
    return { version: v, id, record: now ? decode(now, v) : null, old: old ? decode(old, v - 1) : null };
  });
  return { changes: out, total: counts?.n ?? null, records: counts?.d ?? null };
}

/** How many changes follow `since`, and how many rows they touch: the rows inserted since (every
 *  `_id` past the largest then, live or kept) and the images replaced since, from index ranges. */
function countChanges(c: Conn, r: Internal, since: number, last: number, hasHist: boolean): { n: number; d: number } {
  const t = q(r.table);
  if (!hasHist) {
    const n = c.cache.get(`SELECT count(*) FROM ${t} WHERE _id > ?`, "pluck").get(last) as number;
    return { n, d: n };
  }
  const h = q(histTable(r.table));
  const bind = { last, since };
  const inserted = c.db.prepare(`SELECT count(*) FROM (SELECT _id FROM ${t} WHERE _id > @last UNION SELECT _id FROM ${h} WHERE _id > @last)`).pluck().get(bind) as number;
  const replaced = c.db.prepare(`SELECT count(*) FROM ${h} WHERE _valid_to > @since`).pluck().get(bind) as number;
  const d = c.db
    .prepare(`SELECT count(*) FROM (SELECT _id FROM ${t} WHERE _id > @last UNION SELECT _id FROM ${h} WHERE _id > @last UNION SELECT _id FROM ${h} WHERE _valid_to > @since)`)
    .pluck()
    .get(bind) as number;
  return { n: inserted + replaced, d };
}

/** Removes images no version from the newest logged at or before `before` on can read, and
 *  makes that version the oldest kept; returns how many images went. */
export function prune(c: Conn, r: Internal, before: string): number {
  const keep = c.cache.get("SELECT max(version) FROM datastore_versions WHERE resource_id = ? AND at <= ?", "pluck").get(r.id, before) as number | null;
  if (keep === null || keep <= historyState(c, r).oldest) return 0;
  c.cache.get("UPDATE datastore_resources SET history_from = max(history_from, ?) WHERE id = ?").run(keep, r.id);
  pruneFieldLists(c, r, keep);
  const hist = histTable(r.table);
  if (!exists(c, hist)) return 0;
  return c.db.prepare(`DELETE FROM ${q(hist)} WHERE _valid_to <= ?`).run(keep).changes;
}

/** Removes the field lists no version from `keep` on reads, and the retired columns (live
 *  and kept) that no list still names. */
function pruneFieldLists(c: Conn, r: Internal, keep: number): void {
  const lists = fieldLists(c, r.table);
  if (lists.length === 0) return;
  const today = [...r.columns.values()];
  const named = new Set(retiredFields(lists.filter((l) => l.until >= keep), today).map((f) => f.column));
  c.db.prepare(`DELETE FROM ${q(fieldsTable(r.table))} WHERE until < ?`).run(keep);
  const gone = retiredFields(lists, today).filter((f) => !named.has(f.column));
  // SQLite refuses to drop a column a view names, this connection's temporary ones included.
  if (gone.length) forgetViews(c, r.table);
  for (const f of gone) {
    c.db.exec(`ALTER TABLE ${q(r.table)} DROP COLUMN ${q(f.column)}`);
    alterHistoryColumns(c, r.table, [], [f.column]);
  }
}
