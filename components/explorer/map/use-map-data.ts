"use client";
// What the Map tab draws, in one or two requests: a first grid of 1° cells (how many rows match,
// and where), then, for few rows, every one of them as a point (datastore_search), or for many,
// the cells, merged or read again at the size their extent asks for (plan.ts). A table of
// millions of rows costs the same as one of thousands.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  callAction,
  noRetryOnClientErrors,
  queryKeys,
  type AggregateRequest,
  type AggregateResult,
  type SearchResult,
  type Session,
} from "@/lib/api-client";
import type { MatchRequest } from "@/lib/view-state";
import { validLatitude, validLongitude } from "./extent";
import { coarser } from "./grid";
import { CELLS_LIMIT, cellsLayer, FIRST_SIZE, planFrom, POINTS_BOUND, type CellsLayer } from "./plan";

export type MapPoint = { id: number; lat: number; lon: number; label: string | null };

export type PointsLayer = {
  kind: "points";
  points: MapPoint[];
  /** Rows without coordinates (empty), and with values no map can place (past ±90, ±180). */
  missing: number;
  invalid: number;
  /** More rows matched than were read. */
  capped: boolean;
};

export type MapLayer = PointsLayer | CellsLayer;

export type CoordinateFields = { lat: string; lon: string };

const num = (v: unknown) => (v === null || v === undefined || v === "" ? NaN : Number(v));

async function readPoints(s: Session, match: MatchRequest, coords: CoordinateFields, label: string | null, signal: AbortSignal): Promise<PointsLayer> {
  const fields = ["_id", coords.lat, coords.lon, ...(label ? [label] : [])];
  const result = await callAction<SearchResult>("datastore_search", { ...match, fields, limit: POINTS_BOUND }, s, signal);
  const points: MapPoint[] = [];
  let missing = 0;
  let invalid = 0;
  for (const r of result.records) {
    const lat = num(r[coords.lat]);
    const lon = num(r[coords.lon]);
    if (Number.isNaN(lat) || Number.isNaN(lon)) missing++;
    else if (!validLatitude(lat) || !validLongitude(lon)) invalid++;
    else points.push({ id: r._id as number, lat, lon, label: label && r[label] != null ? String(r[label]) : null });
  }
  return { kind: "points", points, missing, invalid, capped: result.records.length >= POINTS_BOUND };
}

/** The grid of `bin`-degree cells (the API panel shows the first one). */
export function gridRequest(match: MatchRequest, coords: CoordinateFields, bin = FIRST_SIZE): AggregateRequest {
  return { ...match, group_by: [coords.lat, coords.lon], bin, limit: CELLS_LIMIT };
}

function grid(s: Session, match: MatchRequest, coords: CoordinateFields, bin: number, signal: AbortSignal) {
  return callAction<AggregateResult>("datastore_aggregate", gridRequest(match, coords, bin), s, signal);
}

async function readCells(s: Session, match: MatchRequest, coords: CoordinateFields, size: number, signal: AbortSignal): Promise<CellsLayer> {
  for (let bin = size; ; ) {
    const result = await grid(s, match, coords, bin, signal);
    const next = coarser(bin);
    // cells come in key order, so a grid cut at its limit would lose its north: coarser cells
    if (result.others.groups > 0 && next !== null) bin = next;
    else return cellsLayer(result, bin);
  }
}

export type MapData = {
  error: Error | null;
  layer: MapLayer | null;
  /** The layer shown is the previous view's, while this one's loads. */
  stale: boolean;
  retry: () => void;
};

export function useMapData(s: Session, ready: boolean, match: MatchRequest, coords: CoordinateFields | null, label: string | null): MapData {
  const enabled = ready && coords !== null && Boolean(match.resource_id);
  const first = useQuery({
    queryKey: [...queryKeys.all(s), "map-grid", match, coords, FIRST_SIZE] as const,
    queryFn: ({ signal }) => grid(s, match, coords!, FIRST_SIZE, signal),
    enabled,
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
    // the last map stays (marked stale) while the next one loads
    placeholderData: keepPreviousData,
  });
  // while the next view's first grid loads, the last view's plan and layer stay on screen
  const plan = useMemo(() => (first.data ? planFrom(first.data) : null), [first.data]);
  const needsSecond = plan?.kind === "points" || plan?.kind === "grid";

  const second = useQuery({
    queryKey: [...queryKeys.all(s), "map-layer", match, coords, plan?.kind === "points" ? label : plan?.kind === "grid" ? plan.size : null] as const,
    queryFn: ({ signal }): Promise<MapLayer> =>
      plan?.kind === "points" ? readPoints(s, match, coords!, label, signal) : readCells(s, match, coords!, plan?.kind === "grid" ? plan.size : FIRST_SIZE, signal),
    enabled: enabled && !first.isPlaceholderData && needsSecond,
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
    placeholderData: keepPreviousData,
  });

  return {
    error: first.error ?? (needsSecond ? second.error : null),
    layer: plan?.kind === "cells" ? plan.layer : (second.data ?? null),
    stale: first.isPlaceholderData || (needsSecond && second.isPlaceholderData),
    retry: () => void (first.error ? first.refetch() : second.refetch()),
  };
}
