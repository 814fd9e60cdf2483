// The catalog made whole again after a writer died between the commits of `main` and a group
// (groups.ts: `main` commits first, so it may hold a state the group's rows never reached).
// Each group's copy of its resources' catalog rows committed with the rows: where `main`
// disagrees, the copy wins, and what `main` alone kept of the lost state goes (the version log's
// later versions; a resource whose create never reached its group). Every writer that opens the
// store (the server, an upload's import thread, `npm run import`, `backup`, `token`) leaves a
// marker of its own, `open-<pid>-<thread>-<n>`, which its clean close or its thread's exit
// removes (a COMMIT runs whole within one synchronous call, so no exit handler runs between a
// commit's files); a kill or a crash leaves it. An opener repairs when it finds a marker of a
// process no longer alive (or the marker without a pid a backup leaves in its copy, engine.ts
// backup), never for another live opener's.
import fs from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";
import * as catalogSearch from "./catalog-search";
import type { Conn } from "./connection";
import { dropFts } from "./fts-index";
import * as groups from "./groups";
import { dropHistory } from "./history";
import { quoteIdent as q } from "./sql";

type Row = Record<string, unknown> & { id: string; version: number; table_name: string };

/** This thread's markers, by store: one per open, removed by its close or the thread's exit. */
const opened = new Map<string, string[]>();
let made = 0;
let hooked = false;

/** Whether the opener that wrote marker `name` may still be at work: a marker without a pid (a
 *  backup's) is not; this process's are (another thread's store may be open). */
function alive(name: string): boolean {
  const pid = Number(/^open-(\d+)-/.exec(name)?.[1] ?? NaN);
  if (!Number.isInteger(pid)) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** At open, on a writer: repairs if an opener died without closing, then marks the store open. */
export function repairAfterCrash(c: Conn): void {
  if (!groups.grouped(c)) return;
  const dir = groups.groupsDir(c.db.name);
  const markers = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n === path.basename(groups.openMarker(c.db.name)) || n.startsWith("open-")) : [];
  const dead = markers.filter((n) => !alive(n));
  if (dead.length > 0) {
    repair(c);
    for (const n of dead) fs.rmSync(path.join(dir, n), { force: true });
  }
  const marker = path.join(dir, `open-${process.pid}-${threadId}-${++made}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(marker, "");
  } catch (e) {
    // A store this process may not write: the start-up check says so, in the store's words.
    if (!["EACCES", "EPERM", "EROFS"].includes((e as NodeJS.ErrnoException).code ?? "")) throw e;
    return;
  }
  if (!hooked) process.once("exit", () => [...opened.values()].flat().forEach((m) => fs.rmSync(m, { force: true })));
  hooked = true;
  opened.set(c.db.name, [...(opened.get(c.db.name) ?? []), marker]);
}

/** After a writer closed: its marker goes (the store's other openers keep theirs). */
export function closedCleanly(file: string): void {
  const mine = opened.get(file);
  const marker = mine?.pop();
  if (marker) fs.rmSync(marker, { force: true });
  if (mine?.length === 0) opened.delete(file);
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
