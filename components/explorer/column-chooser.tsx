"use client";
// Show/hide columns: writes the view's `fields` (the API's own column selection). `_id` stays,
// so a row can always be opened in full. Each column by its header (the data dictionary's
// label), with its field id and type in words.
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { fieldLabel } from "./field-match";
import { typeInWords } from "./format";

export function ColumnChooser({
  allFields,
  visible,
  onChange,
}: {
  /** Every field of the resource, `_id` first. */
  allFields: DatastoreField[];
  /** The view's `fields`, or null for all. */
  visible: string[] | null;
  onChange: (fields: string[] | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const shown = new Set(visible ?? allFields.map((f) => f.id));
  const hiddenCount = allFields.filter((f) => !shown.has(f.id)).length;

  function toggle(id: string, on: boolean) {
    const next = allFields.filter((f) => (f.id === id ? on : shown.has(f.id))).map((f) => f.id);
    onChange(next.length === allFields.length ? null : next);
  }

  return (
    <>
      <Button onClick={() => setOpen(true)} disabled={allFields.length === 0} aria-haspopup="dialog">
        {hiddenCount > 0 ? t("columns.buttonHidden", { count: hiddenCount }) : t("columns.button")}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t("columns.button")}>
        <fieldset>
          <legend className="mb-2 text-sm text-zinc-700 dark:text-zinc-300">{t("columns.choose")}</legend>
          <ul className="space-y-1">
            {allFields.map((f) => (
              <li key={f.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={shown.has(f.id)}
                    disabled={f.id === "_id" || (shown.has(f.id) && shown.size === 1)}
                    onChange={(e) => toggle(f.id, e.target.checked)}
                  />
                  <span className="font-medium">{fieldLabel(f) ?? f.id}</span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    {fieldLabel(f) ? `${f.id} · ` : ""}
                    {f.id === "_id" ? t("columns.recordNumberShown") : typeInWords(f.type, t)}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="mt-4 flex gap-2">
          <Button onClick={() => onChange(null)} disabled={hiddenCount === 0}>
            {t("columns.showAll")}
          </Button>
          <Button variant="primary" onClick={() => setOpen(false)}>
            {t("common.done")}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
