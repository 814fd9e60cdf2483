"use client";
// One field of the Summary tab: its name (data dictionary label and id), type in words, notes,
// how many rows are empty, about how many distinct values, and its values: the most common ones
// as bars, or for numbers and dates the lowest, the highest and a histogram. Bars add chips.
import { useEffect, useId, useRef } from "react";
import type { DatastoreField, SummaryField } from "@/lib/api-client";
import type { Bound, Scalar } from "@/lib/view-state";
import { fieldLabel } from "../field-match";
import type { Translate } from "@/lib/i18n";
import { useT } from "@/components/i18n/i18n-provider";
import { fieldNotes, formatFieldValue, formatNumber, groupsDigits, totalText, typeInWords, valueText } from "../format";
import { rangeKind } from "../range-kind";
import { BinBars } from "./bin-bars";
import { binPeriod, periodWords } from "./bins";
import { ValueBars } from "./value-bars";

function share(part: number, whole: number, locale: string, t: Translate): string {
  if (whole <= 0) return "";
  const f = part / whole;
  if (f > 0 && f < 0.001) return t("summary.under");
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(f);
}

function Extreme({ value, field, locale }: { value: unknown; field: DatastoreField; locale: string }) {
  const raw = valueText(value);
  const shown = formatFieldValue(value, field, locale) ?? raw;
  return (
    <span title={shown !== raw ? raw : undefined} className="tabular-nums">
      {shown}
    </span>
  );
}

export function FieldSummary({
  summary,
  field,
  rows,
  locale,
  refocus,
  onPickValue,
  onPickRange,
}: {
  summary: SummaryField;
  /** The field with its data dictionary (datastore_info), when known. */
  field: DatastoreField | undefined;
  /** Rows the figures were computed over. */
  rows: number;
  locale: string;
  /** A bar of this field was picked: if the focus is lost as the figures change, take it. */
  refocus: boolean;
  onPickValue: (value: Scalar) => void;
  onPickRange: (from: Bound, to: Bound) => void;
}) {
  const headingId = useId();
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const dictionary: DatastoreField = field ? { ...field, type: summary.type } : { id: summary.id, type: summary.type };
  const grouping = groupsDigits(dictionary);
  const label = fieldLabel(dictionary);
  const notes = fieldNotes(dictionary);
  const name = label ?? summary.id;
  const kind = rangeKind(summary.type);
  const filled = rows - summary.empty;
  const top = summary.top ?? [];
  const bins = summary.bins ?? [];
  const period = binPeriod(bins);
  const inTop = top.reduce((n, t) => n + t.count, 0);
  const otherRows = filled - inTop;
  const otherValues = Math.max(0, summary.distinct - top.length);

  useEffect(() => {
    if (refocus && (document.activeElement === document.body || document.activeElement === null)) heading.current?.focus();
  }, [refocus, summary]);

  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-3 rounded-lg border p-3">
      <div>
        <h3 id={headingId} ref={heading} tabIndex={-1} className="font-semibold break-words">
          {name}
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {label && <>{summary.id} · </>}
          {typeInWords(summary.type, t)}
        </p>
        {notes && <p className="mt-1 text-xs text-zinc-700 dark:text-zinc-300">{notes}</p>}
      </div>

      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-zinc-600 dark:text-zinc-400">{t("summary.empty")}</dt>
        <dd className="tabular-nums">
          {t("count.rows", { count: summary.empty })}
          {summary.empty > 0 && <span className="text-zinc-600 dark:text-zinc-400"> ({share(summary.empty, rows, locale, t)})</span>}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">{t("summary.distinct")}</dt>
        <dd className="tabular-nums">{totalText(summary.distinct, summary.distinct_estimated, t)}</dd>
        {summary.min !== undefined && summary.min !== null && (
          <>
            <dt className="text-zinc-600 dark:text-zinc-400">{t("summary.lowest")}</dt>
            <dd>
              <Extreme value={summary.min} field={dictionary} locale={locale} />
            </dd>
            <dt className="text-zinc-600 dark:text-zinc-400">{t("summary.highest")}</dt>
            <dd>
              <Extreme value={summary.max} field={dictionary} locale={locale} />
            </dd>
          </>
        )}
      </dl>

      {filled <= 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("summary.noValues")}</p>
      ) : top.length > 0 ? (
        <div className="space-y-1">
          <ValueBars label={name} top={top} onPick={onPickValue} />
          {otherRows > 0 && (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {t("summary.others", { count: otherValues, values: totalText(otherValues, summary.distinct_estimated, t), rows: t("count.rows", { count: otherRows }) })}
            </p>
          )}
        </div>
      ) : bins.length > 0 && kind ? (
        <div className="space-y-1">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {period
              ? t("summary.rowsPer", { period: periodWords(period, t) })
              : bins.length > 1 && typeof bins[0].from === "number" && typeof bins[0].to === "number"
                ? t("summary.rowsPerRange", { size: formatNumber(Number((bins[0].to - bins[0].from).toPrecision(12)), locale, grouping) })
                : t("summary.rows")}
          </p>
          <BinBars label={name} bins={bins} kind={kind} period={period} locale={locale} grouping={grouping} onPick={onPickRange} />
        </div>
      ) : null}
    </section>
  );
}
