"use client";
// The chart's numbers as a table, the text alternative to the drawing. Rendered only when
// opened: a scatter plot's table has 2,000 rows.
import { useState } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import type { Translate } from "@/lib/i18n";
import type { Cell, ChartNumbers } from "./chart-numbers";

function cellText(value: Cell, t: Translate): string {
  if (value === null) return t("record.emptyOption");
  return typeof value === "number" ? new Intl.NumberFormat(t.locale, { maximumFractionDigits: 3 }).format(value) : String(value);
}

export function NumbersTable({ numbers, caption }: { numbers: ChartNumbers; caption: string }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)} className="text-sm">
      <summary className="font-medium">{t("chart.showNumbers")}</summary>
      {open && (
        <div tabIndex={0} role="region" aria-label={t("chart.numbers")} className="mt-2 max-h-96 overflow-auto rounded-md border">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">{caption}</caption>
            <thead className="sticky top-0 bg-zinc-100 dark:bg-zinc-800">
              <tr>
                {numbers.columns.map((c, i) => (
                  <th key={i} scope="col" className={`px-2 py-1 font-medium ${i > 0 ? "text-right" : ""}`}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {numbers.rows.map((row, r) => (
                <tr key={r} className="border-t">
                  {row.map((cell, i) => (
                    <td key={i} className={`px-2 py-1 ${typeof cell === "number" ? "text-right tabular-nums" : ""}`}>
                      {cellText(cell, t)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
