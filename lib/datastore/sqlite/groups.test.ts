// Resources in group files (groups.ts): attached on demand, least recently used out, never
// inside a transaction; a group filling and the next starting; a reader's schema bounded by its
// groups, not by every resource; resources of the old layout (in `main`) read and written as
// before; the catalog repaired from the groups after a writer died between their commits; a
// backup that opens with its groups.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatastoreEngine, Resource, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { mustGetForRead } from "./catalog";
import { openReader, openWriter, type Conn } from "./connection";
import * as groups from "./groups";
import { withRawDb } from "./test-support";

const limits = { queryTimeoutMs: 10_000, countBudgetMs: 1000 };
const ALL: SearchQuery = { filters: [], fts: [], columns: ["a"], sort: [], distinct: false, limit: 100, offset: 0, includeTotal: true };

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "groups-")), "s.db");
}

/**
 * Moves resource `id`'s objects from its group to `main`, rows and full-text index as they are:
 * the store as the layout before groups made it (the engine closed meanwhile).
 */
function moveToMain(file: string, id: string): void {
  withRawDb(
    file,
    (db) => {
      const { table_name: table, grp } = db.prepare("SELECT table_name, grp FROM datastore_resources WHERE id = ?").get(id) as { table_name: string; grp: number };
      const g = `g${grp}`;
      const objects = db.prepare(`SELECT type, name, sql FROM ${g}.sqlite_schema WHERE tbl_name = ? OR tbl_name LIKE ? ORDER BY rowid`).all(table, `${table}_%`) as {
        type: string;
        name: string;
        sql: string | null;
      }[];
      const fts = `${table}_fts`;
      const shadows = objects.filter((o) => o.name.startsWith(`${fts}_`)).map((o) => `"${o.name}"`);
      for (const o of objects) if (o.sql && !o.name.startsWith(`${fts}_`)) db.exec(o.sql); // unqualified: made in main
      db.exec(`INSERT INTO main."${table}" SELECT * FROM ${g}."${table}"`);
      db.unsafeMode(true); // FTS5's own tables, copied as fts-index.ts adoptFts does
      for (const name of shadows) db.exec(`DELETE FROM main.${name}; INSERT INTO main.${name} SELECT * FROM ${g}.${name}`);
      db.unsafeMode(false);
      db.exec(`DROP TABLE ${g}."${fts}"; DROP VIEW ${g}."${table}_text"; DROP TABLE ${g}."${table}"`);
      db.prepare(`DELETE FROM ${g}.datastore_state WHERE id = ?`).run(id);
      db.prepare("UPDATE datastore_resources SET grp = NULL WHERE id = ?").run(id);
      db.exec("DELETE FROM datastore_group_dirty");
    },
    true,
  );
}

function meta(id: string) {
  return { id, name: id, description: "", private: false };
}

async function values(engine: DatastoreEngine, id: string, q: Partial<SearchQuery> = {}): Promise<unknown[]> {
  const r = (await engine.getResource(id)) as Resource;
  return (await engine.search(r, { ...ALL, ...q })).rows.map((row) => row[0]);
}

describe("attaching groups", () => {
  let c: Conn;
  beforeAll(() => {
    c = openWriter(tempFile(), limits);
  });
  afterAll(() => c.db.close());

  it("attaches on demand, keeps the most recently used, and detaches the least recently used at the limit", () => {
    for (let g = 1; g <= groups.ATTACHED_GROUPS; g++) groups.use(c, g);
    groups.use(c, 1); // used again: now the most recent
    groups.use(c, groups.ATTACHED_GROUPS + 1);
    const attached = c.db.prepare("SELECT name FROM pragma_database_list WHERE name LIKE 'g%' ORDER BY name").pluck().all();
    expect(attached).toHaveLength(groups.ATTACHED_GROUPS);
    expect(attached).not.toContain("g2");
    expect(groups.attachedGroups(c)).toEqual([3, 4, 1, groups.ATTACHED_GROUPS + 1]);
    expect(fs.existsSync(groups.groupFile(c.db.name, groups.ATTACHED_GROUPS + 1))).toBe(true);
  });

  it("never attaches inside a transaction: a group not attached there is an error, and nothing changes", () => {
    const before = [...groups.attachedGroups(c)];
    c.db.exec("BEGIN");
    try {
      expect(() => groups.use(c, 2)).toThrow(groups.GroupNotAttached);
      groups.use(c, before[0]); // one attached already is fine
    } finally {
      c.db.exec("ROLLBACK");
    }
    expect(new Set(groups.attachedGroups(c))).toEqual(new Set(before));
  });
});

