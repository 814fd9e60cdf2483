// The dump's GeoJSON: a FeatureCollection, one Feature a row, its geometry a Point from the
// latitude and longitude fields, or the row's own GeoJSON geometry; the other columns are its
// properties. Which fields: `lat` and `lon` when given (the Map tab's names for them), else the
// data dictionary's `info.geo` ("latitude", "longitude", "geometry"), else the usual names.
// A resource with none answers 409 saying so.
import type { Resource } from "./engine";
import { dumpConflict } from "./dump-conflict";
import { objectJson, type ColumnInfo } from "./formats";

const NUMERIC = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "int", "float"]);
const LAT_NAMES = new Set(["latitude", "lat"]);
const LON_NAMES = new Set(["longitude", "lon", "lng", "long"]);
const GEOMETRY_NAMES = new Set(["geometry", "geom", "the_geom", "geojson", "geo_shape", "shape"]);

export type GeoPlan = { lat: number; lon: number } | { geometry: number };

function geoInfo(r: Resource, id: string): string {
  const geo = r.fields.find((f) => f.id === id)?.info?.geo;
  return typeof geo === "string" ? geo.trim().toLowerCase() : "";
}

/** Where each row's geometry comes from, as column indexes; 409 when nothing says. */
export function geoPlan(r: Resource, cols: ColumnInfo[], asked: { lat?: unknown; lon?: unknown }): GeoPlan {
  const index = (id: string) => cols.findIndex((c) => c.id === id);
  if (typeof asked.lat === "string" || typeof asked.lon === "string") {
    const lat = typeof asked.lat === "string" ? index(asked.lat) : -1;
    const lon = typeof asked.lon === "string" ? index(asked.lon) : -1;
    if (lat < 0 || lon < 0 || !NUMERIC.has(cols[lat].type) || !NUMERIC.has(cols[lon].type)) {
      throw dumpConflict("format", "geojson: lat and lon must both name number fields among the fields dumped");
    }
    return { lat, lon };
  }
  const numeric = cols.map((c, i) => ({ c, i })).filter(({ c }) => NUMERIC.has(c.type) && c.id !== "_id");
  const pick = (names: Set<string>, geo: string) =>
    (numeric.find(({ c }) => geoInfo(r, c.id) === geo) ?? numeric.find(({ c }) => names.has(c.id.toLowerCase())))?.i ?? -1;
  const lat = pick(LAT_NAMES, "latitude");
  const lon = pick(LON_NAMES, "longitude");
  if (lat >= 0 && lon >= 0) return { lat, lon };
  const shapes = cols.map((c, i) => ({ c, i })).filter(({ c }) => c.type === "json" || c.type === "text");
  const geometry = (shapes.find(({ c }) => geoInfo(r, c.id) === "geometry") ?? shapes.find(({ c }) => GEOMETRY_NAMES.has(c.id.toLowerCase())))?.i;
  if (geometry !== undefined) return { geometry };
  throw dumpConflict(
    "format",
    "geojson needs a latitude and a longitude field (numbers, named latitude/lat and longitude/lon, or given as lat and lon), or a field of GeoJSON geometries (json, named geometry): this download has none",
  );
}

function asGeometry(value: unknown): unknown {
  let v = value;
  if (typeof v === "string" && v.trimStart().startsWith("{")) {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v !== null && typeof v === "object" && typeof (v as { type?: unknown }).type === "string" ? v : null;
}

/** A row as a Feature's JSON text; a row without coordinates gets a null geometry. */
export function featureJson(plan: GeoPlan, cols: ColumnInfo[]): (row: unknown[]) => string {
  const used = "geometry" in plan ? [plan.geometry] : [plan.lat, plan.lon];
  // A Point written as text (its numbers as JSON writes them) rather than built as objects for
  // JSON.stringify: fewer short-lived objects a row.
  const geometry =
    "geometry" in plan
      ? (row: unknown[]) => JSON.stringify(asGeometry(row[plan.geometry]))
      : (row: unknown[]) => {
          const [lat, lon] = [row[plan.lat], row[plan.lon]];
          if (lat === null || lon === null) return "null";
          const [y, x] = [Number(lat), Number(lon)];
          return Number.isFinite(y) && Number.isFinite(x) ? `{"type":"Point","coordinates":[${x},${y}]}` : "null";
        };
  const properties = objectJson(cols, used);
  return (row) => `{"type":"Feature","geometry":${geometry(row)},"properties":${properties(row)}}`;
}
