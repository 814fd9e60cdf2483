"use client";
// The map itself, drawn by Observable Plot after React renders its box (Plot makes DOM): the
// tiles or offline outlines, then the points or cells, with a tip for the one nearest the
// pointer. A click picks what the tip shows; Plot's own "sticky tip" on press is turned off, so
// every click picks.
import * as Plot from "@observablehq/plot";
import { useEffect, useRef, useState } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import type { Translate } from "@/lib/i18n";
import type { Extent } from "./extent";
import { formatSize } from "./grid";
import { fitScale, tilesFor, type Frame } from "./mercator";
import type { Basemap } from "./use-basemap";
import type { MapCell } from "./plan";
import type { MapLayer, MapPoint } from "./use-map-data";

export type Picked = { kind: "point"; point: MapPoint } | { kind: "cell"; cell: MapCell };

// set on the box below, lighter in dark mode
const DOT = "var(--map-dot)";
const DOT_EDGE = "var(--map-dot-edge)";
const RAD = Math.PI / 180;

const coordinate = (x: number, digits = 4) => Number(x.toFixed(digits)).toString();

// The svg is one image to assistive technology (its label and description say what it shows;
// the table below lists the points): its marks are hidden from it.
const HIDDEN = { ariaHidden: "true" } as const;

function layerMarks(layer: MapLayer, fit: Extent, frame: Frame, t: Translate): { marks: Plot.Markish[]; data: (MapPoint | CellDatum)[] } {
  if (layer.kind === "points") {
    const title = (p: MapPoint) => `${p.label ?? t("map.table.record", { id: String(p.id) })}\n${coordinate(p.lat)}, ${coordinate(p.lon)}\n${t("map.tip.open")}`;
    return {
      data: layer.points,
      marks: [
        Plot.dot(layer.points, { ...HIDDEN, x: "lon", y: "lat", r: 2.5, fill: DOT, fillOpacity: 0.8, stroke: DOT_EDGE, strokeWidth: 0.5, clip: "frame" }),
        Plot.tip(layer.points, Plot.pointer({ ...HIDDEN, x: "lon", y: "lat", title, maxRadius: 24 })),
      ],
    };
  }
  const { size, partial } = layer;
  // the biggest dot about fills its cell on screen
  const cellPixels = size * RAD * fitScale(fit, frame);
  const maxR = Math.min(16, Math.max(3, cellPixels * 0.7));
  const max = Math.max(1, ...layer.cells.map((c) => c.count));
  const cells: CellDatum[] = layer.cells.map((cell) => ({
    cell,
    x: cell.lon + size / 2,
    y: cell.lat + size / 2,
    r: Math.max(1.25, maxR * Math.sqrt(cell.count / max)),
  }));
  // coordinates as the filters a click sets write them, not in the reader's digits
  const title = ({ cell }: CellDatum) =>
    `${t(partial ? "map.tip.rowsInSample" : "count.rows", { count: cell.count })}\n` +
    `${t("map.tip.cell", { latFrom: coordinate(cell.lat), latTo: coordinate(cell.lat + size), lonFrom: coordinate(cell.lon), lonTo: coordinate(cell.lon + size), size: formatSize(size) })}\n` +
    t(cell.count === 1 && !partial ? "map.tip.open" : "map.tip.zoomIn");
  return {
    data: cells,
    marks: [
      Plot.dot(cells, { ...HIDDEN, x: "x", y: "y", r: "r", fill: DOT, fillOpacity: 0.55, stroke: DOT_EDGE, strokeOpacity: 0.6, strokeWidth: 0.5, clip: "frame" }),
      Plot.tip(cells, Plot.pointer({ ...HIDDEN, x: "x", y: "y", title, maxRadius: Math.max(12, maxR) })),
    ],
  };
}

type CellDatum = { cell: MapCell; x: number; y: number; r: number };

