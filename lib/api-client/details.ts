// Editing a resource's details from the browser: plain fetchers for resource_patch, the data
// dictionary (datastore_create with fields[].info, CKAN's label and notes) and resource_delete,
// and the pure diff that decides which of them a Save sends.
import { callAction, type Auth } from "./fetch";
import type { DatastoreField, Resource } from "./types";

export type ResourcePatch = { name?: string; description?: string; private?: boolean };

/** One field's entry in the dictionary form. */
export type DictionaryEntry = { label: string; notes: string };

export type DetailsDraft = {
  name: string;
  description: string;
  private: boolean;
  dictionary: Record<string, DictionaryEntry>;
};

export type FieldInfoUpdate = { id: string; info: Record<string, unknown> };

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function draftFrom(resource: Resource, fields: DatastoreField[]): DetailsDraft {
  return {
    name: resource.name ?? "",
    description: resource.description ?? "",
    private: Boolean(resource.private),
    dictionary: Object.fromEntries(fields.map((f) => [f.id, { label: text(f.info?.label), notes: text(f.info?.notes) }])),
  };
}

/**
 * What a Save must send: the resource keys that changed, and the info of the fields whose label
 * or notes changed. CKAN replaces a field's info as a whole, so other keys (type_override…) are
 * sent back as they were; an emptied label or notes is left out rather than stored as "".
 */
export function detailsChanges(resource: Resource, fields: DatastoreField[], draft: DetailsDraft) {
  const before = draftFrom(resource, fields);
  const patch: ResourcePatch = {};
  if (draft.name !== before.name) patch.name = draft.name;
  if (draft.description !== before.description) patch.description = draft.description;
  if (draft.private !== before.private) patch.private = draft.private;
  const dictionary: FieldInfoUpdate[] = [];
  for (const f of fields) {
    const was = before.dictionary[f.id];
    const now = draft.dictionary[f.id] ?? was;
    if (now.label === was.label && now.notes === was.notes) continue;
    const info: Record<string, unknown> = { ...f.info };
    delete info.label;
    delete info.notes;
    if (now.label.trim()) info.label = now.label;
    if (now.notes.trim()) info.notes = now.notes;
    dictionary.push({ id: f.id, info });
  }
  return { patch, dictionary };
}

export function patchResource(id: string, patch: ResourcePatch, auth: Auth): Promise<Resource> {
  return callAction<Resource>("resource_patch", { id, ...patch }, auth);
}

/** Sets the info of existing fields; their types and rows stay as they are. */
export function setFieldInfo(resourceId: string, fields: FieldInfoUpdate[], auth: Auth): Promise<unknown> {
  return callAction("datastore_create", { resource_id: resourceId, fields }, auth);
}

export function deleteResource(id: string, auth: Auth): Promise<null> {
  return callAction<null>("resource_delete", { id }, auth);
}

/** Whether a datastore query key (queries.ts) reads one of these resource ids or aliases: after
 *  a delete those are dropped rather than refetched into a 404. */
export function readsResource(key: readonly unknown[], names: ReadonlySet<string>): boolean {
  const request = key[3];
  if (typeof request === "string") return names.has(request);
  const id = request !== null && typeof request === "object" ? (request as { resource_id?: unknown }).resource_id : undefined;
  return typeof id === "string" && names.has(id);
}
