"use client";
// The filter chips and "Add filter". Each chip is one field (`origin: SEA or PDX`, any of its
// values); chips are ANDed. Together they are exactly the API's `filters` object.
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import { chipsFromFilters, describeChip, type Filters, type Scalar, type ViewState } from "@/lib/view-state";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FieldPicker, ValuePicker } from "./filter-editor";

type Editing = { mode: "closed" } | { mode: "add"; field: DatastoreField | null } | { mode: "edit"; field: DatastoreField };

export function FilterBar({
  view,
  fields,
  onChange,
}: {
  view: ViewState;
  /** Fields that can be filtered on. */
  fields: DatastoreField[];
  onChange: (field: string, values: Scalar[]) => void;
}) {
  const [editing, setEditing] = useState<Editing>({ mode: "closed" });
  const chips = chipsFromFilters(view.filters);
  const close = () => setEditing({ mode: "closed" });
  const fieldFor = (id: string): DatastoreField => fields.find((f) => f.id === id) ?? { id, type: "text" };

  function pick(field: DatastoreField) {
    // a field that already has a chip is edited rather than given a second one
    setEditing(view.filters[field.id] !== undefined ? { mode: "edit", field } : { mode: "add", field });
  }

  const current = editing.mode !== "closed" ? editing.field : null;
  const initial = current ? chipsFromFilters(view.filters as Filters).find((c) => c.field === current.id)?.values ?? [] : [];

  return (
    <div className="flex flex-wrap items-center gap-2">
      {chips.length > 0 && (
        <ul className="contents">
          {chips.map((chip) => {
            const text = describeChip(chip);
            return (
              <li
                key={chip.field}
                className="inline-flex max-w-full items-center rounded-full border border-blue-300 bg-blue-50 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
              >
                <button
                  type="button"
                  title="Edit this filter"
                  onClick={() => setEditing({ mode: "edit", field: fieldFor(chip.field) })}
                  className="min-w-0 truncate rounded-l-full py-1 pr-1 pl-3 hover:underline"
                >
                  {text}
                </button>
                <button
                  type="button"
                  aria-label={`Remove filter ${text}`}
                  onClick={() => onChange(chip.field, [])}
                  className="rounded-r-full px-2 py-1 hover:bg-blue-100 dark:hover:bg-blue-900"
                >
                  <span aria-hidden>✕</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Button onClick={() => setEditing({ mode: "add", field: null })} disabled={fields.length === 0} aria-haspopup="dialog">
        <span aria-hidden>+</span> Add filter
      </Button>
      <Dialog
        open={editing.mode !== "closed"}
        onClose={close}
        title={current ? `Filter: ${current.id}` : "New filter"}
      >
        {editing.mode !== "closed" &&
          (current ? (
            <ValuePicker
              key={current.id}
              view={view}
              field={current}
              initial={initial}
              onApply={(values) => {
                onChange(current.id, values);
                close();
              }}
              onBack={editing.mode === "add" ? () => setEditing({ mode: "add", field: null }) : undefined}
              onRemove={initial.length ? () => (onChange(current.id, []), close()) : undefined}
              onCancel={close}
            />
          ) : (
            <FieldPicker fields={fields} onPick={pick} />
          ))}
      </Dialog>
    </div>
  );
}
