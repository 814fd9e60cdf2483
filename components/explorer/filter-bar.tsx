"use client";
// The filter chips and "Add filter". Each chip is one key of the API's `filters` object
// (`origin: SEA or PDX`, `delay: 60 to 120`, `county: is empty`…); chips are ANDed.
// Focus never falls to the page: the dialog hands it back to its opener, and a removed chip
// passes it to its neighbour, or to "Add filter".
import { useId, useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import {
  chipForField,
  chipKey,
  chipsFromFilters,
  chipValue,
  chipInWords,
  fieldKey,
  withChip,
  withoutChip,
  type Chip,
  type Filters,
  type ViewState,
} from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FieldPicker } from "./field-picker";
import { FilterEditor } from "./filter-editor";
import { GroupFilter } from "./group-filter";

type Editing =
  /** `focus`: the id of the element to focus once closed, when the opener is gone. */
  | { mode: "closed"; focus?: string }
  | { mode: "add"; field: DatastoreField | null }
  | { mode: "edit"; field: DatastoreField }
  | { mode: "group"; chip: Chip };

function ChipButton({ id, chip, onEdit, onRemove }: { id: string; chip: Chip; onEdit: () => void; onRemove: () => void }) {
  const t = useT();
  const text = chipInWords(chip, t);
  return (
    <li className="inline-flex max-w-full items-center rounded-full border border-blue-300 bg-blue-50 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100">
      <button id={id} type="button" title={t("chip.edit")} onClick={onEdit} className="min-w-0 truncate rounded-l-full py-1 pr-1 pl-3 hover:underline">
        {text}
      </button>
      {/* named by its text, not aria-label: a page's getByLabel("To") must find only the range input */}
      <button type="button" onClick={onRemove} className="rounded-r-full px-2 py-1 hover:bg-blue-100 dark:hover:bg-blue-900">
        <span className="sr-only">{t("chip.remove", { filter: text })}</span>
        <span aria-hidden>✕</span>
      </button>
    </li>
  );
}

export function FilterBar({
  view,
  fields,
  onChange,
}: {
  view: ViewState;
  /** Fields that can be filtered on. */
  fields: DatastoreField[];
  onChange: (filters: Filters) => void;
}) {
  const [editing, setEditing] = useState<Editing>({ mode: "closed" });
  const t = useT();
  const chips = chipsFromFilters(view.filters);
  const ids = useId();
  const addId = `${ids}-add`;
  // chips are keyed by their filters key, which may hold any character: ids use the position
  const chipId = (i: number) => `${ids}-chip-${i}`;
  const close = () => setEditing({ mode: "closed" });
  const fieldFor = (id: string): DatastoreField => fields.find((f) => f.id === id) ?? { id, type: "text" };

  function pick(field: DatastoreField) {
    // a field that already has a chip is edited rather than given a second one
    setEditing(chipForField(view.filters, field.id) ? { mode: "edit", field } : { mode: "add", field });
  }

  function edit(chip: Chip) {
    setEditing(chip.field === null ? { mode: "group", chip } : { mode: "edit", field: fieldFor(chip.field) });
  }

  /** Removes a chip from the dialog: its chip, the dialog's opener, goes with it. */
  const remove = (key: string) => {
    onChange(withoutChip(view.filters, key));
    setEditing({ mode: "closed", focus: addId });
  };

  /** The chip's ✕: the focus moves to the next chip (or the one before, or "Add filter"). */
  const removeAt = (i: number) => {
    const next = i + 1 < chips.length ? chipId(i + 1) : i > 0 ? chipId(i - 1) : addId;
    document.getElementById(next)?.focus();
    onChange(withoutChip(view.filters, chipKey(chips[i])));
  };

  const current = editing.mode === "add" || editing.mode === "edit" ? editing.field : null;
  const currentChip = current ? chipForField(view.filters, current.id) : undefined;
  const title = current ? t("filter.titleField", { field: current.id }) : editing.mode === "group" ? t("filter.titleCombined") : t("filter.titleNew");

  return (
    <div className="flex flex-wrap items-center gap-2">
      {chips.length > 0 && (
        <ul className="contents">
          {chips.map((chip, i) => (
            <ChipButton key={chipKey(chip)} id={chipId(i)} chip={chip} onEdit={() => edit(chip)} onRemove={() => removeAt(i)} />
          ))}
        </ul>
      )}
      <Button id={addId} onClick={() => setEditing({ mode: "add", field: null })} disabled={fields.length === 0} aria-haspopup="dialog">
        <span aria-hidden>+</span> {t("filter.add")}
      </Button>
      <Dialog
        open={editing.mode !== "closed"}
        onClose={close}
        title={title}
        returnFocusTo={editing.mode === "closed" ? editing.focus : undefined}
      >
        {editing.mode === "group" ? (
          <GroupFilter
            json={JSON.stringify({ [chipKey(editing.chip)]: chipValue(editing.chip) }, null, 2)} onRemove={() => remove(chipKey(editing.chip))} onCancel={close} />
        ) : current ? (
          <FilterEditor
            key={current.id}
            view={view}
            field={current}
            chip={currentChip}
            onApply={(chip) => {
              onChange(withChip(view.filters, chip));
              close();
            }}
            onBack={editing.mode === "add" ? () => setEditing({ mode: "add", field: null }) : undefined}
            onRemove={currentChip ? () => remove(fieldKey(current.id)) : undefined}
            onCancel={close}
          />
        ) : editing.mode === "add" ? (
          <FieldPicker fields={fields} onPick={pick} />
        ) : null}
      </Dialog>
    </div>
  );
}
