// The Map tab's request for the API panel, apart from the map itself (which loads with Plot
// only when the tab opens).
import type { DatastoreField } from "@/lib/api-client";
import { toMatchRequest, type ViewState } from "@/lib/view-state";
import type { ApiView } from "../api-panel";
import { resolveCoordinates } from "./detect";
import { gridRequest } from "./use-map-data";

/** The Map tab's first request, for the API panel (null: no coordinates to map). */
export function mapApi(view: ViewState, fields: DatastoreField[]): ApiView | null {
  const { lat, lon } = resolveCoordinates(fields, view.map);
  if (!lat || !lon || lat === lon) return null;
  return { call: { action: "datastore_aggregate", body: gridRequest(toMatchRequest(view), { lat, lon }) }, returns: "api.returns.map" };
}
