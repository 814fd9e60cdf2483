// The Mercator arithmetic the Map tab needs beside Observable Plot's own projection: the scale
// Plot fits to an extent (its "mercator" projection with a `domain`, margins and insets 0), the
// area the frame then shows, and the web map tiles (slippy-map z/x/y) that cover it. Pure.
import type { Extent } from "./extent";

const RAD = Math.PI / 180;

/** Mercator y of a latitude, in radians of longitude. */
export function mercatorY(lat: number): number {
  return Math.log(Math.tan(Math.PI / 4 + (lat * RAD) / 2));
}

export function latitudeOf(y: number): number {
  return (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / RAD;
}

export type Frame = { width: number; height: number };

/** Pixels per radian once Plot fits the extent into the frame: the tighter of the two sides. */
export function fitScale(e: Extent, frame: Frame): number {
  return Math.min(frame.width / ((e.lonMax - e.lonMin) * RAD), frame.height / (mercatorY(e.latMax) - mercatorY(e.latMin)));
}

/** The frame's height for a width: the extent's own shape, within sensible bounds. */
export function frameHeight(e: Extent, width: number, min = 260, max = 520): number {
  const aspect = (mercatorY(e.latMax) - mercatorY(e.latMin)) / ((e.lonMax - e.lonMin) * RAD);
  return Math.round(Math.min(max, Math.max(min, width * aspect)));
}

/** The area the frame shows: the fitted extent, widened on its looser side (same centre). */
export function frameExtent(e: Extent, frame: Frame): Extent {
  const k = fitScale(e, frame);
  const cx = ((e.lonMin + e.lonMax) / 2) * RAD;
  const cy = (mercatorY(e.latMin) + mercatorY(e.latMax)) / 2;
  const hx = frame.width / 2 / k;
  const hy = frame.height / 2 / k;
  return { lonMin: (cx - hx) / RAD, lonMax: (cx + hx) / RAD, latMin: latitudeOf(cy - hy), latMax: latitudeOf(cy + hy) };
}

export type Tile = { z: number; x: number; y: number; url: string; lat: number; lon: number };

export const TILE_SIZE = 256;
export const MAX_ZOOM = 19;

/** The zoom whose tiles show closest to their own size at this scale. */
export function tileZoom(scale: number, tileSize = TILE_SIZE, maxZoom = MAX_ZOOM): number {
  const z = Math.round(Math.log2((2 * Math.PI * scale) / tileSize));
  return Math.min(maxZoom, Math.max(0, z));
}

/** A tile URL from a template with {z}, {x} and {y}. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template.replaceAll("{z}", String(z)).replaceAll("{x}", String(x)).replaceAll("{y}", String(y));
}

const tileX = (lon: number, n: number) => Math.floor(((lon + 180) / 360) * n);
const tileY = (lat: number, n: number) => Math.floor(((1 - mercatorY(lat) / Math.PI) / 2) * n);

/**
 * The tiles covering the frame, each with its centre (to place it) and the side every tile
 * shows at (pixels): in Mercator a tile of one zoom has one size wherever it is. A frame past
 * ±180° (the map is centred on its data) takes the tiles from the world's other side.
 */
export function tilesFor(e: Extent, frame: Frame, template: string, tileSize = TILE_SIZE): { z: number; size: number; tiles: Tile[] } {
  const scale = fitScale(e, frame);
  const z = tileZoom(scale, tileSize);
  const n = 2 ** z;
  const shown = frameExtent(e, frame);
  // the projection shows one world, centred on the data's centre
  const centre = (e.lonMin + e.lonMax) / 2;
  const x0 = tileX(Math.max(shown.lonMin, centre - 180), n);
  const x1 = Math.min(tileX(Math.min(shown.lonMax, centre + 180), n), x0 + n - 1);
  const clampY = (i: number) => Math.min(n - 1, Math.max(0, i));
  const y0 = clampY(tileY(Math.min(shown.latMax, 85.0511), n));
  const y1 = clampY(tileY(Math.max(shown.latMin, -85.0511), n));
  const tiles: Tile[] = [];
  for (let x = x0; x <= x1; x++) {
    const wrapped = ((x % n) + n) % n;
    for (let y = y0; y <= y1; y++) {
      const lon = ((x + 0.5) / n) * 360 - 180;
      const lat = latitudeOf(Math.PI * (1 - (2 * (y + 0.5)) / n));
      tiles.push({ z, x: wrapped, y, url: tileUrl(template, z, wrapped, y), lat, lon });
    }
  }
  return { z, size: (2 * Math.PI * scale) / n, tiles };
}
