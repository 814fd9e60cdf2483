// The server-side grid of a map with many rows: the cell size (datastore_aggregate's `bin`, in
// degrees) for an extent, and the filter chips that zoom into one cell. Pure.
import { withChip, type Chip, type Filters } from "@/lib/view-state";
import type { Extent } from "./extent";

/** Cell sizes, in degrees: round numbers, so cell edges read well in the chips they make. */
export const CELL_SIZES = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10] as const;

/** Cells across the wider side of the map: dots a few pixels apart at common widths; most of
 *  such a grid is empty (sea, wilderness), so the cells drawn stay well under the limit. */
export const CELLS_ACROSS = 150;

/** The smallest cell size that covers the extent's wider side in at most `across` cells. */
export function chooseCellSize(e: Extent, across = CELLS_ACROSS): number {
  const span = Math.max(e.latMax - e.latMin, e.lonMax - e.lonMin);
  return CELL_SIZES.find((size) => span / size <= across) ?? CELL_SIZES[CELL_SIZES.length - 1];
}

/** The next coarser cell size, or null at the coarsest. */
export function coarser(size: number): number | null {
  const i = CELL_SIZES.findIndex((s) => s === size);
  return i >= 0 && i < CELL_SIZES.length - 1 ? CELL_SIZES[i + 1] : null;
}

/** Digits after the point that a cell size needs (0.05 → 2). */
export function sizeDigits(size: number): number {
  return Math.max(0, Math.ceil(-Math.log10(size) - 1e-9));
}

/** x rounded to the cell size's digits: 0.1 + 0.2 is 0.3 at the edge of a cell. */
export function roundEdge(x: number, size: number): number {
  return Number(x.toFixed(sizeDigits(size) + 1));
}

/** A cell's bounds from its key (the lower edges). */
export function cellBounds(lat: number, lon: number, size: number): Extent {
  return { latMin: roundEdge(lat, size), latMax: roundEdge(lat + size, size), lonMin: roundEdge(lon, size), lonMax: roundEdge(lon + size, size) };
}

/** The view's filters narrowed to one cell: a latitude and a longitude range chip. */
export function zoomFilters(filters: Filters, fields: { lat: string; lon: string }, cell: Extent): Filters {
  const lat: Chip = { kind: "range", field: fields.lat, from: cell.latMin, to: cell.latMax };
  const lon: Chip = { kind: "range", field: fields.lon, from: cell.lonMin, to: cell.lonMax };
  return withChip(withChip(filters, lat), lon);
}

/** "1°", "0.05°". */
export function formatSize(size: number): string {
  return `${size.toFixed(sizeDigits(size))}°`;
}
