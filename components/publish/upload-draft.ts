// What the user decides between the preview and the import: per column its field id, type and
// whether it is part of the primary key; the resource's name, description, privacy and where the
// rows go. Turned into the import request in one place.
import { FIELD_TYPES, type ImportMode, type ImportRequest, type UploadPreview } from "@/lib/api-client/upload";
import { baseName } from "./upload-format";

export type ColumnDraft = { from: string; id: string; type: string; key: boolean };

export type UploadDraft = {
  columns: ColumnDraft[];
  name: string;
  description: string;
  private: boolean;
  mode: ImportMode;
  /** The resource to append to or replace. */
  target: string;
};

// The importer reports storage names; the type menu offers the datastore's short ones.
const SHORT: Record<string, string> = { int4: "int", float8: "float" };

export function shortType(type: string): string {
  return SHORT[type] ?? type;
}

/** The type menu for a column: the usual types, plus the inferred one when it is none of them (int8). */
export function typeOptions(inferred: string): string[] {
  const t = shortType(inferred);
  return (FIELD_TYPES as readonly string[]).includes(t) ? [...FIELD_TYPES] : [...FIELD_TYPES, t];
}

export const IMPORT_MODES: readonly ImportMode[] = ["new", "append", "replace"];

/** The action an import is to the API (lib/upload/uploads.ts): an append upserts, new and replace create. */
export function importAction(mode: ImportMode): string {
  return mode === "append" ? "datastore_upsert" : "datastore_create";
}

/** The modes a token may import in (components/token/may.ts): a new resource, or one it may write. */
export function importModes(may: (action: string, resourceId: null) => boolean, maySomewhere: (action: string) => boolean): ImportMode[] {
  return IMPORT_MODES.filter((m) => (m === "new" ? may(importAction(m), null) : maySomewhere(importAction(m))));
}

/** `mode`: the first the token may use. */
export function initialDraft(preview: UploadPreview, mode: ImportMode = "new"): UploadDraft {
  return {
    columns: preview.columns.map((c) => ({ from: c.id, id: c.id, type: shortType(c.type), key: false })),
    name: baseName(preview.filename),
    description: "",
    private: false,
    mode,
    target: "",
  };
}

/** The import request for the draft; appended rows take the resource's own types and key. */
export function importRequest(draft: UploadDraft): ImportRequest {
  const append = draft.mode === "append";
  const fields = draft.columns.map((c) => ({ from: c.from, id: c.id.trim() || c.from, ...(append ? {} : { type: c.type }) }));
  const key = draft.columns.filter((c) => c.key).map((c) => c.id.trim() || c.from);
  if (draft.mode === "new") {
    return {
      mode: "new",
      name: draft.name.trim() || undefined,
      description: draft.description.trim() || undefined,
      private: draft.private,
      fields,
      primary_key: key.length ? key : undefined,
    };
  }
  // append and replace keep the resource's name, description and privacy
  return { mode: draft.mode, resource_id: draft.target, fields, primary_key: !append && key.length ? key : undefined };
}