describe("a store in groups", () => {
  let file: string;
  let engine: DatastoreEngine;

  beforeAll(async () => {
    file = tempFile();
    engine = await openEngine({ file, readWorkers: 2 });
    for (let i = 0; i <= groups.GROUP_SIZE; i++) await engine.createResource(meta(`r${i}`), [{ id: "a", type: "text" }]);
  }, 120_000);
  afterAll(() => engine?.close());

  it("fills a group, then starts the next; each resource's objects are in its group's file", () => {
    const byGroup = withRawDb(file, (db) => db.prepare("SELECT grp, count(*) AS n FROM datastore_resources GROUP BY grp ORDER BY grp").all());
    expect(byGroup).toEqual([
      { grp: 1, n: groups.GROUP_SIZE },
      { grp: 2, n: 1 },
    ]);
    withRawDb(file, (db) => {
      const table = db.prepare("SELECT table_name FROM datastore_resources WHERE id = 'r64'").pluck().get() as string;
      expect(db.prepare("SELECT count(*) FROM main.sqlite_schema WHERE name LIKE 'ds\\_%' ESCAPE '\\'").pluck().get()).toBe(0);
      expect(db.prepare("SELECT name FROM g2.sqlite_schema WHERE tbl_name LIKE ? ORDER BY name").pluck().all(`${table}%`)).toEqual(
        [table, `${table}_fts`, `${table}_fts_config`, `${table}_fts_data`, `${table}_fts_docsize`, `${table}_fts_idx`, `${table}_text`].sort(),
      );
    });
  });

  it("reads, writes, searches and changes fields of resources in different groups, on the writer and the read workers", async () => {
    await engine.write("r1", [{ a: "one apple" }], "insert");
    await engine.write("r64", [{ a: "sixty-four pears" }], "insert");
    await engine.transaction((tx) => tx.write("r64", [{ a: "more pears" }], "insert"), ["r64"]);
    expect(await values(engine, "r1")).toEqual(["one apple"]);
    expect(await values(engine, "r64", { fts: [{ field: null, tree: parsePlain("pears"), rank: "rank" }] })).toEqual(["sixty-four pears", "more pears"]);
    await engine.alterFields("r64", [{ id: "b", type: "int4" }], [], []);
    await engine.setIndexes("r64", [["b"]]);
    expect((await engine.getResource("r64"))!.fields.map((f) => f.id)).toEqual(["a", "b"]);
    expect(await values(engine, "r64", { columns: ["b"] })).toEqual([null, null]);
  });

  it("refuses a transaction that was not told a resource whose group it needs, with a 409, and writes nothing", async () => {
    // Every group detached but r64's: r1's is not attached when the transaction begins.
    await engine.transaction(async () => undefined, ["r64"]);
    const refused = await engine.transaction((tx) => tx.write("r1", [{ a: "lost" }], "insert")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatastoreError);
    expect(refused).toMatchObject({ kind: "validation", details: { resource_id: [expect.stringMatching(/changed while it was being read/)] } });
    expect(await values(engine, "r1")).toEqual(["one apple"]);
  });

  it("a new connection's first read parses its groups' schemas, not every resource's", () => {
    const reader = openReader(file, limits);
    try {
      groups.attachFor(reader, ["r64"]);
      expect(mustGetForRead(reader, "r64").rowCount).toBe(2);
      const rows = (schema: string) => reader.db.prepare(`SELECT count(*) FROM ${schema}.sqlite_schema`).pluck().get() as number;
      const parsed = ["main", ...groups.attachedGroups(reader).map((g) => `g${g}`)].reduce((n, s) => n + rows(s), 0);
      // All of the catalog, and one group of one resource: far below the 7 rows of each of 65 resources.
      expect(groups.attachedGroups(reader)).toEqual([2]);
      expect(parsed).toBeLessThan(100);
    } finally {
      reader.db.close();
    }
  });

  it("drops a resource's objects in its group, and its group's copy of its catalog row", async () => {
    await engine.deleteResource("r2");
    withRawDb(file, (db) => {
      expect(db.prepare("SELECT count(*) FROM g1.datastore_state WHERE id = 'r2'").pluck().get()).toBe(0);
      expect(db.prepare("SELECT count(*) FROM g1.sqlite_schema WHERE name LIKE 'ds\\_%' ESCAPE '\\'").pluck().get()).toBe(7 * (groups.GROUP_SIZE - 1));
    });
  });
});

