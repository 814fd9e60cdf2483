"use client";
// The Map tab: the matching rows placed by their latitude and longitude fields (found by name or
// by the data dictionary, or chosen: `lat`, `lon` in the URL). Few rows are drawn one by one,
// many as a server-side grid; a click opens a row's record or zooms into a cell with two range
// chips. A caption and a table say the same in words.
import { useEffect, useMemo, useState } from "react";
import { chipForField, fieldKey, toMatchRequest, withoutChip } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { ErrorState } from "./error-state";
import { formatCount, plural, totalText } from "./format";
import { CoordinateFields } from "./map/coordinate-fields";
import { labelField, numericFields, resolveCoordinates } from "./map/detect";
import { contains, fitExtent, TAIL, showsUs, type Extent, type Located } from "./map/extent";
import { cellBounds, formatSize, zoomFilters } from "./map/grid";
import { MapPlot, type Picked } from "./map/map-plot";
import { MapTable } from "./map/map-table";
import { frameExtent, frameHeight, type Frame } from "./map/mercator";
import { useBasemap } from "./map/use-basemap";
import { useExplorerConfig } from "./map/use-explorer-config";
import { useMapData, type MapLayer } from "./map/use-map-data";
import type { ViewProps } from "./view-props";

/** A callback ref and the width of the element it is given (0 until measured). */
function useWidth() {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, width] as const;
}

function places(layer: MapLayer): Located[] {
  if (layer.kind === "points") return layer.points;
  const half = layer.size / 2;
  return layer.cells.map((c) => ({ lat: c.lat + half, lon: c.lon + half, weight: c.count }));
}

/** Rows the frame leaves out (a cell counts where its centre is). */
function outside(layer: MapLayer, shown: Extent): number {
  return places(layer).reduce((n, p) => n + (contains(shown, p) ? 0 : (p.weight ?? 1)), 0);
}

function layerStatus(layer: MapLayer): string {
  const unplaced = layer.missing + layer.invalid;
  const without = unplaced ? `; ${plural(unplaced, "row")} without usable coordinates` : "";
  if (layer.kind === "points") {
    const capped = layer.capped ? ` (the first ${formatCount(layer.points.length + unplaced)} rows)` : "";
    return `Showing ${plural(layer.points.length, "row")}${capped}${without}`;
  }
  const inCells = `in ${plural(layer.cells.length, "cell")} of ${formatSize(layer.size)}`;
  if (layer.partial) return `A sample of ${formatCount(layer.rows)} of ${totalText(layer.total, true)} rows, ${inCells}${without}`;
  return `${plural(layer.rows - unplaced, "row")} ${inCells}${without}`;
}

