// The catalog made whole again after a writer died between the commits of `main` and a group
// (groups.ts: `main` commits first, so it may hold a state the group's rows never reached).
// Each group's copy of its resources' catalog rows committed with the rows: where `main`
// disagrees, the copy wins, and what `main` alone kept of the lost state goes (the version log's
// later versions; a resource whose create never reached its group). A clean close, or the
// process's exit (a COMMIT runs whole within one synchronous call, so no exit handler runs
// between a commit's files), removes the marker that makes the next open do this; a kill or a
// crash leaves it; a backup leaves one in its copy (engine.ts backup).
import fs from "node:fs";
import * as catalogSearch from "./catalog-search";
import type { Conn } from "./connection";
import { dropFts } from "./fts-index";
import * as groups from "./groups";
import { dropHistory } from "./history";
import { quoteIdent as q } from "./sql";

type Row = Record<string, unknown> & { id: string; version: number; table_name: string };

/** Stores this process has open, whose markers its exit removes. */
const opened = new Set<string>();
let hooked = false;

/** At open, on the writer: repairs if the last writer did not close cleanly, then marks the
 *  store open. */
export function repairAfterCrash(c: Conn): void {
  if (!groups.grouped(c)) return;
  const marker = groups.openMarker(c.db.name);
  if (fs.existsSync(marker)) repair(c);
  try {
    fs.mkdirSync(groups.groupsDir(c.db.name), { recursive: true });
    fs.writeFileSync(marker, `${process.pid}\n`);
  } catch (e) {
    // A store this process may not write: the start-up check says so, in the store's words.
    if (!["EACCES", "EPERM", "EROFS"].includes((e as NodeJS.ErrnoException).code ?? "")) throw e;
    return;
  }
  if (!hooked) process.once("exit", () => [...opened].forEach(closedCleanly));
  hooked = true;
  opened.add(c.db.name);
}

/** After the writer closed, or the process exits: the next open needs no repair. */
export function closedCleanly(file: string): void {
  opened.delete(file);
  fs.rmSync(groups.openMarker(file), { force: true });
}

export function repair(c: Conn): void {
  const columns = new Set(c.db.prepare("SELECT name FROM pragma_table_info('datastore_resources')").pluck().all() as string[]);
  const inCatalog = c.db.prepare("SELECT DISTINCT grp FROM datastore_resources WHERE grp IS NOT NULL").pluck().all() as number[];
  const all = new Set([...inCatalog, ...groups.groupFiles(c.db.name).map((g) => g.group)]);
  const repaired: string[] = [];
  for (const group of [...all].sort((a, b) => a - b)) {
    groups.use(c, group);
    c.db.transaction(() => {
      const copies = new Map(
        groups.hasStates(c, group) ? (c.db.prepare(`SELECT id, row FROM g${group}.datastore_state`).raw(true).all() as [string, string][]) : [],
      );
      const mains = c.db.prepare("SELECT * FROM main.datastore_resources WHERE grp = ?").all(group) as Row[];
      for (const main of mains) {
        const copy = copies.get(main.id);
        copies.delete(main.id);
        if (copy === JSON.stringify(main)) continue;
        repaired.push(main.id);
        if (copy === undefined) {
          // Created in `main` only: its table, if any, is in no committed state of the group.
          c.db.prepare("DELETE FROM datastore_aliases WHERE resource_id = ?").run(main.id);
          c.db.prepare("DELETE FROM datastore_versions WHERE resource_id = ?").run(main.id);
          c.db.prepare("DELETE FROM datastore_resources WHERE id = ?").run(main.id);
          continue;
        }
        const row = JSON.parse(copy) as Row;
        const set = Object.keys(row).filter((k) => k !== "id" && k !== "grp" && columns.has(k));
        c.db.prepare(`UPDATE datastore_resources SET ${set.map((k) => `${q(k)} = @${k}`).join(", ")} WHERE id = @id`).run(row);
        c.db.prepare("DELETE FROM datastore_versions WHERE resource_id = ? AND version > ?").run(row.id, row.version);
      }
      // Deleted from `main` only: its objects in the group go too.
      for (const [id, copy] of copies) {
        const { table_name: table } = JSON.parse(copy) as Row;
        dropFts(c, table);
        dropHistory(c, table);
        c.db.exec(`DROP TABLE IF EXISTS g${group}.${q(table)}`);
        c.db.prepare(`DELETE FROM g${group}.datastore_state WHERE id = ?`).run(id);
      }
      groups.syncStates(c); // the rows repaired are the copies again, and nothing stays noted
    })();
  }
  for (const id of repaired) catalogSearch.syncWords(c, id);
}
