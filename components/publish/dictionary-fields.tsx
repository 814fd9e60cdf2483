"use client";
// The data dictionary part of Edit details: per field a Label and a Description (CKAN's
// `info.label` and `info.notes`). Each field is a group named by its id, so its two controls
// can keep the plain names "Label" and "Description".
import { useT } from "@/components/i18n/i18n-provider";
import { useId } from "react";
import type { DatastoreField } from "@/lib/api-client";
import type { DictionaryEntry } from "@/lib/api-client/details";
import { typeInWords } from "@/components/explorer/format";

export const INPUT_CLASS = "w-full rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900";

export function DictionaryFields({
  fields,
  entries,
  onChange,
}: {
  fields: DatastoreField[];
  entries: Record<string, DictionaryEntry>;
  onChange: (id: string, entry: DictionaryEntry) => void;
}) {
  const baseId = useId();
  const t = useT();
  const headingId = `${baseId}-heading`;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold">
        {t("details.dictionary")}
      </h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("details.dictionaryHint")}</p>
      {fields.map((f, i) => {
        const entry = entries[f.id] ?? { label: "", notes: "" };
        // field ids may hold spaces: not usable in an id reference
        const labelId = `${baseId}-${i}-label`;
        const notesId = `${baseId}-${i}-notes`;
        return (
          <fieldset key={f.id} className="space-y-2 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">
              {f.id} <span className="font-normal text-zinc-600 dark:text-zinc-400">({typeInWords(f.type, t)})</span>
            </legend>
            <div className="space-y-1">
              <label htmlFor={labelId} className="block text-sm">
                {t("details.label")}
              </label>
              <input id={labelId} value={entry.label} onChange={(e) => onChange(f.id, { ...entry, label: e.target.value })} className={INPUT_CLASS} />
            </div>
            <div className="space-y-1">
              <label htmlFor={notesId} className="block text-sm">
                {t("save.description")}
              </label>
              <textarea id={notesId} rows={2} value={entry.notes} onChange={(e) => onChange(f.id, { ...entry, notes: e.target.value })} className={INPUT_CLASS} />
            </div>
          </fieldset>
        );
      })}
    </section>
  );
}
