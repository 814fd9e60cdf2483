"use client";
// A number or date field's histogram as a strip of bars: each bar a button that adds the range
// chip of its bin. The period of date bins (week, month…) is said above the strip.
import type { HistogramBin } from "@/lib/api-client";
import type { Bound } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import type { RangeKind } from "../range-kind";
import { binBounds, binLabel, edgeLabel, type BinPeriod } from "./bins";
import { useRoving } from "./use-roving";

export function BinBars({
  label,
  bins,
  kind,
  period,
  locale,
  grouping,
  onPick,
}: {
  /** The field as shown, for the group's name. */
  label: string;
  bins: HistogramBin[];
  kind: RangeKind;
  period: BinPeriod | null;
  locale: string;
  /** Digits grouped (amounts) or not (years, codes). */
  grouping: boolean;
  onPick: (from: Bound, to: Bound) => void;
}) {
  const roving = useRoving(bins.length);
  const t = useT();
  const max = Math.max(1, ...bins.map((b) => b.count));
  const bars = bins.map((bin, i) => {
    const last = i === bins.length - 1;
    return { bin, text: binLabel(bin, last, kind, period, locale, grouping, t), bounds: binBounds(bin, last, kind) };
  });
  return (
    <div>
      <div role="group" aria-label={t("summary.spreadOf", { field: label })} className="flex h-20 items-end gap-px border-b border-zinc-400 dark:border-zinc-500">
        {bars.map(({ bin, text, bounds }, i) => (
          <button
            key={`${bin.from}`}
            type="button"
            {...roving(i)}
            disabled={!bounds}
            aria-label={t("summary.addFilter", { value: text, rows: t("count.rows", { count: bin.count }) })}
            title={t("summary.bar", { value: text, rows: t("count.rows", { count: bin.count }) })}
            onClick={() => bounds && onPick(bounds.from, bounds.to)}
            className="group flex h-full min-w-0 flex-1 items-end rounded-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 disabled:cursor-default dark:hover:bg-zinc-800"
          >
            <span
              aria-hidden
              style={{ height: `${(bin.count / max) * 100}%`, minHeight: bin.count > 0 ? 3 : 0 }}
              className="w-full rounded-t-sm bg-blue-600 group-hover:bg-blue-700 dark:bg-blue-400 dark:group-hover:bg-blue-300"
            />
          </button>
        ))}
      </div>
      <div aria-hidden className="mt-1 flex justify-between gap-2 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
        <span>{edgeLabel(bins[0].from, kind, locale, grouping)}</span>
        {bins.length > 1 && <span>{edgeLabel(bins[bins.length - 1].to, kind, locale, grouping)}</span>}
      </div>
    </div>
  );
}
