// A saved view as the `datastore_views` table holds it, on every engine: the table (part of each
// engine's migrations), the columns an insert names with the values in their order, and a row
// read back as the ViewRecord the view rules (saved-views.ts) work with. Shipped: never edit the
// table; a change is a new migration in each engine.
import type { ViewRecord } from "./engine";

/** A view goes with its resource (ON DELETE CASCADE): resource_delete leaves no view behind. */
export const VIEWS_TABLE = `
  CREATE TABLE datastore_views (
    id TEXT PRIMARY KEY,
    resource_id TEXT NOT NULL REFERENCES datastore_resources(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    private INTEGER NOT NULL DEFAULT 0,
    owner TEXT,
    owner_name TEXT,
    created TEXT NOT NULL,
    modified TEXT NOT NULL
  );
  CREATE INDEX datastore_views_resource ON datastore_views(resource_id);
  `;

export interface ViewRow {
  id: string;
  resource_id: string;
  name: string;
  description: string;
  state: string;
  private: number;
  owner: string | null;
  owner_name: string | null;
  created: string;
  modified: string;
}

/** The columns of an insert, in the order of viewValues. */
export const VIEW_COLUMNS = "id, resource_id, name, description, state, private, owner, owner_name, created, modified";

export function viewValues(v: ViewRecord): unknown[] {
  return [v.id, v.resourceId, v.name, v.description, v.state, v.private ? 1 : 0, v.owner, v.ownerName, v.created, v.modified];
}

export function viewRecord(r: ViewRow): ViewRecord {
  return {
    id: r.id,
    resourceId: r.resource_id,
    name: r.name,
    description: r.description,
    state: r.state,
    private: Number(r.private) !== 0,
    owner: r.owner,
    ownerName: r.owner_name,
    created: r.created,
    modified: r.modified,
  };
}
