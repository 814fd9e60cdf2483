// Uploads' imports in the `upload_imports` table: the engine's UploadImportStorage, so every app
// server on the database sees an import's progress and can cancel it. Each change is one
// statement; the rules (who may, what each state means) live in lib/upload/uploads.ts. Cancel and
// finish both update the row only while it is `importing`: finish runs in the import's own
// transaction, so a cancel arriving meanwhile waits on the row lock until that transaction ends,
// then finds the row imported (committed) or still importing (rolled back) and cancels it.
import type { UploadImport, UploadImportStorage } from "../engine";
import type { Queryable } from "./resource";

interface Row {
  upload_id: string;
  owner: string;
  claim: string;
  state: UploadImport["state"];
  progress: unknown;
  resource_id: string | null;
  age: number;
}

const COLUMNS = "upload_id, owner, claim, state, progress, resource_id, extract(epoch FROM now() - updated)::float8 AS age";

function toUpload(r: Row | undefined): UploadImport | undefined {
  return r && { uploadId: r.upload_id, owner: r.owner, claim: r.claim, state: r.state, progress: r.progress, resourceId: r.resource_id, age: Number(r.age) };
}

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

/** `db`: the primary, or the transaction's client (finish is only meaningful there); `guard`
 *  maps a failure to the datastore's words, as the engine's other calls do. */
export function pgUploadImports(db: Queryable, guard: Guard): UploadImportStorage {
  const s = statements(db);
  return {
    claim: (...a) => guard(() => s.claim(...a)),
    report: (...a) => guard(() => s.report(...a)),
    finish: (...a) => guard(() => s.finish(...a)),
    cancel: (...a) => guard(() => s.cancel(...a)),
    end: (...a) => guard(() => s.end(...a)),
    get: (...a) => guard(() => s.get(...a)),
    importing: (...a) => guard(() => s.importing(...a)),
    sweep: (...a) => guard(() => s.sweep(...a)),
  };
}

function statements(db: Queryable): UploadImportStorage {
  const get = async (id: string) => toUpload((await db.query<Row>(`SELECT ${COLUMNS} FROM upload_imports WHERE upload_id = $1`, [id])).rows[0]);
  return {
    async claim(id, owner, claim, staleSeconds) {
      // Two servers claiming at once: one inserts, the other waits on the key, then finds the
      // row held and not stale, and updates nothing.
      const { rows } = await db.query<Row>(
        `INSERT INTO upload_imports (upload_id, owner, claim, state) VALUES ($1, $2, $3, 'importing')
         ON CONFLICT (upload_id) DO UPDATE SET claim = excluded.claim, state = 'importing', progress = NULL, resource_id = NULL, updated = now()
           WHERE upload_imports.state = 'importing' AND upload_imports.updated < now() - make_interval(secs => $4)
         RETURNING ${COLUMNS}`,
        [id, owner, claim, staleSeconds],
      );
      return toUpload(rows[0]) ?? (await get(id))!;
    },
    async report(id, claim, progress) {
      const { rows } = await db.query<{ state: UploadImport["state"] }>(
        "UPDATE upload_imports SET progress = $3, updated = now() WHERE upload_id = $1 AND claim = $2 RETURNING state",
        [id, claim, progress === undefined ? null : JSON.stringify(progress)],
      );
      return rows[0]?.state;
    },
    async finish(id, claim, resourceId) {
      const { rowCount } = await db.query("UPDATE upload_imports SET state = 'imported', resource_id = $3, updated = now() WHERE upload_id = $1 AND claim = $2 AND state = 'importing'", [
        id,
        claim,
        resourceId,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async cancel(id, owner) {
      const { rows } = await db.query<Row>(`UPDATE upload_imports SET state = 'cancelled', updated = now() WHERE upload_id = $1 AND owner = $2 AND state = 'importing' RETURNING ${COLUMNS}`, [
        id,
        owner,
      ]);
      if (rows[0]) return { row: toUpload(rows[0]), cancelled: true };
      // A separate statement, so a fresh snapshot: an import that committed while the update
      // above waited is seen imported.
      return { row: await get(id), cancelled: false };
    },
    async end(id, claim) {
      const { rows } = await db.query<{ state: UploadImport["state"] }>("DELETE FROM upload_imports WHERE upload_id = $1 AND claim = $2 AND state <> 'imported' RETURNING state", [id, claim]);
      return rows[0]?.state;
    },
    get,
    async importing(staleSeconds) {
      const { rows } = await db.query<{ upload_id: string }>("SELECT upload_id FROM upload_imports WHERE state = 'importing' AND updated >= now() - make_interval(secs => $1)", [staleSeconds]);
      return rows.map((r) => r.upload_id);
    },
    async sweep(seconds) {
      await db.query("DELETE FROM upload_imports WHERE updated < now() - make_interval(secs => $1)", [seconds]);
    },
  };
}
