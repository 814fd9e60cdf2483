"use client";
// The explorer page: composes the controls around one view (held in the URL) and the queries
// that show it. Every change goes through updateView so paging resets consistently.
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect, useMemo } from "react";
import {
  ApiError,
  infoQuery,
  type Subject,
  resourceQuery,
  searchQuery,
  type DatastoreField,
  type Resource,
} from "@/lib/api-client";
import { tabShowsPast, toSearchRequest, updateView, viewForResource, withoutChip, type Tab, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { EditDetails } from "@/components/publish/edit-details";
import { UploadData } from "@/components/publish/upload-data";
import { useToken } from "@/components/token/token-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs } from "@/components/ui/tabs";
import { AddRecord } from "./add-record";
import { ApiPanel, countApi, tableApi } from "./api-panel";
import { RecentChanges } from "./recent-changes";
import { AsOfBanner } from "./as-of-banner";
import { useChartPlan } from "./chart/use-chart-plan";

import { ColumnChooser } from "./column-chooser";
import { EmptyResult } from "./empty-result";
import { ErrorState } from "./error-state";
import { ExportButtons } from "./export-buttons";
import { FilterBar } from "./filter-bar";
import { displayFields, formatCount, matchStatus, resourceLabel } from "./format";
import { Landing } from "./landing";
import { LimitSelect } from "./limit-select";
import { mapApi } from "./map/map-api";
import { Pager } from "./pager";
import { PastUnavailable } from "./past-notes";
import { PivotView, pivotPanelApi } from "./pivot-view";
import { PrivateBadge } from "./private-badge";
import { RecordDetail } from "./record-detail";
import { RecordsTable } from "./records-table";
import { ResourcePicker } from "./resource-picker";
import { SearchBox } from "./search-box";
import { SummaryView, summaryApi } from "./summary-view";
import { TableSkeleton } from "./table-skeleton";
import { useViewState } from "./use-view-state";
import { ViewToolbar } from "./view-toolbar";
import type { ViewProps } from "./view-props";

// The Chart and Map tabs draw with Observable Plot and d3: loaded when one of them opens, so
// the table does not wait for them.
const ChartView = dynamic(() => import("./chart-view").then((m) => m.ChartView), { ssr: false, loading: () => <TabLoading what="chart" /> });
const MapView = dynamic(() => import("./map-view").then((m) => m.MapView), { ssr: false, loading: () => <TabLoading what="map" /> });

function TabLoading({ what }: { what: "chart" | "map" }) {
  const t = useT();
  return (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
      {what === "chart" ? t("tab.loadingChart") : t("tab.loadingMap")}
    </p>
  );
}

const ID_FIELD: DatastoreField = { id: "_id", type: "int" };

const TABS: Tab[] = ["table", "summary", "chart", "map", "pivot"];

function useResource(resourceId: string | null, realId: string | undefined): Resource | null {
  const { session, ready } = useToken();
  // resource_show by name: the catalog is paged, never held whole in the browser
  const lookupId = realId ?? resourceId ?? "";
  const shown = useQuery({ ...resourceQuery(session, lookupId), enabled: ready && Boolean(resourceId) });
  return shown.data ?? null;
}

export function Explorer() {
  const [view, setView] = useViewState();
  const { session, ready } = useToken();
  const t = useT();
  const rid = view.resource_id;

  const info = useQuery({ ...infoQuery(session, rid ?? ""), enabled: ready && Boolean(rid) });
  // other tabs read their own figures: the search then only counts, for the status line
  const request = useMemo(() => {
    const req = toSearchRequest(view);
    return view.tab === "table" ? req : { ...req, limit: 0, offset: 0 };
  }, [view]);
  const search = useQuery({ ...searchQuery(session, request), enabled: ready && Boolean(rid) });
  const resource = useResource(rid, info.data?.meta.id);
  // what a token's limits name; the URL may hold an alias (a token limited to actions may read neither answer)
  const ownId = info.data?.meta.id ?? resource?.id ?? rid ?? "";

  const change = (patch: Partial<ViewState>, options?: { replace?: boolean }) => setView(updateView(view, patch), options);

  const title = resource ? resourceLabel(resource) : rid ?? "";
  useEffect(() => {
    document.title = title ? `${title} · Datastore Explorer` : "Datastore Explorer";
  }, [title]);

  const tableFields = info.data?.fields;
  // the API panel shows the request behind the tab on screen
  const past = view.as_of !== null;
  // a tab whose actions read only the current data says so instead of showing it
  const tabPast = past && !tabShowsPast(view.tab);
  const chartPlan = useChartPlan(view, tableFields, view.tab === "chart" && !tabPast);
  const allFields = useMemo(() => (tableFields ? [ID_FIELD, ...tableFields] : []), [tableFields]);
  const data = search.data;
  // as of a version, the answer's fields are that version's (a field dropped since included)
  const shownFields = useMemo(
    () => (data ? displayFields(data.fields, past ? undefined : tableFields, view.fields) : []),
    [data, past, tableFields, view.fields],
  );
  const filterable = tableFields ? allFields : data ? displayFields(data.fields, undefined, null) : [];

  const total = data?.total;
  const estimated = Boolean(data?.total_was_estimated);
  const narrowed = Boolean(view.q.trim()) || Object.keys(view.filters).length > 0;
  const read = data?.as_of;
  // the resource's own count is today's: beside a view of the past it would mislead
  const fullCount = past ? undefined : (info.data?.meta.count ?? resource?.row_count ?? undefined);
  const status = !rid
    ? ""
    : (search.isFetching && !data) || search.isPlaceholderData
      ? t("status.searching")
      : total === undefined
        ? ""
        : matchStatus(total, estimated, narrowed, fullCount, t);

  // private or missing: nothing to search, say only what to do
  const blocked = search.error instanceof ApiError && (search.error.kind === "forbidden" || search.error.kind === "not-found");
  // datastore_delete without filters: the resource stays, without a table to read
  const noTable = resource?.datastore_active === false;
  const what: Subject = rid && title !== rid ? { name: title } : "resource";

  const openRecord = (id: number) => change({ record: id });
  const viewProps: ViewProps = { view, resource, fields: tableFields ?? [], title, onChange: change, onOpenRecord: openRecord };
  const records = rid ? (
    <section aria-label={t("explorer.records")} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <ColumnChooser
            allFields={allFields}
            visible={view.fields}
            onChange={(fields) => change({ fields: fields && fields.length ? fields : null })}
          />
          <LimitSelect value={view.limit} onChange={(limit) => change({ limit })} />
          <CopyButton text={() => window.location.href} label={t("explorer.copyLink")} />
          {tableFields && !past && <AddRecord resourceId={rid} fields={tableFields} />}
        </div>
        {data && !search.error && (data.records.length > 0 || view.offset > 0) && (
          <Pager
            offset={view.offset}
            limit={view.limit}
            shown={search.isPlaceholderData ? Math.min(view.limit, data.records.length) : data.records.length}
            total={total}
            estimated={estimated}
            onOffset={(offset) => change({ offset })}
          />
        )}
      </div>

      {search.error ? (
        <ErrorState
          error={search.error}
          what={what}
          onRetry={() => search.refetch()}
          onReset={() => setView(viewForResource(rid))}
        />
      ) : !data ? (
        <TableSkeleton />
      ) : data.records.length === 0 && !search.isPlaceholderData ? (
        view.offset > 0 && (total ?? 0) > 0 ? (
          <p className="text-sm">
            {t("explorer.pastLastPage")}{" "}
            <button type="button" className="underline" onClick={() => change({ offset: 0 })}>
              {t("explorer.firstPage")}
            </button>
          </p>
        ) : (
          <EmptyResult
            view={view}
            onRemoveChip={(key) => change({ filters: withoutChip(view.filters, key) })}
            onClearSearch={() => change({ q: "" })}
          />
        )
      ) : (
        <RecordsTable
          caption={t("explorer.recordsOf", { title })}
          fields={shownFields}
          records={data.records}
          sort={view.sort}
          onSort={(sort) => change({ sort })}
          onOpen={(r) => openRecord(r._id as number)}
          stale={search.isPlaceholderData}
          resetKey={JSON.stringify(request)}
        />
      )}
    </section>
  ) : null;

  return (
    <div className="space-y-4">
      <section aria-label={t("explorer.chooseData")} className="space-y-3">
        <div className="flex flex-wrap items-end gap-3">
          <ResourcePicker
            selectedLabel={title}
            onSelect={(r) => setView(viewForResource(r.id))}
          />
          <UploadData onDone={(id) => setView(viewForResource(id))} />
        </div>
        {rid && (
          <div className="space-y-1">
            <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold">
              {title}
              {resource?.private && <PrivateBadge />}
              {resource && tableFields && <EditDetails resource={resource} fields={tableFields} onDeleted={() => setView(updateView(view, { resource_id: null }))} />}
            </h2>
            {resource?.description && <p className="text-sm text-zinc-700 dark:text-zinc-300">{resource.description}</p>}
            {fullCount !== undefined && !noTable && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("resource.totalRecords", { count: fullCount, total: formatCount(fullCount, t.locale) })}</p>
            )}
          </div>
        )}
      </section>

      {!rid ? (
        <Landing onSelect={(r) => setView(viewForResource(r.id))} />
      ) : noTable ? (
        <p role="status" className="rounded-md border p-4 text-sm">
          {t("explorer.noTable")}
        </p>
      ) : blocked ? (
        <ErrorState error={search.error} what={what} onRetry={() => search.refetch()} />
      ) : (
        <>
          <div className="space-y-3">
            <SearchBox
              value={view.q}
              status={status}
              onCommit={(q, first) => change({ q }, { replace: !first })}
            />
            <FilterBar view={view} fields={filterable} onChange={(filters) => change({ filters })} />
          </div>

          <ViewToolbar
            view={view}
            resourceId={ownId}
            resourcePrivate={Boolean(resource?.private)}
            title={title}
            read={read}
            history={info.data?.meta.history}
            onAsOf={(as_of) => change({ as_of })}
          />
          {view.as_of !== null && <AsOfBanner resourceId={rid} asOf={view.as_of} read={read} onCurrent={() => change({ as_of: null })} />}

          <Tabs label={t("explorer.views")} idPrefix="views" tabs={TABS.map((id) => ({ id, name: t(`tab.${id}`) }))} selected={view.tab} onSelect={(tab) => change({ tab })}>
            {view.tab === "table" ? (
              records
            ) : tabPast ? (
              <PastUnavailable
                tab={t(`tab.${view.tab}`)}
                onTable={() => change({ tab: "table" })}
                onCurrent={() => change({ as_of: null })}
              />
            ) : view.tab === "summary" ? (
              <SummaryView {...viewProps} />
            ) : view.tab === "chart" ? (
              <ChartView {...viewProps} />
            ) : view.tab === "pivot" ? (
              <PivotView {...viewProps} />
            ) : (
              <MapView {...viewProps} />
            )}
          </Tabs>

          <section aria-label={t("explorer.exportApi")} className="space-y-3 border-t pt-4">
            <ExportButtons view={view} filename={title || "records"} />
            <ApiPanel
              api={
                (tabPast && countApi(request)) ||
                (view.tab === "chart" && chartPlan.api) ||
                (view.tab === "summary" && summaryApi(view)) ||
                (view.tab === "map" && mapApi(view, tableFields ?? [])) ||
                (view.tab === "pivot" && pivotPanelApi(view, tableFields ?? [])) ||
                (view.tab === "table" ? tableApi(request) : countApi(request))
              }
              isPrivate={Boolean(resource?.private)}
            />
          </section>

          <RecentChanges resourceId={ownId} />

          <RecordDetail
            resourceId={rid}
            recordId={view.record}
            loaded={data?.records.find((r) => r._id === view.record)}
            fields={shownFields}
            allFields={tableFields}
            asOf={view.as_of}
            onShowAsOf={(as_of) => change({ as_of })}
            onClose={() => change({ record: null })}
          />
        </>
      )}
    </div>
  );
}
