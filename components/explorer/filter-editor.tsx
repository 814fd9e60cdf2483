"use client";
// "Add filter" / edit a chip: pick a field, then values. Suggests the field's most common values
// with their counts under the current search and the other chips (datastore_value_counts), and
// accepts typed values. Nothing changes until "Apply filter" (draft, then apply).
import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { explainError, valueCountsQuery, type DatastoreField } from "@/lib/api-client";
import { formatScalar, sameValue, toMatchRequest, withoutChip, type Scalar, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { NullMark } from "./cell-value";
import { describeType, formatCount } from "./format";
import { parseTypedValue } from "./typed-value";

const SUGGESTIONS = 20;

function ValueLabel({ value }: { value: Scalar }) {
  if (value === null) return <NullMark />;
  if (value === "") return <span className="italic">(empty text)</span>;
  return <span className="break-all">{formatScalar(value)}</span>;
}

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

export function ValuePicker({
  view,
  field,
  initial,
  onApply,
  onBack,
  onRemove,
  onCancel,
}: {
  view: ViewState;
  field: DatastoreField;
  initial: Scalar[];
  onApply: (values: Scalar[]) => void;
  onBack?: () => void;
  onRemove?: () => void;
  onCancel: () => void;
}) {
  const { session, ready } = useToken();
  const [selected, setSelected] = useState<Scalar[]>(initial);
  // values chosen in this dialog stay listed after being unticked, so they can be ticked again
  const [known, setKnown] = useState<Scalar[]>(initial);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const request = useMemo(
    () => ({
      ...toMatchRequest({ ...view, filters: withoutChip(view.filters, field.id) }),
      field: field.id,
      limit: SUGGESTIONS,
    }),
    [view, field.id],
  );
  const counts = useQuery({ ...valueCountsQuery(session, request), enabled: ready });

  const isSelected = (v: Scalar) => selected.some((s) => sameValue(s, v));
  const toggle = (v: Scalar, on: boolean) =>
    setSelected((cur) => (on ? (cur.some((s) => sameValue(s, v)) ? cur : [...cur, v]) : cur.filter((s) => !sameValue(s, v))));

  const suggestions = counts.data?.values ?? [];
  const needle = typed.trim().toLowerCase();
  const visible = needle ? suggestions.filter((s) => formatScalar(s.value).toLowerCase().includes(needle)) : suggestions;
  const extra = known.filter((v) => !suggestions.some((s) => sameValue(s.value, v)));

  /** Adds the typed value; returns the selection including it, or null when it can't be used. */
  function addTyped(): Scalar[] | null {
    if (!typed.trim()) return selected;
    const match = suggestions.find((s) => s.value !== null && formatScalar(s.value) === typed.trim());
    const parsed = match ? ({ ok: true, value: match.value } as const) : parseTypedValue(typed, field.id, field.type);
    if (!parsed.ok) {
      setError(parsed.message);
      return null;
    }
    const value = parsed.value;
    const next = selected.some((s) => sameValue(s, value)) ? selected : [...selected, value];
    setSelected(next);
    setKnown((cur) => (cur.some((s) => sameValue(s, value)) ? cur : [...cur, value]));
    setTyped("");
    setError(null);
    return next;
  }

  function apply() {
    // a value typed but not yet added counts too
    const values = addTyped();
    if (values) onApply(values);
  }

  const row = "flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800";

  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Keep records whose <strong>{field.id}</strong> ({describeType(field.type)}) is any of the values you tick.
      </p>
      <div>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          Value
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            value={typed}
            autoComplete="off"
            aria-describedby={error ? `${inputId}-error` : undefined}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setTyped(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                addTyped();
              }
            }}
            placeholder="Type a value, or tick one below"
            className="min-w-0 flex-1 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
          />
          <Button onClick={() => addTyped()} disabled={!typed.trim()}>
            Add value
          </Button>
        </div>
        {error && (
          <p id={`${inputId}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>

      {extra.length > 0 && (
        <fieldset>
          <legend className="mb-1 text-sm font-medium">Chosen</legend>
          {extra.map((v) => (
            <label key={`x-${JSON.stringify(v)}`} className={row}>
              <input type="checkbox" checked={isSelected(v)} onChange={(e) => toggle(v, e.target.checked)} />
              <ValueLabel value={v} />
            </label>
          ))}
        </fieldset>
      )}

      <fieldset>
        <legend className="mb-1 text-sm font-medium">Most common values</legend>
        {counts.isLoading ? (
          <div className="space-y-2" role="status">
            <span className="sr-only">Loading values…</span>
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-3/5" />
          </div>
        ) : counts.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Suggestions are unavailable: {explainError(counts.error).title.toLowerCase()}. You can still type values.
          </p>
        ) : visible.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {needle ? "No common value contains that text; press Enter to add it as typed." : "No values in the matching records."}
          </p>
        ) : (
          <div className="max-h-72 overflow-auto">
            {visible.map((s) => (
              <label key={`s-${JSON.stringify(s.value)}`} className={row}>
                <input type="checkbox" checked={isSelected(s.value)} onChange={(e) => toggle(s.value, e.target.checked)} />
                <ValueLabel value={s.value} />
                <span className="ml-auto text-xs text-zinc-600 tabular-nums dark:text-zinc-400">{formatCount(s.count)}</span>
              </label>
            ))}
          </div>
        )}
        {counts.data?.partial && (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            The table is large: these counts come from part of its rows.
          </p>
        )}
      </fieldset>

      <div className="flex flex-wrap gap-2 border-t pt-3">
        <Button variant="primary" onClick={apply} disabled={selected.length === 0 && !typed.trim() && !onRemove}>
          Apply filter
        </Button>
        {onBack && <Button onClick={onBack}>Back to fields</Button>}
        {onRemove && (
          <Button variant="danger" onClick={onRemove}>
            Remove filter
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
