"use client";
// The offline outlines under the points: land and country borders of the world, and US state
// borders for a map of the US (TopoJSON from /basemap/…, turned into GeoJSON once per session).
// Without them (loading, or failed) the map draws its points alone.
import { useQuery } from "@tanstack/react-query";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Feature, FeatureCollection, MultiLineString } from "geojson";

export type Basemap = {
  land: Feature | FeatureCollection;
  borders: MultiLineString;
  /** US state borders, when asked for. */
  states: MultiLineString | null;
};

async function topology(name: string, signal: AbortSignal): Promise<Topology> {
  const res = await fetch(`/basemap/${name}`, { signal });
  if (!res.ok) throw new Error(`basemap ${name}: ${res.status}`);
  return (await res.json()) as Topology;
}

const inner = (a: unknown, b: unknown) => a !== b;

function useOutlines(name: "world-110m" | "us-10m", enabled: boolean) {
  return useQuery({
    queryKey: ["basemap", name],
    queryFn: async ({ signal }) => {
      const t = await topology(name, signal);
      const objects = t.objects as Record<string, GeometryCollection>;
      return name === "world-110m"
        ? { land: feature(t, objects.land), borders: mesh(t, objects.countries, inner) }
        : { states: mesh(t, objects.states, inner) };
    },
    enabled,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 1,
  });
}

export function useBasemap(enabled: boolean, withStates: boolean): Basemap | null {
  const world = useOutlines("world-110m", enabled);
  const us = useOutlines("us-10m", enabled && withStates);
  const w = world.data as { land: Basemap["land"]; borders: MultiLineString } | undefined;
  if (!w) return null;
  const states = withStates ? ((us.data as { states: MultiLineString } | undefined)?.states ?? null) : null;
  return { land: w.land, borders: w.borders, states };
}
