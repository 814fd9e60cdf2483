// A resource's past, the same on every engine (issue 27): what `as_of` and `since` name (a
// version or an ISO 8601 time), which versions may be read and why not, a record's versions
// from its row images, and the changes cursor. Engines store prior row images with their
// [from, to) versions and a log of versions; this module turns what they read into answers.
import type { DatastoreEngine, Resource, RowImage, VersionEntry } from "./engine";
import { DatastoreError } from "./errors";

export type AsOf = { version: number } | { time: string };

const ISO_RE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A version (a non-negative integer, or its digits) or an ISO 8601 time (UTC unless it says
 *  otherwise); undefined when not given; a 409 on `field` otherwise. */
export function parseAsOf(value: unknown, field = "as_of"): AsOf | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return { version: value };
  if (typeof value === "string") {
    const s = value.trim();
    if (/^\d{1,15}$/.test(s)) return { version: Number(s) };
    if (ISO_RE.test(s)) {
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(s) || s.length <= 10 ? s : `${s}Z`;
      const ms = Date.parse(s.length <= 10 ? `${s}T00:00:00Z` : zoned);
      if (!Number.isNaN(ms)) return { time: new Date(ms).toISOString() };
    }
  }
  throw DatastoreError.field(field, `${field} must be a version number or an ISO 8601 time, such as 2026-01-31T12:00:00Z`);
}

/** The actions that read the past; the dump (not an action) takes `as_of` too. */
const READS_AS_OF = new Set(["datastore_search"]);

/** Every other action answers `as_of` with a 409, rather than today's rows presented as the past. */
export function refuseAsOf(action: string, params: Record<string, unknown>): void {
  if (READS_AS_OF.has(action) || params.as_of === undefined || params.as_of === null || params.as_of === "") return;
  throw DatastoreError.field("as_of", `as_of is taken only by datastore_search and the dump, not by ${action}`);
}

/** The version an `as_of` reads, and the time that version was written. */
export interface ResolvedVersion {
  version: number;
  time: string | null;
  /** No row changed since: the current rows answer it (a search without `asOf`). */
  current: boolean;
}

/**
 * Resolves `as_of` against the resource's history: a version must be between the oldest kept
 * and the current one; a time reads the newest version written at or before it, and is refused
 * before the resource existed or before the oldest version kept. The current version reads as
 * today's search does (no `asOf` in the query).
 */
export async function resolveAsOf(engine: DatastoreEngine, r: Resource, asOf: AsOf, field = "as_of"): Promise<ResolvedVersion> {
  const state = await engine.historyState(r);
  /** `entry`: the logged version the as_of names, if the resource had one then. */
  const notKept = async (what: string, entry: VersionEntry | undefined) => {
    if (!state.enabled) return DatastoreError.field(field, `this resource keeps no history (datastore_create history: false): only its current version (${state.version}) can be read`);
    // A replace (or datastore_delete, then create) starts a new table: the rows before it are not kept.
    const start = entry && (await engine.versionAt(r, { version: state.oldest }));
    if (start?.version === state.oldest && start.kind === "create") {
      return DatastoreError.field(field, `${field} ${what} is before the replace on ${start.time}: history before the replace is not kept`);
    }
    return DatastoreError.field(field, `${field} ${what} is before the oldest version this resource keeps (${state.oldest})`);
  };
  if ("version" in asOf) {
    if (asOf.version > state.version) throw DatastoreError.field(field, `${field} ${asOf.version} is after the current version (${state.version})`);
    const entry = await engine.versionAt(r, asOf);
    if (asOf.version < state.oldest) throw await notKept(String(asOf.version), entry);
    return { version: asOf.version, time: entry?.time ?? null, current: asOf.version >= state.written };
  }
  const created = catalogTime(r.created);
  const entry = await engine.versionAt(r, asOf);
  // As instants: the catalog's `created` has whole seconds, a time as_of names has milliseconds.
  if (Date.parse(asOf.time) < Date.parse(created) && (!entry || entry.kind === "create")) {
    throw DatastoreError.field(field, `${field} ${asOf.time} is before the resource existed (it was created at ${created})`);
  }
  if (!entry || entry.version < state.oldest) throw await notKept(asOf.time, entry);
  return { version: entry.version, time: entry.time, current: entry.version >= state.written };
}

/**
 * After a read of version `at` has begun (its snapshot taken), whether to read again: for the
 * current rows, when a write changed rows since (then read as of the version); and a 409 when a
 * retention pass removed the version's images first (the read missed them). Checked after the
 * read starts, so what landed between resolveAsOf and the read shows here.
 */
export async function readAgain(engine: DatastoreEngine, r: Resource, at: ResolvedVersion, field = "as_of"): Promise<boolean> {
  const state = await engine.historyState(r);
  const written = at.current && state.written > at.version;
  // A current read nothing was written after read its rows itself; any other needs the images.
  if (state.oldest > at.version && (!at.current || written)) {
    throw DatastoreError.field(
      field,
      state.enabled
        ? `${field} ${at.version} is before the oldest version this resource keeps (${state.oldest}): its history was trimmed while it was read`
        : `this resource keeps no history (datastore_create history: false): version ${at.version} was replaced while it was read`,
    );
  }
  return written;
}

