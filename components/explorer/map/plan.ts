// How the Map tab reads its rows, decided from a first grid of 1° cells (one cheap
// datastore_aggregate): few rows are read one by one as points; many are drawn as cells, of the
// size their extent asks for. 1° cells merge exactly into the coarser sizes (2°, 5°, 10°), so
// only a finer grid needs a second request. Pure.
import type { AggregateResult } from "@/lib/api-client";
import { fitExtent, validLatitude, validLongitude } from "./extent";
import { chooseCellSize } from "./grid";

/** Up to this many rows are drawn one by one; past it, as cells. A search of 5,000 rows with
 *  four fields stays under a megabyte and Plot draws them in a few tens of milliseconds. */
export const POINTS_BOUND = 5000;

/** Cells one aggregate may return (the action allows 10,000). */
export const CELLS_LIMIT = 5000;

/** The first grid's cell size, in degrees. */
export const FIRST_SIZE = 1;

/** One cell of the grid: its lower edges, its rows (of the sample, when partial) and its first _id. */
export type MapCell = { lat: number; lon: number; count: number; id: number };

export type CellsLayer = {
  kind: "cells";
  cells: MapCell[];
  /** The cell size, in degrees. */
  size: number;
  /** Rows matching (estimated on big tables), and the rows counted into the cells. */
  total: number;
  rows: number;
  partial: boolean;
  /** Rows without coordinates (empty), and with values no map can place (past ±90, ±180). */
  missing: number;
  invalid: number;
};

const num = (v: unknown) => (v === null || v === undefined || v === "" ? NaN : Number(v));

/** An aggregate's groups as cells, the rows it could not place counted aside. */
export function cellsLayer(result: AggregateResult, size: number): CellsLayer {
  // keys are the cells' lower edges: a value of 90 is the cell [90, 90 + size), still valid
  const cells: MapCell[] = [];
  let missing = 0;
  let invalid = 0;
  for (const g of result.groups) {
    const lat = num(g.key[0]);
    const lon = num(g.key[1]);
    if (Number.isNaN(lat) || Number.isNaN(lon)) missing += g.count;
    else if (!validLatitude(lat) || !validLongitude(lon)) invalid += g.count;
    else cells.push({ lat, lon, count: g.count, id: g._id });
  }
  return { kind: "cells", cells, size, total: result.total, rows: result.rows, partial: result.partial, missing, invalid };
}

/** Cells merged into cells `size` times as wide (a whole multiple of theirs): counts add up, the
 *  smallest _id stays. */
export function mergeCells(layer: CellsLayer, size: number): CellsLayer {
  const merged = new Map<string, MapCell>();
  for (const c of layer.cells) {
    const lat = Math.floor(c.lat / size) * size;
    const lon = Math.floor(c.lon / size) * size;
    const key = `${lat},${lon}`;
    const m = merged.get(key);
    if (m) {
      m.count += c.count;
      m.id = Math.min(m.id, c.id);
    } else merged.set(key, { lat, lon, count: c.count, id: c.id });
  }
  const cells = [...merged.values()].sort((a, b) => a.lat - b.lat || a.lon - b.lon);
  return { ...layer, cells, size };
}

export type Plan =
  | { kind: "points" }
  | { kind: "cells"; layer: CellsLayer }
  /** A finer grid (or, when the first was cut at its limit, a coarser one) is to be read. */
  | { kind: "grid"; size: number };

export function planFrom(first: AggregateResult): Plan {
  if (first.total <= POINTS_BOUND) return { kind: "points" };
  const layer = cellsLayer(first, FIRST_SIZE);
  const cut = first.others.groups > 0;
  // a cell's rows lie anywhere in it: its two corners stand for them
  const extent = fitExtent(
    layer.cells.flatMap((c) => [
      { lat: c.lat, lon: c.lon, weight: c.count / 2 },
      { lat: c.lat + FIRST_SIZE, lon: c.lon + FIRST_SIZE, weight: c.count / 2 },
    ]),
  );
  if (!extent) return { kind: "cells", layer };
  const size = chooseCellSize(extent);
  if (cut) return { kind: "grid", size: Math.max(size, FIRST_SIZE * 2) };
  if (size === FIRST_SIZE) return { kind: "cells", layer };
  if (size > FIRST_SIZE && Number.isInteger(size / FIRST_SIZE)) return { kind: "cells", layer: mergeCells(layer, size) };
  return { kind: "grid", size };
}
