// datastore_record_history and datastore_changes (extensions, issue 27): a record's versions,
// oldest first, each with the fields it changed; and every change after a version or a time,
// paged by an opaque cursor, for a program keeping a copy in sync. The rules are
// lib/datastore/history.ts's; the engine reads the images.
import { findResource, requireRead, type ActionContext } from "../context";
import type { Resource, VersionEntry } from "../engine";
import { DatastoreError, ErrorBag } from "../errors";
import { changeKind, decodeCursor, encodeCursor, imageVersions, parseAsOf, recordVersions, resolveAsOf } from "../history";
import { toStorage } from "../types";
import { asInt, isPlainObject, isUnset, parseJsonString, requireResourceId, type Params } from "../validate";

const CHANGES_LIMIT = 100;
const CHANGES_MAX = 1000;

/** The row a request names: `_id`, or `key` (the primary key's values, every key field). */
function rowOf(r: Resource, params: Params): { id: number } | { key: Record<string, unknown> } {
  if (!isUnset(params._id)) {
    const id = Number(params._id);
    if (!Number.isSafeInteger(id) || id < 1) throw DatastoreError.field("_id", "_id must be a positive integer");
    return { id };
  }
  const key = parseJsonString(params.key);
  if (!isPlainObject(key)) throw DatastoreError.field("key", "give _id, or key: the primary key's values as {field: value}");
  if (!r.primaryKey.length) throw DatastoreError.field("key", "this resource has no primary key: give _id");
  const missing = r.primaryKey.filter((k) => !(k in key));
  const extra = Object.keys(key).filter((k) => !r.primaryKey.includes(k));
  if (missing.length || extra.length) throw DatastoreError.field("key", `key must give exactly the primary key's fields: ${r.primaryKey.join(", ")}`);
  for (const f of r.fields) {
    if (!(f.id in key)) continue;
    try {
      toStorage(f.type, key[f.id]);
    } catch {
      throw DatastoreError.field("key", `${f.id}: not a valid ${f.type}`);
    }
  }
  return { key };
}

function byVersion(entries: VersionEntry[]): Map<number, VersionEntry> {
  return new Map(entries.map((e) => [e.version, e]));
}

export async function datastoreRecordHistory(ctx: ActionContext, params: Params) {
  const r = await findResource(ctx, requireResourceId(params));
  requireRead(ctx, r, "datastore_record_history");
  const row = rowOf(r, params);
  const found = await ctx.engine.rowImages(r, row);
  if (!found) throw DatastoreError.notFound(`no record ${"id" in row ? `with _id ${row.id}` : `with key ${JSON.stringify(row.key)}`} in resource "${r.id}" or its history`);
  const log = byVersion(await ctx.engine.versionEntries(r, imageVersions(found.images)));
  return { resource_id: r.id, _id: found.id, _ids: found.ids, versions: recordVersions(found.images, log) };
}

export async function datastoreChanges(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const resourceId = requireResourceId(params);
  if (isUnset(params.since)) bag.add("since", "Missing value: a version number or an ISO 8601 time");
  const limit = asInt(params.limit, "limit", bag, CHANGES_LIMIT, "Must be a natural number", CHANGES_MAX);
  bag.throwIfAny();
  const since = parseAsOf(params.since, "since")!;
  const after = decodeCursor(params.next_page);
  const r = await findResource(ctx, resourceId);
  requireRead(ctx, r, "datastore_changes");
  const from = await resolveAsOf(ctx.engine, r, since, "since");
  const state = await ctx.engine.historyState(r);
  const page = await ctx.engine.changes(r, from.version, after, limit);
  const log = byVersion(await ctx.engine.versionEntries(r, [...new Set(page.changes.map((c) => c.version))]));
  const changes = page.changes.map((c) => {
    const entry = log.get(c.version);
    const names = new Set([...Object.keys(c.old ?? {}), ...Object.keys(c.record ?? {})]);
    names.delete("_id");
    const changed = [...names].filter((k) => JSON.stringify(c.old?.[k] ?? null) !== JSON.stringify(c.record?.[k] ?? null));
    return { version: c.version, time: entry?.time ?? null, kind: changeKind(c.old, c.record), token: entry?.token ?? null, _id: c.id, record: c.record, old: c.old, changed };
  });
  const last = page.changes.at(-1);
  const next = last && limit > 0 && changes.length === limit ? encodeCursor({ version: last.version, id: last.id }) : null;
  const base = { resource_id: r.id, since: params.since, limit };
  return {
    resource_id: r.id,
    since: from.version,
    version: state.version,
    changes,
    total: page.total,
    records_changed: page.records,
    next_page: next,
    _links: { start: link(base), next: next ? link({ ...base, next_page: next }) : null },
  };
}

function link(params: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) qs.set(k, String(v));
  return `/api/action/datastore_changes?${qs}`;
}
