// Saved views in the `datastore_views` table: the engine's ViewStorage. The rules (who sees or
// changes a view, what it holds) live in lib/datastore/saved-views.ts.
import type { ViewStorage } from "../engine";
import { VIEW_COLUMNS, viewRecord, viewValues, type ViewRow } from "../view-row";
import type { Conn } from "./connection";

/** `write` runs a write under the engine's write lock, `read` a read of the writer connection. */
export function sqliteViews(c: Conn, write: <T>(fn: () => T) => Promise<T>, read: <T>(fn: () => T) => Promise<T>): ViewStorage {
  return {
    insert: (v) =>
      write(() => {
        c.db.prepare(`INSERT INTO datastore_views (${VIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...viewValues(v));
      }),
    get: (id) =>
      read(() => {
        const row = c.db.prepare("SELECT * FROM datastore_views WHERE id = ?").get(id) as ViewRow | undefined;
        return row && viewRecord(row);
      }),
    list: (resourceId) =>
      read(() => {
        const rows = (
          resourceId === undefined
            ? c.db.prepare("SELECT * FROM datastore_views ORDER BY created, id").all()
            : c.db.prepare("SELECT * FROM datastore_views WHERE resource_id = ? ORDER BY created, id").all(resourceId)
        ) as ViewRow[];
        return rows.map(viewRecord);
      }),
    update: (v) =>
      write(() => {
        c.db
          .prepare("UPDATE datastore_views SET name = ?, description = ?, state = ?, private = ?, modified = ? WHERE id = ?")
          .run(v.name, v.description, v.state, v.private ? 1 : 0, v.modified, v.id);
      }),
    remove: (id) => write(() => c.db.prepare("DELETE FROM datastore_views WHERE id = ?").run(id).changes > 0),
  };
}
