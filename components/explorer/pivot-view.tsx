"use client";
// The Pivot tab: a cross-tab of the current result (search and filters) by one or two Rows
// fields and an optional Columns field, a measure in each cell, totals over every matching row.
// Its settings live in the URL (view.pivot); a cell opens its rows in the Table as chips.
import { useT } from "@/components/i18n/i18n-provider";
import { useMemo, useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import type { ViewState } from "@/lib/view-state";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import type { ApiView } from "./api-panel";
import { safeFileName } from "./chart/chart-numbers";
import { ErrorState } from "./error-state";
import { totalText } from "./format";
import { buildCrossTab, crossTabGrid, type CrossTab } from "./pivot/cross-tab";
import { cellFilters } from "./pivot/pivot-chips";
import { PivotControls } from "./pivot/pivot-controls";
import { PivotDownloads } from "./pivot/pivot-downloads";
import { resolvePivot } from "./pivot/pivot-fields";
import { pivotApi, pivotCalls } from "./pivot/pivot-request";
import { PivotTable } from "./pivot/pivot-table";
import { usePivotData } from "./pivot/use-pivot-data";
import type { ViewProps } from "./view-props";

/** The Pivot tab's call, for the API panel; null while the fields load or with none to group by. */
export function pivotPanelApi(view: ViewState, fields: DatastoreField[]): ApiView | null {
  const pivot = fields.length ? resolvePivot(view.pivot, fields) : null;
  return pivot && pivotApi(pivotCalls(view, pivot));
}

export function PivotView({ view, fields, title, onChange }: ViewProps) {
  const t = useT();
  const pivot = useMemo(() => (fields.length ? resolvePivot(view.pivot, fields) : null), [view.pivot, fields]);
  const { resource_id, q, filters } = view;
  const calls = useMemo(() => pivot && pivotCalls(view, pivot), [pivot, view]);
  const { data, error, fetching, refetch } = usePivotData(calls, pivot);
  const built = useMemo(() => (pivot && data ? buildCrossTab(pivot, fields, data, t) : null), [pivot, fields, data, t]);
  // while the next answers load, the last table stays (dimmed), never another resource's
  const [last, setLast] = useState<{ rid: string | null; table: CrossTab; total: number; partial: boolean } | null>(null);
  if (built && data && last?.table !== built) setLast({ rid: resource_id, table: built, total: data.cells.total, partial: data.cells.partial });
  const shown = built && data ? { table: built, total: data.cells.total, partial: data.cells.partial } : last?.rid === resource_id ? last : null;

  if (!fields.length) return <Skeleton className="h-80 w-full" />;
  if (!pivot) return <Notice title={t("pivot.nothing")}>{t("pivot.noField")}</Notice>;

  const pick = (table: CrossTab, r: number, c: number) => {
    const keys = [];
    if (r < table.rows.length) keys.push(...pivot.rows.map((key, i) => ({ key, value: table.rows[r].key[i] })));
    if (pivot.columns && c < table.columns.length) keys.push({ key: pivot.columns, value: table.columns[c].key });
    onChange({ filters: cellFilters(filters, keys, fields), tab: "table" });
  };

  const narrowed = Boolean(q.trim()) || Object.keys(filters).length > 0;
  let body;
  if (error) {
    body = <ErrorState error={error} what="pivot" onRetry={refetch} onReset={() => onChange({ q: "", filters: {} })} />;
  } else if (!shown) {
    body = (
      <div role="status">
        <span className="sr-only">{t("pivot.counting")}</span>
        <Skeleton className="h-80 w-full" />
      </div>
    );
  } else if (shown.total === 0) {
    body = (
      <Notice title={t("pivot.nothing")} role="status">
        {narrowed ? t("summary.noMatch") : t("summary.noRows")}
      </Notice>
    );
  } else {
    const { table } = shown;
    const stale = !built || fetching;
    body = (
      <div className="space-y-3">
        <div className="space-y-1 text-sm">
          <p>
            <span className="font-medium">{table.caption}</span>
            {shown.partial
              ? t("pivot.sampled", { total: totalText(shown.total, true, t).replace(/^\S+ /, "") })
              : t(narrowed ? "pivot.overMatching" : "pivot.over", { rows: t("count.rows", { count: shown.total }) })}{" "}
            {t("pivot.pickCell")}
          </p>
          {table.notes.map((n) => (
            <p key={n} className="text-zinc-700 dark:text-zinc-300">
              {n}
            </p>
          ))}
        </div>
        <PivotTable table={table} stale={stale} onPick={({ r, c }) => pick(table, r, c)} />
        <PivotDownloads
          grid={() => crossTabGrid(table, t)}
          title={title || t("tab.pivot")}
          fileName={(ext) => safeFileName(`${title || "pivot"} - ${table.caption}`, ext)}
        />
      </div>
    );
  }

  return (
    <section aria-label={t("tab.pivot")} className="space-y-4">
      <PivotControls pivot={pivot} fields={fields} onChange={(settings) => onChange({ pivot: settings })} />
      {body}
    </section>
  );
}
