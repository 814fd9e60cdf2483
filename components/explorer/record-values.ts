// A record as the edit form's texts and back. Numbers go out as numbers when they read as one;
// anything else goes out as typed, so the API answers its own type error (one transaction:
// nothing is written). An empty box is null. Only JSON is checked here: unparsable text in a
// JSON box would otherwise be stored as a string without a word.
import type { DatastoreField, DatastoreRecord } from "@/lib/api-client";
import { english, type Translate } from "@/lib/i18n";
import { isIntegerType, isNumericType } from "./format";

/** Each field's text in the form, by field id. */
export type Draft = Record<string, string>;

const INTEGER = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Fields whose values are JSON in the form: json itself and the list types (`_text`…). */
export function isJsonType(type: string): boolean {
  return type === "json" || type.startsWith("_");
}

export function valueToText(value: unknown, type: string): string {
  if (value === null || value === undefined) return "";
  if (isJsonType(type) || typeof value === "object") return JSON.stringify(value, null, 2);
  return String(value);
}

export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

/** A refusal's `message` follows the field's name ("is not valid JSON"). */
export function textToValue(text: string, type: string, t: Translate = english): Converted {
  if (text === "") return { ok: true, value: null };
  const trimmed = text.trim();
  // "1.5" for a whole number goes as typed: the API refuses it rather than rounding
  if (isIntegerType(type)) return { ok: true, value: INTEGER.test(trimmed) ? Number(trimmed) : text };
  if (isNumericType(type)) return { ok: true, value: NUMBER.test(trimmed) ? Number(trimmed) : text };
  if (type === "bool") return { ok: true, value: trimmed === "true" ? true : trimmed === "false" ? false : text };
  if (isJsonType(type)) {
    try {
      return { ok: true, value: JSON.parse(trimmed) };
    } catch {
      return { ok: false, message: t("record.notJson") };
    }
  }
  return { ok: true, value: text };
}

export function draftOf(fields: DatastoreField[], record: DatastoreRecord | null): Draft {
  return Object.fromEntries(fields.map((f) => [f.id, record ? valueToText(record[f.id], f.type) : ""]));
}

export type Built = { ok: true; record: DatastoreRecord; changed: number } | { ok: false; errors: string[] };

/**
 * The record to send. Editing (`original` given): the key fields as stored plus only the fields
 * whose text changed (CKAN's update merges). Adding: every field with text.
 * `names` words the errors as the form labels the fields.
 */
export function recordFromDraft(
  fields: DatastoreField[],
  draft: Draft,
  { original, keys, names }: { original: DatastoreRecord | null; keys: string[]; names: (f: DatastoreField) => string },
  t: Translate = english,
): Built {
  const record: DatastoreRecord = {};
  const errors: string[] = [];
  let changed = 0;
  const initial = original ? draftOf(fields, original) : null;
  for (const f of fields) {
    if (original && keys.includes(f.id)) {
      record[f.id] = original[f.id];
      continue;
    }
    const text = draft[f.id] ?? "";
    if (initial ? text === initial[f.id] : text === "") continue;
    const converted = textToValue(text, f.type, t);
    if (!converted.ok) errors.push(`${names(f)} ${converted.message}.`);
    else {
      record[f.id] = converted.value;
      changed++;
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, record, changed };
}