export function MapView({ view, fields, title, onChange, onOpenRecord }: ViewProps) {
  const { session, ready } = useToken();
  const numeric = useMemo(() => numericFields(fields), [fields]);
  const { lat, lon } = useMemo(() => resolveCoordinates(fields, view.map), [fields, view.map]);
  const coords = useMemo(() => (lat && lon && lat !== lon ? { lat, lon } : null), [lat, lon]);
  const label = useMemo(() => labelField(fields), [fields]);
  const match = useMemo(() => toMatchRequest(view), [view]);
  const data = useMapData(session, ready, match, coords, label);
  const config = useExplorerConfig();
  const [fitAll, setFitAll] = useState(false);
  const [box, width] = useWidth();

  const { layer } = data;
  const fitMost = useMemo(() => (layer ? fitExtent(places(layer), TAIL) : null), [layer]);
  const fitEvery = useMemo(() => (layer ? fitExtent(places(layer), 0) : null), [layer]);
  const trimmed = JSON.stringify(fitMost) !== JSON.stringify(fitEvery);
  const fit = fitAll ? fitEvery : fitMost;
  const frame = useMemo<Frame | null>(() => (fit && width > 0 ? { width, height: frameHeight(fit, width) } : null), [fit, width]);
  const tiles = config?.map_tiles ?? null;
  const basemap = useBasemap(config !== undefined && !tiles && fit !== null, fit !== null && showsUs(fit));

  const setFields = (patch: { lat?: string | null; lon?: string | null }) => onChange({ map: { lat, lon, ...patch } });
  const selects = <CoordinateFields fields={numeric} lat={lat} lon={lon} onChange={setFields} />;

  if (!fields.length) return <p role="status" className="text-sm">Loading the fields…</p>;
  if (!numeric.length) {
    return <Notice title="Nothing to map">This resource has no number fields, so no latitude and longitude to place its rows by.</Notice>;
  }
  if (!coords) {
    return (
      <div className="space-y-3">
        <Notice title={lat && lat === lon ? "Choose two different fields" : "No latitude and longitude fields found"}>
          <p>
            The map places each row by a latitude and a longitude field (found by their names, or by{" "}
            <code>info.geo</code> in the data dictionary). Choose the number fields that hold them:
          </p>
        </Notice>
        {selects}
      </div>
    );
  }

  const pick = (picked: Picked) => {
    if (picked.kind === "point") return onOpenRecord(picked.point.id);
    if (layer?.kind !== "cells") return;
    const { cell } = picked;
    if (cell.count === 1 && !layer.partial) return onOpenRecord(cell.id);
    onChange({ filters: zoomFilters(view.filters, coords, cellBounds(cell.lat, cell.lon, layer.size)) });
  };
  const zoomed = [coords.lat, coords.lon].some((f) => chipForField(view.filters, f)?.kind === "range");
  const zoomOut = () => onChange({ filters: withoutChip(withoutChip(view.filters, fieldKey(coords.lat)), fieldKey(coords.lon)) });

  const status = layer ? layerStatus(layer) : "";
  const empty = layer !== null && (layer.kind === "points" ? layer.points.length === 0 : layer.cells.length === 0);
  const shown = fit && frame ? frameExtent(fit, frame) : null;
  const left = layer && shown ? outside(layer, shown) : 0;
  const badRange = (layer?.invalid ?? 0) > 0;
  const hint =
    layer?.kind === "cells"
      ? "Click a cell to zoom in (a cell of one row opens its record); bigger dots hold more rows."
      : "Click a point to open its record.";

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        {selects}
        {zoomed && (
          <Button onClick={zoomOut} title="Remove the latitude and longitude ranges">
            Zoom out
          </Button>
        )}
      </div>
      {badRange && (
        <Notice tone="warning" title="Some values are not coordinates">
          <p>
            Latitudes lie between −90 and 90 and longitudes between −180 and 180; rows with other values in “{coords.lat}” or “
            {coords.lon}” are left off the map.
          </p>
        </Notice>
      )}
      {data.error ? (
        <ErrorState error={data.error} what={{ mapOf: title }} onRetry={data.retry} />
      ) : (
        <figure className="space-y-2" aria-busy={!layer || data.stale}>
          <div ref={box} className={`w-full ${data.stale ? "opacity-60" : ""}`}>
            {layer && empty ? (
              <p className="rounded-md border p-4 text-sm">
                {layer.missing + layer.invalid > 0 ? "No matching row has coordinates to map." : "No rows match."}
              </p>
            ) : layer && fit && frame ? (
              <MapPlot
                layer={layer}
                fit={fit}
                frame={frame}
                basemap={basemap}
                tiles={tiles}
                label={`Map of ${title}`}
                description={status}
                onPick={pick}
              />
            ) : (
              <div className="h-72 animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-900" />
            )}
          </div>
          <figcaption className="space-y-1 text-sm">
            <p role="status">
              {layer ? (
                <>
                  <span className="font-medium">{status}</span>
                  {status && ` by “${coords.lat}” and “${coords.lon}”.`}
                </>
              ) : (
                "Loading the map…"
              )}
            </p>
            {layer && !empty && (
              <p className="text-zinc-600 dark:text-zinc-400">
                {hint}
                {left > 0 && (
                  <>
                    {" "}
                    <span>
                      {plural(left, "row")} {left === 1 ? "lies" : "lie"} outside this view.
                    </span>{" "}
                    <button type="button" className="underline" onClick={() => setFitAll(true)}>
                      Show every point
                    </button>
                  </>
                )}
                {fitAll && trimmed && (
                  <>
                    {" "}
                    <button type="button" className="underline" onClick={() => setFitAll(false)}>
                      Fit the map to most points
                    </button>
                  </>
                )}
              </p>
            )}
            {tiles && config?.map_attribution && <p className="text-xs text-zinc-600 dark:text-zinc-400">Map tiles: {config.map_attribution}</p>}
          </figcaption>
        </figure>
      )}
      {layer && !data.error && !empty && (
        <MapTable layer={layer} onPick={pick} />
      )}
    </div>
  );
}
