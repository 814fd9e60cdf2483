// datastore_create (contract §3): creates a resource and its table, or alters and appends
// to an existing one. Validate (409) → authorize (403) → do it, all in one transaction.
import { randomUUID } from "node:crypto";
import { config } from "../../config";
import { recordWrite } from "../audit";
import { requireWrite, writeTarget, type ActionContext } from "../context";
import type { Field, Resource } from "../engine";
import { DatastoreError, ErrorBag } from "../errors";
import { parseLanguage } from "../text-language";
import { guessType, resolveType } from "../types";
import { asBool, asBoolStrict, asList, fieldNameError, isEmptyParam, isPlainObject, isUnset, requireResourceId, str, type Params } from "../validate";

interface DeclaredField {
  id: string;
  type?: string;
  info?: Record<string, unknown>;
}

const RESOURCE_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** Fields in one key or index: PostgreSQL's limit (INDEX_MAX_KEYS), kept on every engine. */
const MAX_KEY_FIELDS = 32;

/** A json value has no order to index by (PostgreSQL has no btree for it): never a key. */
function jsonKeys(r: Resource, keys: string[]): string[] {
  return keys.filter((k) => r.fields.find((f) => f.id === k)?.type === "json");
}

/** primary_key / aliases: a list or comma string of names (`""` clears). */
function nameList(v: unknown, key: string, bag: ErrorBag): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = asList(v);
  if (list === null || list.some((x) => typeof x !== "string")) {
    bag.add(key, `invalid value ${JSON.stringify(v)}`);
    return undefined;
  }
  if (key === "primary_key" && list.length > MAX_KEY_FIELDS) {
    bag.add(key, `at most ${MAX_KEY_FIELDS} fields may form a key`);
    return undefined;
  }
  return list as string[];
}

/** indexes: a list or comma string; list items may be lists (composite indexes). */
function indexList(v: unknown, bag: ErrorBag): string[][] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = asList(v);
  const ok = list?.every((x) => typeof x === "string" || (Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === "string")));
  if (!list || !ok) {
    bag.add("indexes", `invalid value ${JSON.stringify(v)}`);
    return undefined;
  }
  if (list.some((x) => Array.isArray(x) && x.length > MAX_KEY_FIELDS)) {
    bag.add("indexes", `at most ${MAX_KEY_FIELDS} fields may form an index`);
    return undefined;
  }
  return list.map((x) => (Array.isArray(x) ? (x as string[]) : [x as string]));
}

/** The records-per-request limit (DATASTORE_MAX_RECORDS), shared with datastore_upsert. */
export function tooManyRecords(count: number): string {
  return `at most ${config.maxRecords} records are allowed per request (got ${count}); send them in several requests`;
}

export function parseFields(v: unknown, bag: ErrorBag, params: Params): DeclaredField[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    bag.add("fields", "fields must be a list");
    return [];
  }
  if (v.some((f) => !isPlainObject(f))) {
    throw DatastoreError.integrity("Only lists of dicts can be placed against subschema ('fields',)", params);
  }
  if (v.length > config.maxFields) bag.add("fields", `at most ${config.maxFields} fields are allowed`);
  const seen = new Set<string>();
  const out: DeclaredField[] = [];
  for (const f of v as Record<string, unknown>[]) {
    const nameError = fieldNameError(f.id);
    if (nameError) {
      bag.add("fields", nameError);
      continue;
    }
    const id = f.id as string;
    if (seen.has(id)) bag.add("field", `duplicate column: ${id}`);
    seen.add(id);
    const field: DeclaredField = { id };
    if (!isUnset(f.type)) {
      if (resolveType(f.type) === null) bag.add("fields", `"${str(f.type)}" is not a valid field type`);
      else field.type = String(f.type);
    }
    if (f.info !== undefined && f.info !== null) {
      if (isPlainObject(f.info)) field.info = f.info;
      else bag.add("info", `invalid value ${JSON.stringify(f.info)}`);
    }
    out.push(field);
  }
  return out;
}