describe("a store of the old layout", () => {
  it("reads and writes resources whose objects are in main, beside new ones in groups", async () => {
    const file = tempFile();
    let engine = await openEngine({ file, readWorkers: 2 });
    await engine.createResource(meta("old"), [{ id: "a", type: "text" }]);
    await engine.write("old", [{ a: "kept apples" }], "insert");
    await engine.createResource(meta("new"), [{ id: "a", type: "text" }]);
    await engine.close();
    moveToMain(file, "old");
    withRawDb(file, (db) => {
      expect(db.prepare("SELECT grp FROM datastore_resources ORDER BY id").pluck().all()).toEqual([1, null]);
      expect(db.prepare("SELECT count(*) FROM main.sqlite_schema WHERE name LIKE 'ds\\_%' ESCAPE '\\'").pluck().get()).toBe(7);
    });
    engine = await openEngine({ file, readWorkers: 2 });
    try {
      expect(await values(engine, "old", { fts: [{ field: null, tree: parsePlain("apples"), rank: "rank" }] })).toEqual(["kept apples"]);
      await engine.transaction((tx) => tx.write("old", [{ a: "more apples" }], "insert"), ["old"]);
      await engine.write("new", [{ a: "new pears" }], "insert");
      await engine.alterFields("old", [{ id: "b", type: "int4" }], [], []);
      expect(await values(engine, "old", { fts: [{ field: null, tree: parsePlain("apples"), rank: "rank" }] })).toEqual(["kept apples", "more apples"]);
      expect(await values(engine, "new")).toEqual(["new pears"]);
      await engine.dropTable("old");
      await engine.createResource(meta("old"), [{ id: "a", type: "text" }]); // created again: still in main
      await engine.write("old", [{ a: "again" }], "insert");
      expect(await values(engine, "old")).toEqual(["again"]);
      withRawDb(file, (db) => expect(db.prepare("SELECT grp FROM datastore_resources WHERE id = 'old'").pluck().get()).toBeNull());
    } finally {
      await engine.close();
    }
  });
});

describe("after a crash between the commits of main and a group", () => {
  it("repairs the catalog from the group's copy at the next open", async () => {
    const file = tempFile();
    let engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource(meta("c"), [{ id: "a", type: "text" }]);
    await engine.write("c", [{ a: "x" }], "insert");
    const before = await engine.historyState((await engine.getResource("c"))!);
    await engine.close();
    // As if `main` had committed a write and its group not: the catalog one version and a row
    // ahead, logged; and a resource made in `main` only.
    withRawDb(
      file,
      (db) => {
        db.prepare("UPDATE datastore_resources SET row_count = row_count + 1, version = version + 1 WHERE id = 'c'").run();
        db.prepare("INSERT INTO datastore_versions (resource_id, version, at, kind, id_to) VALUES ('c', ?, '2026-01-01', 'upsert', 2)").run(before.version + 1);
        db.prepare("INSERT INTO datastore_resources (id, table_name, created, modified, grp) VALUES ('half', 'ds_gone', '', '', 1)").run();
      },
      true,
    );
    fs.writeFileSync(groups.openMarker(file), "crashed\n");
    engine = await openEngine({ file, readWorkers: 0 });
    try {
      const r = (await engine.getResource("c"))!;
      const state = await engine.historyState(r);
      expect({ version: state.version, written: state.written, rowCount: r.rowCount }).toEqual({ version: before.version, written: before.version, rowCount: 1 });
      expect(await engine.getResource("half")).toBeUndefined();
      await engine.write("c", [{ a: "y" }], "insert");
      expect(await values(engine, "c")).toEqual(["x", "y"]);
    } finally {
      await engine.close();
    }
    expect(fs.existsSync(groups.openMarker(file))).toBe(false);
  });
});

