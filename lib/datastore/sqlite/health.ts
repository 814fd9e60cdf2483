// Start-up checks of the database, so a server that cannot serve says why once and stops
// instead of failing request after request: a file that is not SQLite or is corrupt, a
// read-only file or directory, a directory that cannot be created. The engine's check(), scan()
// and open run them; each problem becomes a DatastoreUnavailable that says what to do.
import { sourceWorker } from "../../source-worker";
import type { StartupCheck } from "../engine";
import { DatastoreUnavailable } from "../errors";
import type { DB } from "./connection";
import { codeOf } from "./errors";

/**
 * Checks an open database: page structure (checkPages) unless "off", then that it can take the
 * write lock and write (rolled back at once). Throws a DatastoreUnavailable with an explanation.
 */
export function checkDatabase(db: DB, file: string, level: StartupCheck = "quick"): void {
  if (level !== "off") checkPages(db, file, level);
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    if (codeOf(e) === "SQLITE_BUSY") return; // another process is writing: it is writable
    throw new DatastoreUnavailable(explainOpenError(e, file));
  }
  try {
    db.exec("CREATE TABLE datastore_write_probe (x)");
  } catch (e) {
    throw new DatastoreUnavailable(explainOpenError(e, file));
  } finally {
    db.exec("ROLLBACK");
  }
}

/** Page structure: `quick_check`, or the slower `integrity_check` with "full". Reads the whole
 *  file, so the engine runs it on a thread (scan-worker.ts). */
export function checkPages(db: DB, file: string, level: "quick" | "full"): void {
  const rows = db.pragma(`${level === "full" ? "integrity_check" : "quick_check"}(5)`, { simple: false }) as Record<string, string>[];
  const found = rows.map((r) => Object.values(r)[0]);
  if (found.length !== 1 || found[0] !== "ok") {
    throw new DatastoreUnavailable(
      `the database at ${file} is corrupt (${found.join("\n").replace(/\s*\n\s*/g, "; ").slice(0, 300)}). ` +
        "Restore it from a backup (npm run backup -- FILE makes one), or point DATASTORE_DB at another file.",
    );
  }
}

/** checkPages on a thread of its own (scan-worker.ts); throws as it does. */
export async function scanPages(file: string, level: "quick" | "full"): Promise<void> {
  const worker = sourceWorker("lib/datastore/sqlite/scan-worker.ts", { workerData: { file, level } });
  worker.unref(); // a server stopping does not wait for it
  const problem = await new Promise<string | undefined>((resolve, reject) => {
    worker.once("message", (m: { problem?: string }) => resolve(m.problem));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the page scan stopped (${code})`)));
  });
  if (problem) throw new DatastoreUnavailable(problem);
}

/** A sentence for an error opening or first using the database, with what to do about it. */
export function explainOpenError(e: unknown, file: string): string {
  if (e instanceof DatastoreUnavailable) return e.message;
  const code = codeOf(e);
  const detail = (e as Error)?.message ?? String(e);
  if (code === "SQLITE_NOTADB") {
    return `${file} is not a SQLite database (or it is damaged or encrypted): ${detail}. Restore it from a backup, or point DATASTORE_DB at another file.`;
  }
  if (code.startsWith("SQLITE_CORRUPT")) {
    return `the database at ${file} is corrupt: ${detail}. Restore it from a backup, or point DATASTORE_DB at another file.`;
  }
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS") {
    return `the database at ${file} is read-only (${detail}): the server must be able to write the file and create ${file}-wal and ${file}-shm beside it.`;
  }
  if (code === "SQLITE_FULL" || code === "ENOSPC") return `the disk holding ${file} is full (${detail}).`;
  if (code.startsWith("SQLITE_CANTOPEN") || ["EACCES", "EPERM", "ENOTDIR", "EEXIST", "ENOENT", "EISDIR"].includes(code)) {
    return (
      `cannot create or open the database at ${file} (${detail}): check that its directory exists or can be created, ` +
      "and that this user may write there (set DATASTORE_DB to choose another place)."
    );
  }
  return `cannot open the database at ${file}: ${detail}`;
}