function baseMarks(fit: Extent, frame: Frame, basemap: Basemap | null, tiles: string | null): Plot.Markish[] {
  if (tiles) {
    const t = tilesFor(fit, frame, tiles);
    // a pixel of overlap hides the seams between tiles
    return [Plot.image(t.tiles, { ...HIDDEN, x: "lon", y: "lat", src: "url", width: t.size + 1, height: t.size + 1, preserveAspectRatio: "none", clip: "frame" })];
  }
  if (!basemap) return [];
  return [
    Plot.geo(basemap.land, { ...HIDDEN, clip: "frame", fill: "currentColor", fillOpacity: 0.07 }),
    Plot.geo(basemap.borders, { ...HIDDEN, clip: "frame", stroke: "currentColor", strokeOpacity: 0.35, strokeWidth: 0.6 }),
    ...(basemap.states ? [Plot.geo(basemap.states, { ...HIDDEN, clip: "frame", stroke: "currentColor", strokeOpacity: 0.22, strokeWidth: 0.5 })] : []),
  ];
}

export function MapPlot({
  layer,
  fit,
  frame,
  basemap,
  tiles,
  label,
  description,
  onPick,
}: {
  layer: MapLayer;
  /** The extent the projection fits into the frame. */
  fit: Extent;
  frame: Frame;
  basemap: Basemap | null;
  /** A tile URL template, drawn instead of the outlines. */
  tiles: string | null;
  label: string;
  description: string;
  onPick: (picked: Picked) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const t = useT();
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  // The outlines take longer to draw than the points: they join the map a frame after the
  // points have painted, so the points never wait for them.
  const [drawnBase, setDrawnBase] = useState<Basemap | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frameId = requestAnimationFrame(() => (timer = setTimeout(() => setDrawnBase(basemap), 0)));
    return () => {
      cancelAnimationFrame(frameId);
      clearTimeout(timer);
    };
  }, [basemap]);

  useEffect(() => {
    const el = box.current;
    if (!el || frame.width <= 0) return;
    const { marks } = layerMarks(layer, fit, frame, t);
    const domain = { type: "MultiPoint" as const, coordinates: [[fit.lonMin, fit.latMin], [fit.lonMax, fit.latMax]] };
    const svg = Plot.plot({
      width: frame.width,
      height: frame.height,
      margin: 0,
      // centred on the data, so a map of Alaska does not end at the antimeridian; not clipped
      // by the projection, which would drop the edge tiles (their centres lie outside): each
      // mark clips itself to the frame
      projection: { type: "mercator", domain, rotate: [-(fit.lonMin + fit.lonMax) / 2, 0], clip: false },
      r: { type: "identity" },
      marks: [...baseMarks(fit, frame, drawnBase, tiles), Plot.frame({ ...HIDDEN, stroke: "currentColor", strokeOpacity: 0.2 }), ...marks],
      ariaLabel: label,
      ariaDescription: description,
      style: "--plot-background: Canvas; font-size: 12px",
    }) as (SVGSVGElement | HTMLElement) & { value?: unknown };
    svg.setAttribute("role", "img");
    // Plot's pointer makes a tip "sticky" on press; stopped here (capture runs first), so a
    // press just picks what the pointer is on
    const press = (e: Event) => e.stopImmediatePropagation();
    const click = () => {
      const v = svg.value as MapPoint | CellDatum | null | undefined;
      if (!v) return;
      pick.current("cell" in v ? { kind: "cell", cell: v.cell } : { kind: "point", point: v });
    };
    const hover = () => void (svg.style.cursor = svg.value ? "pointer" : "");
    svg.addEventListener("pointerdown", press, { capture: true });
    svg.addEventListener("click", click);
    svg.addEventListener("input", hover);
    el.replaceChildren(svg);
    return () => {
      svg.removeEventListener("pointerdown", press, { capture: true });
      svg.removeEventListener("click", click);
      svg.removeEventListener("input", hover);
      svg.remove();
    };
  }, [layer, fit, frame, drawnBase, tiles, label, description, t]);

  // data-map-points: the bench's "first points drawn" waits for a circle in here
  return (
    <div
      ref={box}
      data-map-points=""
      style={{ height: frame.height }}
      className="w-full text-zinc-800 [--map-dot-edge:#1e3a8a] [--map-dot:#2563eb] dark:text-zinc-200 dark:[--map-dot:#60a5fa]"
    />
  );
}
