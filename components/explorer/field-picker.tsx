"use client";
// "Add filter", first step: which field. A name box appears when there are many fields.
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";

export function FieldPicker({ fields, onPick }: { fields: DatastoreField[]; onPick: (field: DatastoreField) => void }) {
  const [term, setTerm] = useState("");
  const shown = fields.filter((f) => f.id.toLowerCase().includes(term.trim().toLowerCase()));
  return (
    <div>
      <p className="mb-2 text-sm text-zinc-700 dark:text-zinc-300">Which field do you want to filter on?</p>
      {fields.length > 8 && (
        <div className="mb-2">
          <label htmlFor="field-find" className="mb-1 block text-sm font-medium">
            Field name
          </label>
          <input
            id="field-find"
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            className="w-full rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
          />
        </div>
      )}
      <ul className="grid gap-1 sm:grid-cols-2">
        {shown.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              onClick={() => onPick(f)}
              className="flex w-full items-baseline justify-between gap-2 rounded-md border px-3 py-2 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              <span className="font-medium break-all">{f.id}</span>
              <span aria-hidden className="text-xs text-zinc-600 dark:text-zinc-400">
                {f.type}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
