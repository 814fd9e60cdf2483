// Which fields the Map tab reads as coordinates. The data dictionary decides first: a field whose
// `info.geo` is "latitude" or "longitude"; then its label or name: latitude/lat and
// longitude/lon/lng/long, alone or as one word of a longer name (origin_latitude, startLat),
// paired by the rest of the name. Only number fields qualify. Pure.
import type { DatastoreField } from "@/lib/api-client";
import type { MapSettings } from "@/lib/view-state";
import { isNumericType } from "../format";

export type GeoRole = "latitude" | "longitude";

const ROLE_WORDS: Record<GeoRole, readonly string[]> = {
  latitude: ["latitude", "lat"],
  longitude: ["longitude", "lon", "lng", "long"],
};

export type Coordinates = { lat: string | null; lon: string | null };

/** Words of a name or label: "origin_latitude" → origin, latitude; "startLat" → start, lat. */
export function nameWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

type Candidate = { field: string; role: GeoRole; rest: string; exact: boolean; order: number };

/** The role a name says, and the rest of it (the pairing key), or null when it says none or both. */
function roleOf(text: string): { role: GeoRole; rest: string } | null {
  const words = nameWords(text);
  const found = (Object.keys(ROLE_WORDS) as GeoRole[]).filter((role) => words.some((w) => ROLE_WORDS[role].includes(w)));
  if (found.length !== 1) return null;
  const role = found[0];
  return { role, rest: words.map((w) => (ROLE_WORDS[role].includes(w) ? "*" : w)).join(" ") };
}

function declaredRole(field: DatastoreField): GeoRole | null {
  const geo = field.info?.geo;
  if (typeof geo !== "string") return null;
  const g = geo.trim().toLowerCase();
  return g === "latitude" || g === "longitude" ? g : null;
}

export function numericFields(fields: DatastoreField[]): DatastoreField[] {
  return fields.filter((f) => f.id !== "_id" && isNumericType(f.type));
}

function candidates(fields: DatastoreField[]): Candidate[] {
  const out: Candidate[] = [];
  numericFields(fields).forEach((f, order) => {
    const label = typeof f.info?.label === "string" ? f.info.label : "";
    // the label speaks for the field when it names a role; the id otherwise
    const named = (label && roleOf(label)) || roleOf(f.id);
    if (named) out.push({ field: f.id, ...named, exact: named.rest === "*", order });
  });
  return out;
}

const better = (a: Candidate, b: Candidate) => (a.exact !== b.exact ? (a.exact ? -1 : 1) : a.order - b.order);

/** The coordinate fields the resource's dictionary or names point to (either may be null). */
export function detectCoordinates(fields: DatastoreField[]): Coordinates {
  const numeric = numericFields(fields);
  const declared = (role: GeoRole) => numeric.find((f) => declaredRole(f) === role)?.id ?? null;
  let lat = declared("latitude");
  let lon = declared("longitude");
  if (lat && lon) return { lat, lon };

  const all = candidates(fields).filter((c) => c.field !== lat && c.field !== lon);
  const lats = all.filter((c) => c.role === "latitude").sort(better);
  const lons = all.filter((c) => c.role === "longitude").sort(better);
  if (!lat && !lon) {
    // a pair named alike (latitude + longitude, origin_lat + origin_lon) before any mix
    for (const a of lats) {
      const b = lons.find((c) => c.rest === a.rest);
      if (b) return { lat: a.field, lon: b.field };
    }
  }
  lat ??= lats[0]?.field ?? null;
  lon ??= lons[0]?.field ?? null;
  return { lat, lon };
}

/** The fields to map: the URL's choice when it names a number field, else the detected one. */
export function resolveCoordinates(fields: DatastoreField[], settings: MapSettings): Coordinates & { detected: Coordinates } {
  const detected = detectCoordinates(fields);
  const usable = new Set(numericFields(fields).map((f) => f.id));
  const pick = (chosen: string | null, fallback: string | null) => (chosen && usable.has(chosen) ? chosen : fallback);
  return { lat: pick(settings.lat, detected.lat), lon: pick(settings.lon, detected.lon), detected };
}

const NAME_WORDS = ["name", "title", "label"];

/** A text field to name a point by (a name, title or label; else the first text field), or null. */
export function labelField(fields: DatastoreField[]): string | null {
  const text = fields.filter((f) => f.id !== "_id" && (f.type === "text" || f.type === "citext"));
  const score = (f: DatastoreField) => {
    const words = nameWords(f.id);
    if (words.length === 1 && NAME_WORDS.includes(words[0])) return 0;
    return words.some((w) => NAME_WORDS.includes(w)) ? 1 : 2;
  };
  return [...text].sort((a, b) => score(a) - score(b))[0]?.id ?? null;
}
