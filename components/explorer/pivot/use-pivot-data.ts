"use client";
// Fetches a pivot's calls (pivot-request.ts) and hands back its answers once all have come:
// with the shown cells asked again when the first cells call was cut.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { groupedQuery, type GroupedRequest } from "@/lib/api-client";
import { useToken } from "@/components/token/token-provider";
import type { PivotData } from "./cross-tab";
import type { PivotSettings } from "@/lib/view-state";
import { shownCellsCall, type PivotCalls } from "./pivot-request";

// stands in for a call not made (its query is disabled)
const NONE: GroupedRequest = { resource_id: "", group_by: [], metrics: [] };

export function usePivotData(calls: PivotCalls | null, pivot: PivotSettings | null) {
  const { session, ready } = useToken();
  const cells = useQuery({ ...groupedQuery(session, calls?.cells ?? NONE), enabled: ready && calls !== null });
  const rows = useQuery({ ...groupedQuery(session, calls?.rows ?? NONE), enabled: ready && Boolean(calls?.rows) });
  const columns = useQuery({ ...groupedQuery(session, calls?.columns ?? NONE), enabled: ready && Boolean(calls?.columns) });
  const withColumns = Boolean(calls?.columns);
  const again = useMemo(
    () => (calls && pivot && cells.data && rows.data && columns.data ? shownCellsCall(calls, pivot, cells.data, rows.data, columns.data) : null),
    [calls, pivot, cells.data, rows.data, columns.data],
  );
  const shown = useQuery({ ...groupedQuery(session, again ?? NONE), enabled: ready && again !== null });
  const data = useMemo((): PivotData | undefined => {
    if (!cells.data) return undefined;
    if (!withColumns) return { cells: cells.data };
    if (!rows.data || !columns.data || (again && !shown.data)) return undefined;
    return { cells: cells.data, rows: rows.data, columns: columns.data, ...(again && shown.data ? { shown: shown.data } : {}) };
  }, [withColumns, cells.data, rows.data, columns.data, again, shown.data]);
  const active = withColumns ? [cells, rows, columns, ...(again ? [shown] : [])] : [cells];
  const failed = active.find((q) => q.error);
  return {
    data,
    error: failed?.error ?? null,
    fetching: active.some((q) => q.isFetching),
    refetch: () => {
      for (const q of active) if (q.error) void q.refetch();
    },
  };
}
