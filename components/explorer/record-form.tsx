"use client";
// The form for one record, shared by "Edit record" and "Add record": a box per field, named as
// the record view names it, key fields read-only when editing (a new key would be another
// record). A refused write shows the API's own words above the fields.
import { useId, useState } from "react";
import type { DatastoreField, DatastoreRecord } from "@/lib/api-client";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { fieldLabel } from "./field-match";
import { typeInWords } from "./format";
import { draftOf, isJsonType, recordFromDraft, type Draft } from "./record-values";

const fieldName = (f: DatastoreField) => fieldLabel(f) ?? f.id;

const BOX =
  "w-full rounded-md border bg-white px-2 py-1 text-sm dark:bg-zinc-900 read-only:bg-zinc-100 read-only:text-zinc-700 dark:read-only:bg-zinc-800 dark:read-only:text-zinc-300";

function FieldBox({
  field,
  value,
  readOnly,
  required,
  autoFocus,
  onChange,
}: {
  field: DatastoreField;
  value: string;
  readOnly: boolean;
  required: boolean;
  autoFocus: boolean;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const t = useT();
  const hint = `${field.id} · ${typeInWords(field.type, t)}${readOnly ? t("record.keyNotEditable") : required ? t("record.keyRequired") : ""}`;
  const common = { id, "aria-describedby": `${id}-hint`, autoFocus, className: BOX };
  // a multi-line or long text would lose its line breaks in a one-line box
  const long = value.includes("\n") || value.length > 80;
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[11rem_1fr] sm:gap-3">
      <div className="text-sm font-medium break-words">
        <label htmlFor={id} className="block">
          {fieldName(field)}
        </label>
        <span id={`${id}-hint`} className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">
          {hint}
        </span>
      </div>
      <div className="min-w-0">
        {field.type === "bool" && !readOnly ? (
          <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">{t("record.emptyOption")}</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : isJsonType(field.type) || (long && !readOnly) ? (
          <textarea
            {...common}
            className={`${BOX} ${isJsonType(field.type) ? "font-mono text-xs" : ""}`}
            rows={Math.min(10, value.split("\n").length + 1)}
            readOnly={readOnly}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input {...common} type="text" readOnly={readOnly} required={required} value={value} onChange={(e) => onChange(e.target.value)} />
        )}
      </div>
    </div>
  );
}

export function RecordForm({
  fields,
  original,
  keys,
  errors,
  pending,
  onSubmit,
  onCancel,
}: {
  /** The resource's fields, without `_id`. */
  fields: DatastoreField[];
  /** The stored record being edited, or null for a new one. */
  original: DatastoreRecord | null;
  /** The primary key's fields. */
  keys: string[];
  /** The API's messages for the last attempt, if it was refused. */
  errors: string[] | null;
  pending: boolean;
  /** `changed` counts the fields that would change (0: nothing to send). */
  onSubmit: (record: DatastoreRecord, changed: number) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(fields, original));
  const [invalid, setInvalid] = useState<string[] | null>(null);
  const t = useT();
  const shown = invalid ?? errors;
  const firstEditable = fields.find((f) => !(original && keys.includes(f.id)))?.id;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const built = recordFromDraft(fields, draft, { original, keys, names: fieldName }, t);
        setInvalid(built.ok ? null : built.errors);
        if (built.ok) onSubmit(built.record, built.changed);
      }}
    >
      {shown && shown.length > 0 && (
        <div className="mb-2">
          <Notice tone="error" role="alert" title={t("record.notSaved")}>
            {shown.map((m, i) => (
              <p key={i} className="break-words">
                {m}
              </p>
            ))}
          </Notice>
        </div>
      )}
      <div className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {fields.map((f) => (
          <FieldBox
            key={f.id}
            field={f}
            value={draft[f.id] ?? ""}
            readOnly={Boolean(original) && keys.includes(f.id)}
            required={!original && keys.includes(f.id)}
            autoFocus={f.id === firstEditable}
            onChange={(text) => setDraft((d) => ({ ...d, [f.id]: text }))}
          />
        ))}
      </div>
      <div className="sticky bottom-0 flex gap-2 border-t bg-white pt-3 dark:bg-zinc-900">
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? t("common.saving") : t("common.save")}
        </Button>
        <Button onClick={onCancel} disabled={pending}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
