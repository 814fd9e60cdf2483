"use client";
// A "between" filter: From and To (both included, either may be empty), and under them the
// field's histogram under the current search and the other chips (datastore_histogram), whose
// bars fill From and To.
import { useQuery } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import { explainError, histogramQuery, type DatastoreField } from "@/lib/api-client";
import { inSentence } from "@/lib/i18n";
import { takesAsOf, toMatchRequest, withoutChip, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Skeleton } from "@/components/ui/skeleton";
import { HistogramStrip } from "./histogram-strip";
import { CurrentDataNote } from "./past-notes";
import { inputType, type RangeKind } from "./range-kind";
import { useSettled } from "./use-settled";

const BINS = 20;

/** The inputs' values; `*Bad`: the input holds text that is not a value yet (a half-typed date). */
export type RangeDraft = { from: string; to: string; fromBad: boolean; toBad: boolean };

function BoundInput({
  label,
  kind,
  value,
  invalid,
  describedBy,
  autoFocus = false,
  onChange,
}: {
  label: string;
  kind: RangeKind;
  value: string;
  invalid: boolean;
  describedBy?: string;
  autoFocus?: boolean;
  onChange: (value: string, bad: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        autoFocus={autoFocus}
        type={inputType(kind)}
        step={kind === "integer" ? 1 : kind === "number" ? "any" : undefined}
        inputMode={kind === "integer" ? "numeric" : kind === "number" ? "decimal" : undefined}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value, e.target.validity.badInput)}
        className="w-full min-w-0 rounded-md border bg-white px-2 py-1.5 text-sm tabular-nums dark:bg-zinc-900 dark:[color-scheme:dark]"
      />
    </div>
  );
}

function Histogram({ view, field, chipKey, kind, draft, onPick }: {
  view: ViewState;
  field: DatastoreField;
  chipKey: string;
  kind: RangeKind;
  draft: RangeDraft;
  onPick: (from: string, to: string) => void;
}) {
  const { session, ready } = useToken();
  const request = useMemo(
    () => ({
      ...toMatchRequest({ ...view, as_of: takesAsOf("datastore_histogram") ? view.as_of : null, filters: withoutChip(view.filters, chipKey) }),
      field: field.id,
      bins: BINS,
    }),
    [view, field.id, chipKey],
  );
  const headingId = useId();
  const t = useT();
  const settled = useSettled(request, 150);
  const histogram = useQuery({ ...histogramQuery(session, request), enabled: ready && settled === request });
  const data = histogram.data;

  return (
    <section aria-labelledby={headingId} className="space-y-1">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-medium">
          {t("range.spread")}
        </h3>
        {data?.partial && (
          <span title={t("range.sampledTitle")} className="rounded-full border px-2 text-xs text-zinc-700 dark:text-zinc-300">
            {t("range.sampled")}
          </span>
        )}
      </div>
      {histogram.error ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {t("range.unavailable", { reason: inSentence(explainError(histogram.error, "resource", t).title, t.lang) })}
        </p>
      ) : !data ? (
        <div role="status">
          <span className="sr-only">{t("range.loading")}</span>
          <Skeleton className="h-16 w-full" />
        </div>
      ) : data.bins.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("values.none")}</p>
      ) : (
        <>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("range.pickBar")}</p>
          <HistogramStrip bins={data.bins} kind={kind} from={draft.from} to={draft.to} onPick={onPick} />
          {view.as_of !== null && !takesAsOf("datastore_histogram") && <CurrentDataNote />}
        </>
      )}
    </section>
  );
}

export function RangePicker({
  view,
  field,
  chipKey,
  kind,
  draft,
  error,
  autoFocus = false,
  onChange,
}: {
  view: ViewState;
  field: DatastoreField;
  chipKey: string;
  kind: RangeKind;
  draft: RangeDraft;
  error: string | null;
  /** From takes the focus (when the editor opens on a range). */
  autoFocus?: boolean;
  onChange: (draft: RangeDraft) => void;
}) {
  const errorId = useId();
  const t = useT();
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <div className="grid grid-cols-2 gap-3">
          <BoundInput
            label={t("range.from")}
            kind={kind}
            autoFocus={autoFocus}
            value={draft.from}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            onChange={(from, fromBad) => onChange({ ...draft, from, fromBad })}
          />
          <BoundInput
            label={t("range.to")}
            kind={kind}
            value={draft.to}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            onChange={(to, toBad) => onChange({ ...draft, to, toBad })}
          />
        </div>
        {error && (
          <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <Histogram view={view} field={field} chipKey={chipKey} kind={kind} draft={draft} onPick={(from, to) => onChange({ from, to, fromBad: false, toBad: false })} />
    </div>
  );
}