/** The resource as version `at` had it: with its field list then, when that is not today's
 *  (past-fields.ts); a search of the past is bound to it, and answers its `fields`. */
export async function resourceAt(engine: DatastoreEngine, r: Resource, at: ResolvedVersion | undefined): Promise<Resource> {
  if (!at || at.current) return r;
  const fields = await engine.fieldsAt(r, at.version);
  return fields ? { ...r, fields } : r;
}

/** A catalog time (UTC to the second, without the zone) as ISO 8601. */
function catalogTime(t: string): string {
  return /Z$/.test(t) ? t : `${t}Z`;
}

/** A field's change in one version. */
export interface FieldChange {
  old: unknown;
  new: unknown;
}

/** The fields whose values differ between two images (either may be null: inserted, deleted). */
export function changedFields(old: Record<string, unknown> | null, now: Record<string, unknown> | null): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  const keys = new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})]);
  keys.delete("_id");
  for (const k of keys) {
    const a = old ? (old[k] ?? null) : null;
    const b = now ? (now[k] ?? null) : null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = { old: a, new: b };
  }
  return out;
}

export type ChangeKind = "insert" | "update" | "delete";

export function changeKind(old: unknown, now: unknown): ChangeKind {
  return old === null ? "insert" : now === null ? "delete" : "update";
}

/** One version of a record, as datastore_record_history answers it. */
export interface RecordVersion {
  version: number;
  time: string | null;
  kind: ChangeKind;
  token: string | null;
  record: Record<string, unknown> | null;
  changed: Record<string, FieldChange>;
}

/** A record's versions from its images (oldest first): each image starts a version (an insert,
 *  or an update of the image before it), and an image a delete ended adds the delete. */
export function recordVersions(images: RowImage[], log: Map<number, VersionEntry>): RecordVersion[] {
  const out: RecordVersion[] = [];
  let prior: Record<string, unknown> | null = null;
  const push = (version: number, record: Record<string, unknown> | null) => {
    const entry = log.get(version);
    out.push({ version, time: entry?.time ?? null, kind: changeKind(prior, record), token: entry?.token ?? null, record, changed: changedFields(prior, record) });
  };
  for (const img of images) {
    // An image following a gap (deleted, then written again under the same _id) starts afresh.
    push(img.from, img.record);
    prior = img.record;
    if (img.deleted && img.to !== null) {
      push(img.to, null);
      prior = null;
    }
  }
  return out;
}

/** The versions the images name, for one log lookup. */
export function imageVersions(images: RowImage[]): number[] {
  return [...new Set(images.flatMap((i) => (i.deleted && i.to !== null ? [i.from, i.to] : [i.from])))];
}

/** One change's place in the list: its version, row, and kind (insert, update, delete). A row
 *  changes once a version (an insert updated again in its batch keeps no image), so (version,
 *  _id) orders the list and is the cursor. */
export interface ChangeKey {
  v: number;
  id: number;
  k: "i" | "u" | "d";
}

/**
 * The rows inserted after the cursor have `_id` past this: the version that inserted a row
 * grows with its `_id` (each version's largest `_id`, `id_to`, only grows), so the inserts
 * after (av, ai) are those past the largest `_id` at av, and those of av past ai. `last`: the
 * largest `_id` at `since`; `before`/`at`: the largest at av - 1 and at av.
 */
export function insertsPast(last: number, after: { version: number; id: number } | null, before: number, at: number): number {
  if (!after) return last;
  return Math.max(last, Math.min(Math.max(after.id, before), at));
}

/** The images after the cursor, as one (`_valid_to`, `_id`) bound an index seeks to: those
 *  replaced after `since` (every `_id` of it) and past the cursor. */
export function imagesPast(since: number, after: { version: number; id: number } | null): { av: number; ai: number } {
  return after && after.version > since ? { av: after.version, ai: after.id } : { av: since, ai: Number.MAX_SAFE_INTEGER };
}

/** The first `limit` of two sorted lists of changes (the inserts', the images'), in (version, _id) order. */
export function mergeChanges(a: ChangeKey[], b: ChangeKey[], limit: number): ChangeKey[] {
  const out: ChangeKey[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && (x.v < y.v || (x.v === y.v && x.id <= y.id)))) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}

/** A changes page's cursor: opaque to callers, the (version, _id) of the last change sent. */
export function encodeCursor(at: { version: number; id: number }): string {
  return Buffer.from(`${at.version}:${at.id}`).toString("base64url");
}

export function decodeCursor(value: unknown): { version: number; id: number } | null {
  if (value === undefined || value === null || value === "") return null;
  const m = typeof value === "string" ? /^(\d+):(\d+)$/.exec(Buffer.from(value, "base64url").toString()) : null;
  if (!m) throw DatastoreError.field("next_page", "next_page must be the value a previous datastore_changes answered");
  return { version: Number(m[1]), id: Number(m[2]) };
}
