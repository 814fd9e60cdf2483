"use client";
// The values ticked or typed in the filter editor, kept while the user switches between "is"
// and "is not", so a choice of values survives a change of mind about the condition.
import { useState } from "react";
import { formatScalar, sameValue, type Scalar } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { parseTypedValue } from "./typed-value";

export type ValueDraft = ReturnType<typeof useValueDraft>;

export function useValueDraft(initial: Scalar[], field: { id: string; type: string }) {
  const [selected, setSelected] = useState<Scalar[]>(initial);
  // values chosen in this dialog stay listed after being unticked, so they can be ticked again
  const [known, setKnown] = useState<Scalar[]>(initial);
  const [typed, setTypedText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const t = useT();

  const isSelected = (v: Scalar) => selected.some((s) => sameValue(s, v));
  const toggle = (v: Scalar, on: boolean) =>
    setSelected((cur) => (on ? (cur.some((s) => sameValue(s, v)) ? cur : [...cur, v]) : cur.filter((s) => !sameValue(s, v))));
  const setTyped = (text: string) => {
    setTypedText(text);
    setError(null);
  };

  /** Adds the typed value (a suggestion's own value when the text is one); returns the
   *  selection including it, or null when it can't be used. */
  function addTyped(suggestions: Scalar[] = []): Scalar[] | null {
    if (!typed.trim()) return selected;
    const match = suggestions.find((s) => s !== null && formatScalar(s) === typed.trim());
    const parsed = match !== undefined ? ({ ok: true, value: match } as const) : parseTypedValue(typed, field.id, field.type, t);
    if (!parsed.ok) {
      setError(parsed.message);
      return null;
    }
    const value = parsed.value;
    const next = selected.some((s) => sameValue(s, value)) ? selected : [...selected, value];
    setSelected(next);
    setKnown((cur) => (cur.some((s) => sameValue(s, value)) ? cur : [...cur, value]));
    setTypedText("");
    setError(null);
    return next;
  }

  return { selected, known, typed, error, isSelected, toggle, setTyped, addTyped };
}
