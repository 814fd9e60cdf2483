// The full-text thread of a bulk load (fts-build.ts): indexes each part the load takes, into an
// index of the resource's own name and definition in a scratch file, in one transaction with
// the settings the main thread would use, so the main thread only copies the rows meanwhile and
// adopts the finished index at the end (fts-index.ts adoptFts). Failures go back as messages.
import Database from "better-sqlite3";
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { StoredField } from "./catalog";
import type { FtsBuildSpec, FromFtsWorker, ToFtsWorker } from "./fts-build";
import { LOAD_FTS, indexRowsOf, setFtsSettings } from "./fts-index";
import { registerFtsFunctions } from "./fts-text";
import { quoteIdent as q } from "./sql";

/** The page cache of the writer (connection.ts): the index is built as it would be there. */
const CACHE_KIB = 32 * 1024;
/** The scratch file's pages: FTS5 writes and merges its own pages as rows there, fewer
 *  SQLite pages to fill and link at the largest size (docs/performance.md "Import"); the
 *  rows themselves copy to the resource file's pages unchanged. */
const PAGE_BYTES = 65536;

const job = workerData as FtsBuildSpec;
const post = (m: FromFtsWorker) => parentPort!.postMessage(m);

let db: Database.Database | null = null;
let parts = 0;
let rows = 0;

function start(): Database.Database {
  fs.rmSync(job.file, { force: true });
  const d = new Database(job.file);
  try {
    // Scratch until adopted: no journal, no sync, no one else to share it with.
    d.pragma(`page_size = ${PAGE_BYTES}`); // before anything is written
    d.pragma("journal_mode = OFF");
    d.pragma("synchronous = OFF");
    d.pragma("main.locking_mode = EXCLUSIVE");
    d.pragma(`cache_size = -${CACHE_KIB}`);
    registerFtsFunctions(d);
    d.exec(job.ftsSql);
    setFtsSettings(d, job.table, job.options);
    setFtsSettings(d, job.table, { ...LOAD_FTS });
    d.exec("BEGIN");
    return d;
  } catch (e) {
    d.close();
    throw e;
  }
}

function run(m: ToFtsWorker): void {
  db ??= start();
  if (m.op === "part") {
    // Attached for good (nothing detaches inside a transaction); once open, the file can go.
    const alias = `part${++parts}`;
    db.prepare(`ATTACH ? AS ${alias}`).run(m.file);
    fs.rmSync(m.file, { force: true });
    rows += indexRowsOf(db, job.table, job.fields as StoredField[], `${alias}.${q(job.partTable)}`, job.language);
    return;
  }
  setFtsSettings(db, job.table, { ...job.settings });
  db.exec("COMMIT");
  db.close();
  db = null;
  post({ kind: "done", rows });
}

parentPort!.on("message", (m: ToFtsWorker) => {
  try {
    run(m);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    post({ kind: "failed", error: { message: err.message, code: err.code } });
  }
});
