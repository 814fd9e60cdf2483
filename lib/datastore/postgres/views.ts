// Saved views in the `datastore_views` table: the engine's ViewStorage. The rules (who sees or
// changes a view, what it holds) live in lib/datastore/saved-views.ts.
import type { ViewStorage } from "../engine";
import { VIEW_COLUMNS, viewRecord, viewValues, type ViewRow } from "../view-row";
import type { Queryable } from "./resource";

/** `db`: the primary, or a transaction's client; `guard` maps the driver's failures. */
export function pgViews(db: Queryable, guard: <T>(fn: () => Promise<T>) => Promise<T>): ViewStorage {
  const rows = async (sql: string, values: unknown[]) => (await db.query<ViewRow>(sql, values)).rows.map(viewRecord);
  return {
    insert: (v) =>
      guard(async () => {
        await db.query(`INSERT INTO datastore_views (${VIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, viewValues(v));
      }),
    // text cannot hold NUL: no stored id does
    get: (id) => guard(async () => (id.includes("\u0000") ? undefined : (await rows("SELECT * FROM datastore_views WHERE id = $1", [id]))[0])),
    list: (resourceId) =>
      guard(() =>
        resourceId === undefined
          ? rows(`SELECT * FROM datastore_views ORDER BY created COLLATE "C", id COLLATE "C"`, [])
          : rows(`SELECT * FROM datastore_views WHERE resource_id = $1 ORDER BY created COLLATE "C", id COLLATE "C"`, [resourceId]),
      ),
    update: (v) =>
      guard(async () => {
        await db.query("UPDATE datastore_views SET name = $2, description = $3, state = $4, private = $5, modified = $6 WHERE id = $1", [
          v.id,
          v.name,
          v.description,
          v.state,
          v.private ? 1 : 0,
          v.modified,
        ]);
      }),
    remove: (id) => guard(async () => !id.includes("\u0000") && ((await db.query("DELETE FROM datastore_views WHERE id = $1", [id])).rowCount ?? 0) > 0),
  };
}
