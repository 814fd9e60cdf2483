"use client";
// The condition of a filter, as a radio group: is / is not / between / is empty / is not empty.
// "between" is offered only for numbers, dates and timestamps.
import { useId } from "react";
import { useT } from "@/components/i18n/i18n-provider";

export type Condition = "is" | "not" | "between" | "empty" | "filled";

export function conditionsFor(ranged: boolean): Condition[] {
  return ranged ? ["is", "not", "between", "empty", "filled"] : ["is", "not", "empty", "filled"];
}

export function ConditionChoice({
  field,
  type,
  conditions,
  value,
  autoFocus = false,
  onChange,
}: {
  field: string;
  /** The field's type in words. */
  type: string;
  conditions: Condition[];
  value: Condition;
  /** The chosen condition takes the focus (when the editor opens on a condition with no values). */
  autoFocus?: boolean;
  onChange: (value: Condition) => void;
}) {
  const name = useId();
  const t = useT();
  // the field's name is set in bold inside the sentence
  const [before, after] = t("condition.legend", { field: "\u0000", type }).split("\u0000");
  return (
    <fieldset>
      <legend className="mb-1 text-sm text-zinc-700 dark:text-zinc-300">
        {before}
        <strong className="break-all">{field}</strong>
        {after}
      </legend>
      <div className="flex flex-wrap gap-1.5">
        {conditions.map((c) => (
          <label
            key={c}
            className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border px-3 py-1 text-sm has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50 has-[:checked]:text-blue-950 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600 dark:has-[:checked]:border-blue-400 dark:has-[:checked]:bg-blue-950 dark:has-[:checked]:text-blue-100"
          >
            <input
              type="radio"
              name={name}
              value={c}
              checked={value === c}
              autoFocus={autoFocus && value === c}
              onChange={() => onChange(c)}
              className="accent-blue-700"
            />
            {t(`condition.${c}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
