"use client";
// The values of an "is" or "is not" filter: the field's most common values with their counts
// under the current search and the other chips (datastore_value_counts), plus typed values.
// Enter in the Value box applies the filter with what is typed and ticked; "Add value" adds the
// typed value to the list and hands the focus back to the box, for the next one.
import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useRef } from "react";
import { explainError, valueCountsQuery, type DatastoreField } from "@/lib/api-client";
import { inSentence } from "@/lib/i18n";
import { formatScalar, sameValue, takesAsOf, toMatchRequest, withoutChip, type Scalar, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { NullMark } from "./cell-value";
import { formatCount } from "./format";
import { CurrentDataNote } from "./past-notes";
import type { ValueDraft } from "./use-value-draft";

const SUGGESTIONS = 20;

function EmptyText() {
  const t = useT();
  return <span className="italic">{t("values.emptyText")}</span>;
}

function ValueLabel({ value }: { value: Scalar }) {
  if (value === null) return <NullMark />;
  if (value === "") return <EmptyText />;
  return <span className="break-all">{formatScalar(value)}</span>;
}

export function ValuePicker({
  view,
  field,
  chipKey,
  draft,
  autoFocus = false,
  onEnter,
}: {
  view: ViewState;
  field: DatastoreField;
  /** The key of the chip being edited: its own condition does not narrow the suggestions. */
  chipKey: string;
  draft: ValueDraft;
  autoFocus?: boolean;
  /** Enter in the Value box: the chosen values, the typed one included. */
  onEnter: (values: Scalar[]) => void;
}) {
  const { session, ready } = useToken();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const t = useT();
  const request = useMemo(
    () => ({
      ...toMatchRequest({ ...view, as_of: takesAsOf("datastore_value_counts") ? view.as_of : null, filters: withoutChip(view.filters, chipKey) }),
      field: field.id,
      limit: SUGGESTIONS,
    }),
    [view, field.id, chipKey],
  );
  const counts = useQuery({ ...valueCountsQuery(session, request), enabled: ready });

  const suggestions = counts.data?.values ?? [];
  const needle = draft.typed.trim().toLowerCase();
  const visible = needle ? suggestions.filter((s) => formatScalar(s.value).toLowerCase().includes(needle)) : suggestions;
  const extra = draft.known.filter((v) => !suggestions.some((s) => sameValue(s.value, v)));
  const add = () => draft.addTyped(suggestions.map((s) => s.value));
  const hintId = `${inputId}-hint`;

  const row = "flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800";

  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          {t("values.value")}
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            ref={input}
            autoFocus={autoFocus}
            value={draft.typed}
            autoComplete="off"
            aria-describedby={draft.error ? `${inputId}-error ${hintId}` : hintId}
            aria-invalid={draft.error ? true : undefined}
            onChange={(e) => draft.setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                // the form's own submit would read the draft before the typed value joins it
                e.preventDefault();
                const chosen = add();
                if (chosen) onEnter(chosen);
              }
            }}
            placeholder={t("values.placeholder")}
            className="min-w-0 flex-1 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
          />
          <Button
            onClick={() => {
              add();
              input.current?.focus();
            }}
            disabled={!draft.typed.trim()}
          >
            {t("values.add")}
          </Button>
        </div>
        <p id={hintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {t("values.hint")}
        </p>
        {draft.error && (
          <p id={`${inputId}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {draft.error}
          </p>
        )}
      </div>

      {extra.length > 0 && (
        <fieldset>
          <legend className="mb-1 text-sm font-medium">{t("values.chosen")}</legend>
          {extra.map((v) => (
            <label key={`x-${JSON.stringify(v)}`} className={row}>
              <input type="checkbox" checked={draft.isSelected(v)} onChange={(e) => draft.toggle(v, e.target.checked)} />
              <ValueLabel value={v} />
            </label>
          ))}
        </fieldset>
      )}

      <fieldset>
        <legend className="mb-1 text-sm font-medium">{t("values.common")}</legend>
        {counts.isLoading ? (
          <div className="space-y-2" role="status">
            <span className="sr-only">{t("values.loading")}</span>
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-3/5" />
          </div>
        ) : counts.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {t("values.unavailable", { reason: inSentence(explainError(counts.error, "resource", t).title, t.lang) })}
          </p>
        ) : visible.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {needle ? t("values.noneContain") : t("values.none")}
          </p>
        ) : (
          <div className="max-h-72 overflow-auto">
            {visible.map((s) => (
              <label key={`s-${JSON.stringify(s.value)}`} className={row}>
                <input type="checkbox" checked={draft.isSelected(s.value)} onChange={(e) => draft.toggle(s.value, e.target.checked)} />
                <ValueLabel value={s.value} />
                <span className="ml-auto text-xs text-zinc-600 tabular-nums dark:text-zinc-400">{formatCount(s.count, t.locale)}</span>
              </label>
            ))}
          </div>
        )}
        {view.as_of !== null && !takesAsOf("datastore_value_counts") && <CurrentDataNote />}
        {counts.data?.partial && (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            {t("values.partial")}
          </p>
        )}
      </fieldset>
    </div>
  );
}
