"use client";
// Fetches a pivot's calls (pivot-request.ts) and hands back its answers once all have come.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { groupedQuery, type GroupedRequest } from "@/lib/api-client";
import { useToken } from "@/components/token/token-provider";
import type { PivotData } from "./cross-tab";
import type { PivotCalls } from "./pivot-request";

// stands in for a call not made (its query is disabled)
const NONE: GroupedRequest = { resource_id: "", group_by: [], metrics: [] };

export function usePivotData(calls: PivotCalls | null) {
  const { session, ready } = useToken();
  const cells = useQuery({ ...groupedQuery(session, calls?.cells ?? NONE), enabled: ready && calls !== null });
  const rows = useQuery({ ...groupedQuery(session, calls?.rows ?? NONE), enabled: ready && Boolean(calls?.rows) });
  const columns = useQuery({ ...groupedQuery(session, calls?.columns ?? NONE), enabled: ready && Boolean(calls?.columns) });
  const withColumns = Boolean(calls?.columns);
  const data = useMemo((): PivotData | undefined => {
    if (!cells.data) return undefined;
    if (!withColumns) return { cells: cells.data };
    return rows.data && columns.data ? { cells: cells.data, rows: rows.data, columns: columns.data } : undefined;
  }, [withColumns, cells.data, rows.data, columns.data]);
  const active = withColumns ? [cells, rows, columns] : [cells];
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
