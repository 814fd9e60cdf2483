"use client";
// A text or yes/no field's most common values as horizontal bars with their counts; a bar is
// a button that adds the chip "field is this value".
import type { Scalar } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { formatCount, valueText } from "../format";
import { useRoving } from "./use-roving";

export function ValueBars({
  label,
  top,
  onPick,
}: {
  /** The field as shown, for the group's name. */
  label: string;
  top: { value: unknown; count: number }[];
  onPick: (value: Scalar) => void;
}) {
  const roving = useRoving(top.length);
  const max = Math.max(1, ...top.map((v) => v.count));
  const t = useT();
  return (
    <div role="group" aria-label={t("summary.commonOf", { field: label })} className="space-y-0.5">
      {top.map((v, i) => {
        const text = valueText(v.value);
        const rows = t("count.rows", { count: v.count });
        return (
          <button
              key={`${typeof v.value}:${text}`}
              type="button"
              {...roving(i)}
              title={t("summary.valueTitle", { value: text, rows })}
              onClick={() => onPick(v.value as Scalar)}
              className="group grid w-full grid-cols-[minmax(0,9rem)_1fr_auto] items-center gap-2 rounded px-1 py-0.5 text-left text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
            >
              {/* the name says the visible text in words: "Adelie: 152 rows, add filter" */}
              <span className="sr-only">{t("summary.addFilter", { value: text, rows })}</span>
              <span aria-hidden className="truncate">
                {text}
              </span>
              <span aria-hidden className="h-3 rounded-sm bg-zinc-200 dark:bg-zinc-800">
                <span
                  style={{ width: `${(v.count / max) * 100}%` }}
                  className="block h-full min-w-[2px] rounded-sm bg-blue-600 group-hover:bg-blue-700 dark:bg-blue-400 dark:group-hover:bg-blue-300"
                />
              </span>
              <span aria-hidden className="text-xs text-zinc-700 tabular-nums dark:text-zinc-300">
                {formatCount(v.count, t.locale)}
              </span>
            </button>
        );
      })}
    </div>
  );
}
