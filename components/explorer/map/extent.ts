// The area a map shows: the rows' coordinates without far-off stragglers (four airports on Guam
// would otherwise turn a map of the US into a map of the Pacific), padded a little, never
// empty, within what a Mercator map can show. Pure.

export type Extent = { latMin: number; latMax: number; lonMin: number; lonMax: number };

/** What a Mercator map can show (its y grows without bound towards the poles). */
export const MAX_LAT = 85;

/** Share of the rows at each end that may be left out of view, when far from the rest. */
export const TAIL = 0.01;

/** A gap wider than this share of the core's span separates stragglers from the rest. */
const GAP = 0.25;

const MIN_SPAN = 0.01; // degrees: about a kilometre
const PAD = 0.04;

export type Weighted = { value: number; weight: number };

/**
 * The range to show: the core (all but `tail` of the weight at each end), widened over the
 * values beyond it up to the first gap wider than a quarter of the core; null when empty.
 */
export function robustRange(values: Weighted[], tail = TAIL): [number, number] | null {
  const sorted = values.filter((v) => Number.isFinite(v.value) && v.weight > 0).sort((a, b) => a.value - b.value);
  if (!sorted.length) return null;
  const cut = tail * sorted.reduce((sum, v) => sum + v.weight, 0);
  let lo = 0;
  for (let below = sorted[0].weight; below <= cut && lo < sorted.length - 1; below += sorted[++lo].weight);
  let hi = sorted.length - 1;
  for (let above = sorted[hi].weight; above <= cut && hi > lo; above += sorted[--hi].weight);
  const gap = GAP * (sorted[hi].value - sorted[lo].value);
  while (lo > 0 && sorted[lo].value - sorted[lo - 1].value <= gap) lo--;
  while (hi < sorted.length - 1 && sorted[hi + 1].value - sorted[hi].value <= gap) hi++;
  return [sorted[lo].value, sorted[hi].value];
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

function padded([lo, hi]: [number, number], limit: number): [number, number] {
  const span = Math.max(hi - lo, MIN_SPAN);
  const mid = (lo + hi) / 2;
  const half = (span * (1 + 2 * PAD)) / 2;
  return [clamp(mid - half, -limit, limit - MIN_SPAN), clamp(mid + half, -limit + MIN_SPAN, limit)];
}

export type Located = { lat: number; lon: number; weight?: number };

/** The extent to fit for these places (a cell weighs its row count), or null for none; `tail`
 *  0 fits every one. */
export function fitExtent(places: Located[], tail = TAIL): Extent | null {
  const range = (axis: "lat" | "lon", among: Located[]) => robustRange(among.map((p) => ({ value: p[axis], weight: p.weight ?? 1 })), tail);
  const inside = ([lo, hi]: [number, number], axis: "lat" | "lon") => places.filter((p) => p[axis] >= lo && p[axis] <= hi);
  const lat0 = range("lat", places);
  const lon0 = range("lon", places);
  if (!lat0 || !lon0) return null;
  // each axis again over the places the other keeps: Guam's latitude is no reason to widen a
  // map that leaves out its longitude
  const lat = range("lat", inside(lon0, "lon")) ?? lat0;
  const lon = range("lon", inside(lat0, "lat")) ?? lon0;
  const [latMin, latMax] = padded(lat, MAX_LAT);
  const [lonMin, lonMax] = padded(lon, 180);
  return { latMin, latMax, lonMin, lonMax };
}

/** Whether the place is in the extent; an extent past ±180° holds the places beyond it too. */
export function contains(e: Extent, p: { lat: number; lon: number }): boolean {
  const inLon = (lon: number) => lon >= e.lonMin && lon <= e.lonMax;
  return p.lat >= e.latMin && p.lat <= e.latMax && (inLon(p.lon) || inLon(p.lon - 360) || inLon(p.lon + 360));
}

/** The United States with Alaska, Hawaii and Puerto Rico. */
const US: Extent = { latMin: 17, latMax: 72, lonMin: -180, lonMax: -64 };

/** A map of (part of) the US, not of the world: where the map adds state borders. */
export function showsUs(e: Extent): boolean {
  const overlaps = e.latMin < US.latMax && e.latMax > US.latMin && e.lonMin < US.lonMax && e.lonMax > US.lonMin;
  return overlaps && e.lonMax - e.lonMin <= 150;
}

export const validLatitude = (v: number) => Number.isFinite(v) && v >= -90 && v <= 90;
export const validLongitude = (v: number) => Number.isFinite(v) && v >= -180 && v <= 180;
