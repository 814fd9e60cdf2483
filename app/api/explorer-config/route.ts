// GET /api/explorer-config: the settings the explorer's pages read at run time (they are
// prerendered at build time, before the deployment's environment is known): the Map tab's tile
// server and its attribution, or nulls for the offline outlines.
import { config } from "@/lib/config";
import { json } from "@/lib/http/envelope";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return json({ map_tiles: config.mapTiles ?? null, map_attribution: config.mapAttribution ?? null }, 200, { "cache-control": "no-cache" });
}
