"use client";
// "Add filter", first step: which field. The "Field name" box narrows the list (by id or data
// dictionary label) and Enter picks the first match; the list is one Tab stop whose buttons the
// arrow keys move through (roving focus), so a long list costs one keystroke to pass.
import { useId, useRef, useState, type KeyboardEvent } from "react";
import type { DatastoreField } from "@/lib/api-client";
import { fieldLabel, matchFields } from "./field-match";
import { useT } from "@/components/i18n/i18n-provider";
import { typeInWords } from "./format";

export function FieldPicker({ fields, onPick }: { fields: DatastoreField[]; onPick: (field: DatastoreField) => void }) {
  const id = useId();
  const t = useT();
  const [term, setTerm] = useState("");
  const [active, setActive] = useState(0);
  const box = useRef<HTMLInputElement>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const shown = matchFields(fields, term);
  const current = Math.min(active, Math.max(shown.length - 1, 0));

  const focusAt = (i: number) => {
    const to = Math.max(0, Math.min(i, shown.length - 1));
    setActive(to);
    buttons.current[to]?.focus();
  };

  function onBoxKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (term.trim() && shown.length > 0) onPick(shown[0]);
    } else if (e.key === "ArrowDown" && shown.length > 0) {
      e.preventDefault();
      focusAt(0);
    }
  }

  function onListKey(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const to = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[e.key];
    if (to !== undefined && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      if (to < 0) box.current?.focus();
      else focusAt(to);
    } else if (e.key.length === 1 && e.key !== " " && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // typing on the list goes on in the name box (the key lands there)
      box.current?.focus();
    }
  }

  return (
    <div className="space-y-2">
      <div>
        <label htmlFor={`${id}-find`} className="mb-1 block text-sm font-medium">
          {t("fields.name")}
        </label>
        <input
          id={`${id}-find`}
          ref={box}
          // the dialog opens on this box: typing the field's name is the quickest way there
          autoFocus
          value={term}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          aria-controls={`${id}-list`}
          onChange={(e) => {
            setTerm(e.target.value);
            setActive(0);
          }}
          onKeyDown={onBoxKey}
          className="w-full rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {t("fields.hint")}
        </p>
      </div>
      <p role="status" className={term.trim() && shown.length > 0 ? "sr-only" : "text-sm text-zinc-700 dark:text-zinc-300"}>
        {!term.trim()
          ? t("fields.which")
          : shown.length === 0
            ? t("fields.none", { term: term.trim() })
            : t("fields.matches", { count: shown.length })}
      </p>
      <ul id={`${id}-list`} aria-label={t("fields.list")} className="grid gap-1 sm:grid-cols-2">
        {shown.map((f, i) => {
          const label = fieldLabel(f);
          return (
            <li key={f.id}>
              <button
                type="button"
                ref={(el) => {
                  buttons.current[i] = el;
                }}
                tabIndex={i === current ? 0 : -1}
                aria-describedby={`${id}-about-${i}`}
                onClick={() => onPick(f)}
                onFocus={() => setActive(i)}
                onKeyDown={(e) => onListKey(e, i)}
                className="flex w-full flex-col rounded-md border px-3 py-2 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span className="font-medium break-all">{f.id}</span>
                {/* the button's name is the field's id (as the chips write it); this is its description */}
                <span id={`${id}-about-${i}`} aria-hidden className="text-xs text-zinc-600 dark:text-zinc-400">
                  {label ? `${label} · ` : ""}
                  {typeInWords(f.type, t)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
