"use client";
// What an embed page shows: one view's table, chart, map, summary or pivot alone, as wide as
// the frame, with its name and a link to the full explorer (in a new tab: the explorer itself
// refuses to be framed). The view is held here, not in the URL: paging or a chart's settings
// change the frame, never the page around it.
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { infoQuery, resourceQuery, searchQuery } from "@/lib/api-client";
import { tabShowsPast, toSearchRequest, updateView, type ViewState } from "@/lib/view-state";
import { AsOfLine } from "@/components/explorer/as-of-banner";
import { ErrorState } from "@/components/explorer/error-state";
import { displayFields, resourceLabel } from "@/components/explorer/format";
import { Pager } from "@/components/explorer/pager";
import { PastUnavailable } from "@/components/explorer/past-notes";
import { RecordsTable } from "@/components/explorer/records-table";
import { SummaryView } from "@/components/explorer/summary-view";
import { TableSkeleton } from "@/components/explorer/table-skeleton";
import type { ViewProps } from "@/components/explorer/view-props";
import { useToken } from "@/components/token/token-provider";

const ChartView = dynamic(() => import("@/components/explorer/chart-view").then((m) => m.ChartView), { ssr: false });
const MapView = dynamic(() => import("@/components/explorer/map-view").then((m) => m.MapView), { ssr: false });
const PivotView = dynamic(() => import("@/components/explorer/pivot-view").then((m) => m.PivotView), { ssr: false });

export function EmbedView({ initial, name, openHref }: { initial: ViewState; name?: string; openHref: string }) {
  const [view, setView] = useState(initial);
  const { session, ready } = useToken();
  const t = useT();
  const rid = view.resource_id ?? "";
  const info = useQuery({ ...infoQuery(session, rid), enabled: ready && Boolean(rid) });
  const resource = useQuery({ ...resourceQuery(session, info.data?.meta.id ?? rid), enabled: ready && Boolean(rid) });
  const request = useMemo(() => toSearchRequest(view), [view]);
  // a view of the past: a tab that reads only the current data says so instead (as-of.ts)
  const tabPast = view.as_of !== null && !tabShowsPast(view.tab);
  const search = useQuery({ ...searchQuery(session, request), enabled: ready && Boolean(rid) && (view.tab === "table" || view.as_of !== null) });
  const title = resource.data ? resourceLabel(resource.data) : rid;
  const change = (patch: Partial<ViewState>) => setView((v) => updateView(v, patch));
  const fields = info.data?.fields ?? [];
  const props: ViewProps = { view, resource: resource.data ?? null, fields, title, onChange: change, onOpenRecord: () => undefined };
  const error = info.error ?? (view.tab === "table" ? search.error : null);
  const data = search.data;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-base font-semibold">{name ?? title ?? "Datastore Explorer"}</h1>
        <a href={openHref} target="_blank" rel="noopener" className="text-sm underline">
          {t("embed.open")}
        </a>
      </div>
      {view.as_of !== null && rid && <AsOfLine asOf={view.as_of} read={search.data?.as_of} />}
      {!rid ? (
        <p role="alert">{t("embed.noResource")}</p>
      ) : error ? (
        <ErrorState error={error} what={name ? "view" : "resource"} onRetry={() => (info.error ? info.refetch() : search.refetch())} />
      ) : tabPast ? (
        <PastUnavailable tab={t(`tab.${view.tab}`)} onTable={() => change({ tab: "table" })} onCurrent={() => change({ as_of: null })} />
      ) : view.tab === "summary" ? (
        <SummaryView {...props} />
      ) : view.tab === "chart" ? (
        <ChartView {...props} />
      ) : view.tab === "map" ? (
        <MapView {...props} />
      ) : view.tab === "pivot" ? (
        <PivotView {...props} />
      ) : !data ? (
        <TableSkeleton />
      ) : (
        <section aria-label={t("explorer.records")} className="space-y-2">
          <RecordsTable
            caption={t("explorer.recordsOf", { title })}
            fields={displayFields(data.fields, info.data?.fields, view.fields)}
            records={data.records}
            sort={view.sort}
            onSort={(sort) => change({ sort })}
            onOpen={() => undefined}
            stale={search.isPlaceholderData}
            resetKey={JSON.stringify(request)}
          />
          <Pager
            offset={view.offset}
            limit={view.limit}
            shown={data.records.length}
            total={data.total}
            estimated={Boolean(data.total_was_estimated)}
            onOffset={(offset) => change({ offset })}
          />
        </section>
      )}
    </div>
  );
}