export async function datastoreCreate(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const hasId = !isEmptyParam(params.resource_id) || !isEmptyParam(params.id);
  const hasResource = !isUnset(params.resource);
  let resourceId = hasId ? requireResourceId(params) : "";
  if (!hasId && !hasResource) bag.add("resource_id", "resource_id or resource required");
  if (hasId && hasResource) bag.add("resource", "resource cannot be used with resource_id");
  if (hasId && !RESOURCE_ID_RE.test(resourceId)) bag.add("resource_id", `invalid value "${resourceId}"`);
  const resourceMeta = hasResource && !hasId ? params.resource : undefined;
  if (resourceMeta !== undefined && !isPlainObject(resourceMeta)) bag.add("resource", "resource must be a dict");

  const declared = parseFields(params.fields, bag, params);
  let records: Record<string, unknown>[] = [];
  if (!isUnset(params.records)) {
    if (!Array.isArray(params.records)) bag.add("records", "records must be a list");
    else if (params.records.length > config.maxRecords) bag.add("records", tooManyRecords(params.records.length));
    else if (params.records.length && !isPlainObject(params.records[0])) bag.add("records", "The first row is not a json object");
    else records = params.records as Record<string, unknown>[];
  }
  const primaryKey = nameList(params.primary_key, "primary_key", bag);
  const indexes = indexList(params.indexes, bag);
  const aliases = nameList(params.aliases, "aliases", bag);
  for (const a of aliases ?? []) {
    if (fieldNameError(a) || a.includes("%")) bag.add("alias", `"${a}" is not a valid alias name`);
  }
  const deleteFields = asBool(params.delete_fields, false);
  const history = asBoolStrict(params.history, "history", bag, true);
  const language = parseLanguage(params.language, bag);
  bag.throwIfAny();

  const meta = resourceMeta as Record<string, unknown> | undefined;
  if (meta) resourceId = randomUUID();

  requireWrite(ctx, meta ? null : resourceId, "datastore_create");
  return ctx.engine.transaction(async (tx) => {
    let existing = await writeTarget(tx, resourceId);
    // A resource whose table was dropped is created as if new (the engine keeps its name).
    if (existing && !existing.active) existing = undefined;
    const known = new Map((existing?.fields ?? []).map((f) => [f.id, f]));

    const created = !existing;
    // Types: declared, else guessed from the first record (contract §2).
    const first = records[0] ?? {};
    const errors = new ErrorBag();
    const resolved: (DeclaredField & { type: string })[] = [];
    for (const f of declared) {
      if (f.type) resolved.push({ ...f, type: f.type });
      else if (known.has(f.id)) resolved.push({ ...f, type: known.get(f.id)!.type });
      else if (f.id in first) resolved.push({ ...f, type: guessType(first[f.id]) });
      else errors.add("fields", `"${f.id}" type not guessable`);
    }
    const declaredIds = new Set(declared.map((f) => f.id));
    const extra = Object.keys(first)
      .filter((k) => !declaredIds.has(k) && !known.has(k))
      .map((id) => ({ id, type: guessType(first[id]) }));
    for (const f of extra) {
      const err = fieldNameError(f.id);
      if (err) errors.add("fields", err);
    }
    errors.throwIfAny();

    const toField = (f: DeclaredField & { type: string }): Field => ({
      id: f.id,
      type: resolveType(f.type)!,
      ...(f.info ? { info: f.info } : {}),
    });
    const newFields = [...resolved, ...extra].filter((f) => !known.has(f.id)).map(toField);
    const drop = deleteFields && existing ? existing.fields.filter((f) => !declaredIds.has(f.id)).map((f) => f.id) : [];
    const total = (existing?.fields.length ?? 0) + newFields.length - drop.length;
    if (total > config.maxFields) throw DatastoreError.field("fields", `at most ${config.maxFields} fields are allowed`);

    if (!existing) {
      existing = await tx.createResource(
        {
          id: resourceId,
          name: typeof meta?.name === "string" && meta.name.trim() ? meta.name.trim() : resourceId,
          description: typeof meta?.description === "string" ? meta.description : "",
          private: asBool(meta?.private, false),
          ...(language ? { language } : {}),
          history,
        },
        newFields,
      );
    } else {
      const infoUpdates = resolved.filter((f) => known.has(f.id) && f.info).map(toField);
      await tx.alterFields(existing.id, newFields, infoUpdates, drop);
      // Another language: the index is built again in it (the engine does nothing for the same).
      if (language) await tx.setLanguage(existing.id, language);
    }
    const r = (await tx.getResource(existing.id)) as Resource;
    const fieldIds = new Set(r.fields.map((f) => f.id));

    const unknownKeys = (primaryKey ?? []).filter((k) => !fieldIds.has(k));
    if (unknownKeys.length) throw DatastoreError.field("primary_key", `fields "${unknownKeys.join('", "')}" do not exist`);
    const jsonKey = jsonKeys(r, primaryKey ?? []);
    if (jsonKey.length) throw DatastoreError.field("primary_key", `json fields cannot form a key: "${jsonKey.join('", "')}"`);
    if (aliases !== undefined) {
      for (const a of aliases) {
        const owner = await tx.nameOwner(a);
        if (owner !== undefined && owner !== r.id) throw DatastoreError.field("alias", `alias "${a}" is already in use`);
        if (a === r.id) throw DatastoreError.field("alias", `alias "${a}" is the resource id`);
      }
      await tx.setAliases(r.id, aliases);
    }
    if (records.length) await tx.write(r.id, records, "insert");
    // As CKAN: the key's unique index is built after the records go in, so duplicates among
    // them are refused under `constraints`.
    if (primaryKey !== undefined) await tx.setPrimaryKey(r.id, primaryKey);
    if (indexes !== undefined) {
      const unknown = indexes.flat().filter((k) => !fieldIds.has(k));
      if (unknown.length) throw DatastoreError.field("index", `fields "${unknown.join('", "')}" do not exist`);
      const jsonIndexed = jsonKeys(r, indexes.flat());
      if (jsonIndexed.length) throw DatastoreError.field("index", `json fields cannot be indexed: "${jsonIndexed.join('", "')}"`);
      await tx.setIndexes(r.id, indexes);
    }

    const result: Record<string, unknown> = { ...params };
    delete result.records;
    delete result.id;
    if (!meta) delete result.force;
    result.resource_id = r.id;
    await recordWrite(tx, ctx.user, { action: "datastore_create", resourceId: r.id, rows: records.length, detail: { created } });
    if (params.fields !== undefined) {
      result.fields = declared.map((f) => {
        const t = resolved.find((x) => x.id === f.id);
        return { ...f, type: t?.type ?? f.type };
      });
    }
    if (records.length) result.method = "insert";
    if (params.delete_fields === undefined) result.delete_fields = false;
    return result;
  }, [resourceId]);
}