describe("the open markers", () => {
  const markers = (file: string) => fs.readdirSync(groups.groupsDir(file)).filter((n) => n.startsWith("open")).sort();
  /** Makes `main` disagree with the group (a state a repair would undo). */
  const ahead = (file: string) => withRawDb(file, (db) => void db.prepare("UPDATE datastore_resources SET description = 'main only' WHERE id = 'm'").run(), true);
  const description = async (engine: DatastoreEngine) => (await engine.getResource("m"))!.description;

  it("are one per opener: a second opener (an import, a script) neither repairs a live store nor takes the first's marker", async () => {
    const file = tempFile();
    const server = await openEngine({ file, readWorkers: 0 });
    try {
      await server.createResource(meta("m"), [{ id: "a", type: "text" }]);
      expect(markers(file)).toHaveLength(1);
      ahead(file);
      const second = await openEngine({ file, readWorkers: 0 });
      expect(markers(file)).toHaveLength(2);
      expect(await description(second)).toBe("main only");
      await second.close();
      expect(markers(file)).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(markers(file)).toEqual([]);
  });

  it("of a process no longer alive make the next opener repair; a live process's do not", async () => {
    const file = tempFile();
    let engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource(meta("m"), [{ id: "a", type: "text" }]);
    await engine.close();
    ahead(file);
    // The parent of this process is alive; a child that has exited is not.
    fs.writeFileSync(path.join(groups.groupsDir(file), `open-${process.ppid}-0-1`), "");
    engine = await openEngine({ file, readWorkers: 0 });
    expect(await description(engine)).toBe("main only");
    await engine.close();
    const { spawnSync } = await import("node:child_process");
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    fs.writeFileSync(path.join(groups.groupsDir(file), `open-${gone}-0-1`), "");
    engine = await openEngine({ file, readWorkers: 0 });
    expect(await description(engine)).toBe("");
    await engine.close();
    expect(markers(file)).toEqual([`open-${process.ppid}-0-1`]);
  });
});

describe("datastore_info's db_size", () => {
  it("is the whole store's, as CKAN's is its database's: the main file and every group file", async () => {
    const file = tempFile();
    let engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource(meta("s"), [{ id: "a", type: "text" }]);
    await engine.write("s", Array.from({ length: 2000 }, (_, i) => ({ a: `row ${i}` })), "insert");
    await engine.close(); // every page written back to its file (the close checkpoints)
    const onDisk = [file, ...groups.groupFiles(file).map((g) => g.file)].map((f) => fs.statSync(f).size);
    engine = await openEngine({ file, readWorkers: 0 });
    try {
      expect(onDisk).toHaveLength(2);
      expect((await engine.stats((await engine.getResource("s"))!)).dbSize).toBe(onDisk[0] + onDisk[1]);
    } finally {
      await engine.close();
    }
  });
});

describe("a backup", () => {
  it("copies every group file, and opens with them", async () => {
    const file = tempFile();
    const engine = await openEngine({ file, readWorkers: 0 });
    const copy = path.join(path.dirname(file), "copy.db");
    try {
      await engine.createResource(meta("b"), [{ id: "a", type: "text" }]);
      await engine.write("b", [{ a: "backed up" }], "insert");
      expect(await engine.backup(copy)).toMatch(/1 group files.*integrity ok/);
    } finally {
      await engine.close();
    }
    const restored = await openEngine({ file: copy, readWorkers: 2 });
    try {
      expect(await values(restored, "b")).toEqual(["backed up"]);
    } finally {
      await restored.close();
    }
  });
});
