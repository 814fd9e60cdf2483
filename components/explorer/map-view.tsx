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
import type { Translate } from "@/lib/i18n";
import { useRichT, useT } from "@/components/i18n/i18n-provider";
import { formatCount, totalText } from "./format";
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

function layerStatus(layer: MapLayer, t: Translate): string {
  const unplaced = layer.missing + layer.invalid;
  const rows = (count: number) => t("count.rows", { count });
  const without = unplaced ? t("map.withoutCoords", { rows: rows(unplaced) }) : "";
  if (layer.kind === "points") {
    const capped = layer.capped ? t("map.firstRows", { count: layer.points.length + unplaced }) : "";
    return t("map.showing", { rows: rows(layer.points.length), capped, without });
  }
  const cells = t("map.inCells", { count: layer.cells.length, size: formatSize(layer.size) });
  if (layer.partial) return t("map.sample", { rows: formatCount(layer.rows, t.locale), total: totalText(layer.total, true, t), cells, without });
  return t("map.rowsInCells", { rows: rows(layer.rows - unplaced), cells, without });
}

export function MapView({ view, fields, title, onChange, onOpenRecord }: ViewProps) {
  const { session, ready } = useToken();
  const t = useT();
  const rich = useRichT();
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

  if (!fields.length) return <p role="status" className="text-sm">{t("map.loadingFields")}</p>;
  if (!numeric.length) {
    return <Notice title={t("map.nothing")}>{t("map.noNumbers")}</Notice>;
  }
  if (!coords) {
    return (
      <div className="space-y-3">
        <Notice title={lat && lat === lon ? t("map.twoDifferent") : t("map.noCoordFields")}>
          <p>
            {rich("map.howPlaced", { geo: <code>info.geo</code> })}
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

  const status = layer ? layerStatus(layer, t) : "";
  const empty = layer !== null && (layer.kind === "points" ? layer.points.length === 0 : layer.cells.length === 0);
  const shown = fit && frame ? frameExtent(fit, frame) : null;
  const left = layer && shown ? outside(layer, shown) : 0;
  const badRange = (layer?.invalid ?? 0) > 0;
  const hint =
    layer?.kind === "cells"
      ? t("map.hintCells")
      : t("map.hintPoints");

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        {selects}
        {zoomed && (
          <Button onClick={zoomOut} title={t("map.zoomOutTitle")}>
            {t("map.zoomOut")}
          </Button>
        )}
      </div>
      {badRange && (
        <Notice tone="warning" title={t("map.badValues")}>
          <p>
            {t("map.badValuesBody", { lat: coords.lat, lon: coords.lon })}
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
                {layer.missing + layer.invalid > 0 ? t("map.noCoords") : t("map.noRows")}
              </p>
            ) : layer && fit && frame ? (
              <MapPlot
                layer={layer}
                fit={fit}
                frame={frame}
                basemap={basemap}
                tiles={tiles}
                label={t("map.of", { title })}
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
                  {status && t("map.by", { lat: coords.lat, lon: coords.lon })}
                </>
              ) : (
                t("tab.loadingMap")
              )}
            </p>
            {layer && !empty && (
              <p className="text-zinc-600 dark:text-zinc-400">
                {hint}
                {left > 0 && (
                  <>
                    {" "}
                    <span>
                      {t("map.outside", { count: left, rows: t("count.rows", { count: left }) })}
                    </span>{" "}
                    <button type="button" className="underline" onClick={() => setFitAll(true)}>
                      {t("map.showEvery")}
                    </button>
                  </>
                )}
                {fitAll && trimmed && (
                  <>
                    {" "}
                    <button type="button" className="underline" onClick={() => setFitAll(false)}>
                      {t("map.fitMost")}
                    </button>
                  </>
                )}
              </p>
            )}
            {tiles && config?.map_attribution && <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("map.tiles", { attribution: config.map_attribution })}</p>}
          </figcaption>
        </figure>
      )}
      {layer && !data.error && !empty && (
        <MapTable layer={layer} onPick={pick} />
      )}
    </div>
  );
}
