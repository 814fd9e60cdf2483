// Resources in bounded group files. SQLite's work for each DDL statement, and for a connection's
// first statement after any schema change, grows with every table, view and FTS5 index of the
// file (docs/performance.md, "Why creating gets slower on SQLite"), so a new resource's objects
// (its table, full-text view and index, declared and learned indexes, history tables) go to a
// group file beside the main one, `<main>.groups/g<N>.db`, at most GROUP_SIZE resources a
// group; `main` keeps the catalog (`datastore_resources.grp`: NULL for a resource of the old
// layout, whose objects stay in `main`), aliases, tokens, views and the audit trail. A group is
// attached under the schema name `g<N>` on demand, the least recently used detached first;
// unqualified names resolve across attached files, so only CREATE statements and reads of
// `sqlite_schema`, `sqlite_sequence` and `dbstat` name the schema (schemaOf). ATTACH and
// DETACH fail inside a transaction: callers attach first (attachFor, or use outside one).
//
// Consistency. In WAL mode a transaction over two files commits each file in turn, `main`
// first (SQLite commits in schema order), not atomically across them; and a reader takes each
// file's snapshot when it first reads it. So the catalog row in `main` and the rows in a group
// may be of different states. Each group therefore keeps a copy of its resources' catalog rows
// (`datastore_state`), written in the same transaction as the rows (syncStates, before every
// commit of a writer connection), and readers take the resource's state (version, fields, row
// count) from that copy, read before anything of `main` in their transaction: the copy and the
// rows are one snapshot, and `main`, read after and committed first, holds at least every
// version the copy has (the version log). A crash between the two commits leaves `main` ahead of
// the group; the next open repairs the catalog from the copies (group-repair.ts), told so by the
// marker file the dead writer left.
import fs from "node:fs";
import path from "node:path";
import type { CatalogRow } from "../catalog-row";
import { DatastoreError } from "../errors";
import type { Conn, DB } from "./connection";

/** Resources a group file holds at most: its schema stays a few hundred rows. */
export const GROUP_SIZE = 64;
/** Groups one connection keeps attached: SQLite attaches at most 10 files; a bulk load's parts
 *  take eight (bulk-load.ts MAX_PARTS), so a writer's transaction keeps its own groups alone. */
export const ATTACHED_GROUPS = 4;

/** A resource's group's schema was needed inside a transaction that began without it. */
export class GroupNotAttached extends Error {
  constructor(readonly group: number) {
    super(`group g${group} is not attached (attach before the transaction begins)`);
  }
}

export function groupsDir(file: string): string {
  return `${file}.groups`;
}

export function groupFile(file: string, group: number): string {
  return path.join(groupsDir(file), `g${group}.db`);
}

/** The group files beside `file`, by number. */
export function groupFiles(file: string): { group: number; file: string }[] {
  let names: string[];
  try {
    names = fs.readdirSync(groupsDir(file));
  } catch {
    return [];
  }
  return names
    .map((n) => /^g(\d+)\.db$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ group: Number(m[1]), file: path.join(groupsDir(file), m[0]) }))
    .sort((a, b) => a.group - b.group);
}

/** For a connection of its own to the store (tests, benches' raw SQL): every group file attached
 *  as `g<N>`, so names resolve as on the engine's connections; at most 10 groups. */
export function attachAll(db: DB, file: string): void {
  for (const g of groupFiles(file)) db.prepare(`ATTACH ? AS g${g.group}`).run(g.file);
}

/** The store's size on disk: its file and its group files (write-ahead logs not counted). */
export function storeBytes(file: string): number {
  return [file, ...groupFiles(file).map((g) => g.file)].reduce((n, f) => n + fs.statSync(f).size, 0);
}

/** The schema a resource's objects live in, as SQL names it. */
export function schemaOf(r: { group: number | null }): string {
  return r.group === null ? "main" : `g${r.group}`;
}

/** The marker without an opener's pid: found at open, the store needs a repair (a backup's copy,
 *  group-repair.ts; each opener's own markers are named after it there). */
