"use client";
// The deployment's settings for the explorer, read at run time from /api/explorer-config (the
// pages are built before the deployment's environment is known).
import { useQuery } from "@tanstack/react-query";

export type ExplorerConfig = {
  /** A tile URL template with {z}, {x}, {y} (DATASTORE_MAP_TILES), or null: offline outlines. */
  map_tiles: string | null;
  map_attribution: string | null;
};

const NONE: ExplorerConfig = { map_tiles: null, map_attribution: null };

async function readConfig(signal: AbortSignal): Promise<ExplorerConfig> {
  const res = await fetch("/api/explorer-config", { signal });
  if (!res.ok) return NONE;
  return { ...NONE, ...((await res.json()) as Partial<ExplorerConfig>) };
}

/** undefined while loading; on any failure, no tiles. */
export function useExplorerConfig(): ExplorerConfig | undefined {
  return useQuery({ queryKey: ["explorer-config"], queryFn: ({ signal }) => readConfig(signal).catch(() => NONE), staleTime: Infinity, gcTime: Infinity }).data;
}
