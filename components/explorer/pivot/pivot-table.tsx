"use client";
// The cross-tab as a real table: the row keys as row headers, the column values as column
// headers, the cells shaded by their value. A cell (or a total) is a button that shows its rows
// in the Table; the buttons are one Tab stop, the arrow keys move between them as in a grid.
import { useT } from "@/components/i18n/i18n-provider";
import { useState, type KeyboardEvent } from "react";
import { UNREAD, type CrossTab, type Value } from "./cross-tab";

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export function valueText(v: Value): string {
  return v === undefined ? UNREAD : v === null ? "" : number.format(v);
}

/** Blue for a value above zero, orange below, deeper as it nears the largest: behind dark text
 *  (light mode) or light text (dark mode) alike the text keeps its contrast. */
function shade(v: Value, max: number): string | undefined {
  if (typeof v !== "number" || max === 0 || v === 0) return undefined;
  const alpha = (0.06 + 0.4 * (Math.abs(v) / max)).toFixed(3);
  return v > 0 ? `rgba(37, 99, 235, ${alpha})` : `rgba(234, 88, 12, ${alpha})`;
}

type Pos = { r: number; c: number };

export function PivotTable({
  table,
  stale,
  onPick,
}: {
  table: CrossTab;
  stale: boolean;
  /** `r`: a row's index, or rows.length for the totals row; `c`: a column's, or columns.length for the Total column. */
  onPick: (pos: Pos) => void;
}) {
  const t = useT();
  const [active, setActive] = useState<Pos>({ r: 0, c: 0 });
  const nRows = table.rows.length;
  const nCols = table.columns.length;
  const valueAt = (r: number, c: number): Value => {
    if (r < nRows) return c < nCols ? table.rows[r].cells[c] : table.rows[r].total;
    return c < nCols ? table.columnTotals[c] : table.grandTotal;
  };
  // the grand total, and a row's total without Columns (it is the cell), narrow nothing
  const pickable = (r: number, c: number) =>
    r >= 0 && c >= 0 && r <= nRows && c <= nCols && typeof valueAt(r, c) === "number" && !(r === nRows && (c === nCols || !table.rowTotals)) && !(c === nCols && !table.rowTotals);
  const first = (() => {
    for (let r = 0; r <= nRows; r++) for (let c = 0; c <= nCols; c++) if (pickable(r, c)) return { r, c };
    return null;
  })();
  const current = pickable(active.r, active.c) ? active : first;

  const move = (e: KeyboardEvent<HTMLButtonElement>, at: Pos) => {
    const steps: Record<string, [number, number]> = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
    let to: Pos | null = null;
    if (e.key in steps) {
      const [dr, dc] = steps[e.key];
      for (let r = at.r + dr, c = at.c + dc; r >= 0 && c >= 0 && r <= nRows && c <= nCols; r += dr, c += dc) {
        if (pickable(r, c)) {
          to = { r, c };
          break;
        }
      }
    } else if (e.key === "Home" || e.key === "End") {
      const cs = Array.from({ length: nCols + 1 }, (_, c) => c).filter((c) => pickable(at.r, c));
      const c = e.key === "Home" ? cs[0] : cs[cs.length - 1];
      if (c !== undefined) to = { r: at.r, c };
    } else return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    if (!to) return;
    setActive(to);
    e.currentTarget.closest("table")?.querySelector<HTMLButtonElement>(`button[data-r="${to.r}"][data-c="${to.c}"]`)?.focus();
  };

  const cell = (r: number, c: number, total: boolean) => {
    const v = valueAt(r, c);
    const text = valueText(v);
    const inner = pickable(r, c) ? (
      <button
        type="button"
        data-r={r}
        data-c={c}
        tabIndex={current && current.r === r && current.c === c ? 0 : -1}
        aria-describedby="pivot-cell-hint"
        onFocus={() => setActive({ r, c })}
        onKeyDown={(e) => move(e, { r, c })}
        onClick={() => onPick({ r, c })}
        className="w-full px-2 py-1 text-right tabular-nums hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {text}
      </button>
    ) : (
      <span className="block px-2 py-1 text-right tabular-nums">{text}</span>
    );
    return (
      <td
        key={c}
        style={total ? undefined : { backgroundColor: shade(v, table.max) }}
        className={`border-l p-0 ${total ? "bg-zinc-50 font-semibold dark:bg-zinc-900" : ""}`}
      >
        {inner}
      </td>
    );
  };

  const keyCols = table.keyHeaders.length;
  const head = "px-2 py-1 text-left font-medium";
  return (
    <div
      role="region"
      aria-label={table.caption}
      aria-busy={stale}
      tabIndex={0}
      className={`max-h-[70vh] overflow-auto rounded-md border transition-opacity ${stale ? "opacity-60" : ""}`}
    >
      <p id="pivot-cell-hint" hidden>
        {t("pivot.cellHint")}
      </p>
      <table className="border-collapse text-sm">
        <caption className="sr-only">{table.caption}</caption>
        <thead className="sticky top-0 z-10 bg-zinc-100 dark:bg-zinc-800">
          {table.columnHeader !== null && (
            <tr>
              <td colSpan={keyCols} />
              <th scope="colgroup" colSpan={nCols} className={`border-l ${head}`}>
                {table.columnHeader}
              </th>
              {table.rowTotals && <td className="border-l" />}
            </tr>
          )}
          <tr className="border-b">
            {table.keyHeaders.map((h, i) => (
              <th key={`k${i}`} scope="col" className={head}>
                {h}
              </th>
            ))}
            {table.columns.map((col, i) => (
              <th key={i} scope="col" className={`border-l text-right ${head}`}>
                {col.label}
              </th>
            ))}
            {table.rowTotals && (
              <th scope="col" className={`border-l text-right ${head}`}>
                {t("pivot.total")}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={JSON.stringify(row.key)} className="border-t">
              {row.labels.map((label, i) => (
                <th key={`k${i}`} scope="row" className="max-w-64 truncate px-2 py-1 text-left font-normal" title={label}>
                  {label}
                </th>
              ))}
              {row.cells.map((_, c) => cell(r, c, false))}
              {table.rowTotals && cell(r, nCols, true)}
            </tr>
          ))}
        </tbody>
        <tfoot className="sticky bottom-0 border-t-2 bg-zinc-50 dark:bg-zinc-900">
          <tr>
            <th scope="row" colSpan={keyCols} className="px-2 py-1 text-left font-semibold">
              {t("pivot.total")}
            </th>
            {table.columnTotals.map((_, c) => cell(nRows, c, true))}
            {table.rowTotals && cell(nRows, nCols, true)}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