export function openMarker(file: string): string {
  return path.join(groupsDir(file), "open");
}

interface State {
  /** Attached groups, least recently used first. */
  attached: number[];
  /** Each resource's group as attachFor read it, for readers that read the group first. */
  known: Map<string, number | null>;
  /** The group new resources of the writer's current transaction go to (attachFor). */
  landing?: number;
  /** Groups seen to have their `datastore_state` table. */
  withStates: Set<number>;
}

const states = new WeakMap<DB, State>();

function stateOf(c: Conn): State {
  let s = states.get(c.db);
  if (!s) states.set(c.db, (s = { attached: [], known: new Map(), withStates: new Set() }));
  return s;
}

/** Groups need a file beside which to live: an in-memory store keeps everything in `main`. */
export function grouped(c: Conn): boolean {
  return !c.db.memory && c.db.name !== "" && c.db.name !== ":memory:";
}

/** The groups attached on this connection, least recently used first (for tests). */
export function attachedGroups(c: Conn): readonly number[] {
  return stateOf(c).attached;
}

/**
 * Makes group `group`'s schema available on this connection: attached now (outside a
 * transaction), or already; inside a transaction a group not attached throws GroupNotAttached.
 */
export function use(c: Conn, group: number | null): void {
  if (group === null) return;
  const s = stateOf(c);
  const at = s.attached.indexOf(group);
  if (at >= 0) {
    s.attached.splice(at, 1);
    s.attached.push(group);
    return;
  }
  if (c.db.inTransaction) throw new GroupNotAttached(group);
  while (s.attached.length >= ATTACHED_GROUPS) detach(c, s, s.attached[0]);
  const file = groupFile(c.db.name, group);
  const name = `g${group}`;
  // Attached already by whoever opened the connection (test-support.ts): taken as it is.
  if (c.db.prepare("SELECT 1 FROM pragma_database_list WHERE name = ?").get(name) !== undefined) {
    s.attached.push(group);
    return;
  }
  if (!c.db.readonly) fs.mkdirSync(path.dirname(file), { recursive: true });
  c.db.prepare(`ATTACH ? AS ${name}`).run(file);
  s.attached.push(group);
  // Settings are per file: the same as `main`'s on this connection.
  c.db.pragma(`${name}.cache_size = ${c.db.pragma("main.cache_size", { simple: true }) as number}`);
  if (!c.db.readonly) {
    c.db.pragma(`${name}.journal_mode = WAL`);
    c.db.pragma(`${name}.synchronous = NORMAL`);
  }
}

function detach(c: Conn, s: State, group: number): void {
  c.db.exec(`DETACH g${group}`);
  s.attached.splice(s.attached.indexOf(group), 1);
}

/** The group new resources go to: the latest while it has room, else a new one. */
function landing(c: Conn): number {
  const row = c.cache
    .get("SELECT grp AS g, count(*) AS n FROM datastore_resources WHERE grp = (SELECT max(grp) FROM datastore_resources)")
    .get() as { g: number | null; n: number };
  return row.g === null ? 1 : row.n < GROUP_SIZE ? row.g : row.g + 1;
}

/**
 * Before a transaction: attaches the groups of the resources `ids` (an id or an alias, read
 * from the catalog as it is now). `write`: for a writer's transaction, which keeps only these
 * groups attached (room for a bulk load's parts), and, when it may create resources (an id not
 * in the catalog, or none given: ids made inside it), the group they go to, all of them
 * (placeNew: a group may end a little over GROUP_SIZE, by what one transaction creates).
 */
