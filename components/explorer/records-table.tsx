"use client";
// The records table: a real <table> built with TanStack Table (sorting state mirrors the view's
// `sort`; the server sorts), rows virtualised so a 1000-row page stays smooth. Headers show the
// data dictionary's label (the field id, type in words and notes in their description); cells
// show numbers and dates in the reader's locale.
import {
  createColumnHelper,
  metaHelper,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { DatastoreField, DatastoreRecord } from "@/lib/api-client";
import { formatSort, parseSort } from "@/lib/view-state";
import { CellValue } from "./cell-value";
import { fieldLabel } from "./field-match";
import { fieldNotes, isNumericType, typeInWords } from "./format";
import { useLocale } from "./use-locale";
import { useT } from "@/components/i18n/i18n-provider";

const features = tableFeatures({
  rowSortingFeature,
  columnMeta: metaHelper<{ type: string; label: string | null; notes: string | null }>(),
});
const helper = createColumnHelper<typeof features, DatastoreRecord>();

const ROW_HEIGHT = 33;

export function RecordsTable({
  caption,
  fields,
  records,
  sort,
  onSort,
  onOpen,
  stale,
  resetKey,
}: {
  caption: string;
  fields: DatastoreField[];
  records: DatastoreRecord[];
  sort: string;
  onSort: (sort: string) => void;
  onOpen: (record: DatastoreRecord) => void;
  /** The rows are the previous page while the next one loads. */
  stale: boolean;
  /** Changes when a different page is shown (scrolls back to the top). */
  resetKey: string;
}) {
  const locale = useLocale();
  const t = useT();
  const baseId = useId();
  const columns = useMemo(
    () =>
      fields.map((f) =>
        helper.accessor((row) => row[f.id], {
          id: f.id,
          header: fieldLabel(f) ?? f.id,
          meta: { type: f.type, label: fieldLabel(f), notes: fieldNotes(f) },
          cell: (info) => <CellValue value={info.getValue()} field={f} locale={locale} />,
        }),
      ),
    [fields, locale],
  );
  const sorting = useMemo<SortingState>(() => parseSort(sort).map((c) => ({ id: c.field, desc: c.desc })), [sort]);

  const table = useTable({
    features,
    columns,
    data: records,
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      onSort(formatSort(next.map((s) => ({ field: s.id, desc: s.desc }))));
    },
    manualSorting: true,
    sortDescFirst: false,
    enableMultiSort: true,
  });

  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  // roving focus: one row is in the tab order, arrow keys move between rows
  const [focusRow, setFocusRow] = useState(0);
  const pendingFocus = useRef<number | null>(null);

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    setFocusRow(0);
  }, [resetKey]);

  useEffect(() => {
    const i = pendingFocus.current;
    if (i === null) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"]`);
    if (el) {
      el.focus();
      pendingFocus.current = null;
    }
  });

  function moveFocus(i: number) {
    const target = Math.max(0, Math.min(rows.length - 1, i));
    pendingFocus.current = target;
    setFocusRow(target);
    virtualizer.scrollToIndex(target, { align: "auto" });
  }

  function onRowKey(e: KeyboardEvent<HTMLTableRowElement>, index: number) {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: rows.length - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      moveFocus(moves[e.key]);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onOpen(rows[index].original);
    }
  }

  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const colCount = fields.length;
  const activeRow = Math.min(focusRow, Math.max(0, rows.length - 1));

  return (
    <div
      ref={scrollRef}
      className={`max-h-[70vh] overflow-auto rounded-lg border transition-opacity ${stale ? "opacity-60" : ""}`}
    >
      <table aria-rowcount={rows.length + 1} aria-busy={stale} className="w-full border-separate border-spacing-0 text-sm">
        <caption className="sr-only">
          {t("table.caption", { caption })}
        </caption>
        <thead className="sticky top-0 z-10 bg-zinc-100 dark:bg-zinc-800">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {group.headers.map((header, index) => {
                const meta = header.column.columnDef.meta;
                const type = meta?.type ?? "";
                const id = header.column.id;
                const dir = header.column.getIsSorted();
                const numeric = isNumericType(type);
                // field ids may hold spaces: not usable in an id reference
                const aboutId = `${baseId}-about-${index}`;
                // the button's name is what it shows (the label); the rest is its description
                const about = [`${meta?.label ? `${id}, ` : ""}${typeInWords(type, t)}.`, meta?.notes].filter(Boolean).join(" ");
                return (
                  <th
                    key={header.id}
                    scope="col"
                    data-field={id}
                    aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : undefined}
                    className="border-b p-0 text-left font-semibold whitespace-nowrap"
                  >
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      aria-describedby={aboutId}
                      title={`${meta?.label ? `${meta.label} (${id})` : id}: ${typeInWords(type, t)}.${meta?.notes ? ` ${meta.notes}` : ""}\n${t("table.sortHint")}`}
                      className={`flex w-full items-baseline gap-1.5 px-3 py-2 hover:bg-zinc-200 dark:hover:bg-zinc-700 ${numeric ? "justify-end text-right" : ""}`}
                    >
                      <span className={meta?.notes ? "underline decoration-zinc-500 decoration-dotted underline-offset-4" : undefined}>
                        <table.FlexRender header={header} />
                      </span>
                      {/* the type in words, for the eye: the description below says it to screen readers */}
                      <span aria-hidden className="text-xs font-normal text-zinc-600 dark:text-zinc-400">
                        {typeInWords(type, t)}
                      </span>
                      <span id={aboutId} hidden>
                        {about}
                      </span>
                      <span aria-hidden className="w-3 text-xs">
                        {dir === "asc" ? "▲" : dir === "desc" ? "▼" : ""}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td colSpan={colCount} style={{ height: padTop, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <tr
                key={row.id}
                data-index={item.index}
                style={{ height: ROW_HEIGHT }}
                aria-rowindex={item.index + 2}
                tabIndex={item.index === activeRow ? 0 : -1}
                onClick={() => onOpen(row.original)}
                onKeyDown={(e) => onRowKey(e, item.index)}
                onFocus={() => setFocusRow(item.index)}
                className="cursor-pointer odd:bg-white even:bg-zinc-50 hover:bg-blue-50 focus-visible:bg-blue-50 dark:odd:bg-zinc-950 dark:even:bg-zinc-900 dark:hover:bg-blue-950 dark:focus-visible:bg-blue-950"
              >
                {row.getAllCells().map((cell) => {
                  const numeric = isNumericType(cell.column.columnDef.meta?.type ?? "");
                  return (
                    <td
                      key={cell.id}
                      className={`border-b border-zinc-200 px-3 py-1.5 whitespace-nowrap dark:border-zinc-800 ${numeric ? "text-right tabular-nums" : ""}`}
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={colCount} style={{ height: padBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
