// The SQLite BulkSink, on a worker thread: rows are cast and inserted as BulkLoader.append would
// (RowInserter), into part files of their own that the main thread then copies in whole
// (BulkLoader.take). A part is scratch until taken: no journal, no sync, no locks to share.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import type { BulkSink, BulkSinkSpec } from "../engine";
import { PART_TABLE, RowInserter, type SqlitePart, type SqliteSinkSpec } from "./bulk-load";
import { toDatastoreError } from "./errors";
import { quoteIdent as q } from "./sql";

/** Page cache per part: larger ones measured no faster. */
const PART_CACHE_KIB = 32 * 1024;
/** A part's pages: the largest SQLite has, fewer to fill and link than the resource file's
 *  (its rows copy cell by cell, whatever the page size; docs/performance.md "Import"). */
const PART_PAGE_BYTES = 65536;

interface Open {
  db: Database.Database;
  rows: RowInserter;
  file: string;
  firstId: number;
  count: number;
}

export function openSqliteSink(given: BulkSinkSpec): BulkSink {
  const spec = given as SqliteSinkSpec;
  // The part's table is the resource's, renamed: same columns, types and key, so SQLite's
  // transfer copies its rows as they are.
  const tableSql = spec.tableSql.replace(/^CREATE TABLE\s+("(?:[^"]|"")*"|\S+)/i, `CREATE TABLE ${q(PART_TABLE)}`);
  let nextId = spec.firstId;
  let parts = 0;
  let part: Open | null = null;

  const open = (): Open => {
    const file = path.join(spec.dir, `part-${++parts}.db`);
    fs.rmSync(file, { force: true }); // a part another sink dropped: never a table of two loads
    const db = new Database(file);
    try {
      db.pragma(`page_size = ${PART_PAGE_BYTES}`); // before anything is written
      db.pragma("journal_mode = OFF");
      db.pragma("synchronous = OFF");
      db.pragma("locking_mode = EXCLUSIVE");
      db.pragma(`cache_size = -${PART_CACHE_KIB}`);
      db.exec(tableSql);
      // Ids continue the resource's: the table's AUTOINCREMENT numbers from here.
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(PART_TABLE, nextId);
      db.exec("BEGIN");
      return { db, rows: new RowInserter(db, PART_TABLE, spec.table, spec.targets), file, firstId: nextId, count: 0 };
    } catch (e) {
      db.close();
      throw e;
    }
  };

  return {
    append(rows) {
      try {
        part ??= open();
        part.rows.append(rows);
        part.count += rows.length;
      } catch (e) {
        throw toDatastoreError(e); // a full disk, say, in the datastore's words
      }
    },
    seal(): SqlitePart | null {
      if (!part || part.count === 0) return null;
      const { db, file, firstId, count } = part;
      part = null;
      try {
        db.exec("COMMIT");
      } catch (e) {
        throw toDatastoreError(e);
      } finally {
        db.close();
      }
      nextId += count;
      return { rows: count, file, firstId };
    },
    close() {
      if (!part) return;
      part.db.close();
      fs.rmSync(part.file, { force: true });
      part = null;
    },
  };
}