export function attachFor(c: Conn, ids: readonly string[], write = false): void {
  if (!grouped(c)) return;
  const s = stateOf(c);
  const needed = new Set<number>();
  let creates = ids.length === 0;
  for (const id of ids) {
    const row = c.cache
      .get(
        `SELECT grp FROM datastore_resources WHERE id = @id
         UNION ALL SELECT r.grp FROM datastore_aliases AS a JOIN datastore_resources AS r ON r.id = a.resource_id WHERE a.alias = @id
         LIMIT 1`,
      )
      .get({ id }) as { grp: number | null } | undefined;
    if (!row) creates = true;
    else {
      s.known.set(id, row.grp);
      if (row.grp !== null) needed.add(row.grp);
    }
  }
  if (write && creates) needed.add((s.landing = landing(c)));
  if (needed.size > ATTACHED_GROUPS) {
    throw DatastoreError.field("resource_id", `one request may write the resources of at most ${ATTACHED_GROUPS} storage groups at once; this one touches ${needed.size}`);
  }
  if (write) for (const g of [...s.attached]) if (!needed.has(g)) detach(c, s, g);
  for (const g of needed) use(c, g);
}

/** The group of resource `id` as attachFor last read it (undefined: not asked). */
export function knownGroup(c: Conn, id: string): number | null | undefined {
  return stateOf(c).known.get(id);
}

/** Forgets what attachFor read of resource `id`'s group (it changed since). */
export function forget(c: Conn, id: string): void {
  stateOf(c).known.delete(id);
}

/** The group a new resource goes to: the transaction's (attachFor), else the landing group. */
export function placeNew(c: Conn): number | null {
  if (!grouped(c)) return null;
  return stateOf(c).landing ?? landing(c);
}

/**
 * Copies the catalog rows this transaction changed (noted by triggers in `datastore_group_dirty`,
 * migrations.ts) into their groups' `datastore_state`, in the same transaction, so each copy
 * commits with its rows. A group not attached throws GroupNotAttached: the transaction must be
 * told its resources (engine.ts `transaction`), or run again with the group attached.
 */
export function syncStates(c: Conn): void {
  const dirty = c.cache.get("SELECT id, grp FROM main.datastore_group_dirty").all() as { id: string; grp: number }[];
  if (dirty.length === 0) return;
  const s = stateOf(c);
  for (const { grp } of dirty) if (!s.attached.includes(grp)) throw new GroupNotAttached(grp);
  // Made with the group's first resource, in its transaction: a write that fails leaves no trace.
  for (const grp of new Set(dirty.map((d) => d.grp))) c.cache.get(`CREATE TABLE IF NOT EXISTS g${grp}.datastore_state (id TEXT PRIMARY KEY, row TEXT NOT NULL)`).run();
  for (const { id, grp } of dirty) {
    const row = c.cache.get("SELECT * FROM main.datastore_resources WHERE id = ?").get(id) as (CatalogRow & { grp: number | null }) | undefined;
    c.cache.get(`DELETE FROM g${grp}.datastore_state WHERE id = ?`).run(id);
    if (row && row.grp === grp) c.cache.get(`INSERT INTO g${grp}.datastore_state (id, row) VALUES (?, ?)`).run(id, JSON.stringify(row));
  }
  c.cache.get("DELETE FROM main.datastore_group_dirty").run();
}

/** After a writer's transaction, committed or not: its landing group is no longer set. */
export function endWrite(c: Conn): void {
  stateOf(c).landing = undefined;
}

/** A resource's catalog row as its group's copy has it (JSON text), in this snapshot. */
export function stateRow(c: Conn, group: number, id: string): string | undefined {
  if (!hasStates(c, group)) return undefined; // a new group whose first commit this snapshot predates
  return c.cache.get(`SELECT row FROM g${group}.datastore_state WHERE id = ?`, "pluck").get(id) as string | undefined;
}

/** Whether group `group` has its copies' table yet (made with its first resource, and kept). */
export function hasStates(c: Conn, group: number): boolean {
  const s = stateOf(c);
  if (s.withStates.has(group)) return true;
  const has = c.cache.get(`SELECT 1 FROM g${group}.sqlite_schema WHERE name = 'datastore_state'`, "pluck").get() !== undefined;
  if (has) s.withStates.add(group);
  return has;
}
