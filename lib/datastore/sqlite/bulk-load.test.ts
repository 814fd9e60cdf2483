import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { DatastoreEngine, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { CastError, toStorage, type TypeName } from "../types";
import { openEngine } from "../open";
import { openBulkSink } from "../bulk-sink";
import { caster } from "./bulk-load";
import type { SqliteEngine } from "./engine";
import { checkFtsIntegrity, everySchema, integrityCheck, tableOf, withRawDb } from "./test-support";

const all: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "word", "ok"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 1000, offset: 0, includeTotal: true };

async function caught(fn: () => Promise<unknown>): Promise<DatastoreError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof DatastoreError) return e;
    throw e;
  }
  throw new Error("expected a DatastoreError");
}

describe("bulk load", () => {
  let engine: DatastoreEngine;
  let file: string;

  beforeEach(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bulk-")), "bulk.db");
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "r", name: "r", description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
      { id: "ok", type: "bool" },
    ]);
  });

  it("appends in multi-row statements, then indexes for full text and counts", async () => {
    await engine.write("r", [{ n: 0, word: "existing", ok: true }], "insert");
    await engine.transaction(async (tx) => {
      const load = await tx.bulkLoad("r", ["word", "n"]);
      const rows = Array.from({ length: 1234 }, (_, i) => [i % 2 ? "odd" : "even", String(i + 1)]);
      await load.append(rows.slice(0, 1000));
      await load.append(rows.slice(1000));
      expect(await load.index(500)).toBe(734);
      expect(await load.finish()).toBe(1234);
    });
    // Loading merges the index lazily; afterwards FTS5's default applies again.
    const table = tableOf(file, "r");
    expect(withRawDb(file, (db) => db.prepare(`SELECT v FROM "${table}_fts_config" WHERE k = 'automerge'`).pluck().get())).toBe(4);
    // FTS5's own check that the index holds exactly what its content shows.
    expect(() => checkFtsIntegrity(file, "r")).not.toThrow();
    const r = (await engine.getResource("r"))!;
    expect(r.rowCount).toBe(1235);
    const out = await engine.search(r, { ...all, limit: 3 });
    expect(out.rows).toEqual([
      [1, 0, "existing", true],
      [2, 1, "even", null],
      [3, 2, "odd", null],
    ]);
    const odd = await engine.search(r, { ...all, fts: [{ field: null, tree: parsePlain("odd"), rank: "rank" }], limit: 0 });
    expect(odd.total).toBe(617);
    const bools = await engine.search(r, { ...all, fts: [{ field: null, tree: parsePlain("true"), rank: "rank" }], limit: 0 });
    expect(bools.total).toBe(1);
  });

  it("names the row and field of a value the column cannot hold", async () => {
    const load = await engine.bulkLoad("r", ["n", "word"]);
    const rows = Array.from({ length: 2000 }, (_, i) => [i === 1500 ? "x1" : i, "w"]);
    const e = await caught(() => load.append(rows));
    expect(e.details).toMatchObject({ records_row: 1500, field: "n" });
    expect(String((e.details.records as string[])[0])).toContain('"x1"');
  });

  it("finds the duplicate row behind a unique key violation", async () => {
    await engine.setPrimaryKey("r", ["n"]);
    const load = await engine.bulkLoad("r", ["n"]);
    const rows = Array.from({ length: 3000 }, (_, i) => [i === 2500 ? 7 : i]);
    const e = await caught(() => load.append(rows));
    expect(e.details).toMatchObject({ records_row: 2500 });
  });

  it("builds indexes sorting to temporary files, then gives the connection its settings back", async () => {
    await engine.write("r", Array.from({ length: 3000 }, (_, i) => ({ n: i % 50, word: `w${i}` })), "insert");
    const writer = engine as SqliteEngine;
    const before = [writer.pragma("temp_store"), writer.pragma("cache_size")];
    await engine.setIndexes("r", [["n"], ["word", "n"]]);
    await engine.setPrimaryKey("r", ["word"]);
    expect([writer.pragma("temp_store"), writer.pragma("cache_size")]).toEqual(before);
    expect(before).toEqual([2, -32 * 1024]); // memory, 32 MiB: the writer's own (connection.ts)
    expect(withRawDb(file, (db) => db.prepare(`SELECT count(*) FROM ${everySchema(db)} WHERE type = 'index' AND name LIKE 'ds_%'`).pluck().get())).toBe(3);
    expect(integrityCheck(file)).toBe("ok");
  });

  it("rejects unknown fields and _id", async () => {
    expect((await caught(() => engine.bulkLoad("r", ["nope"]))).details).toHaveProperty("fields");
    expect((await caught(() => engine.bulkLoad("r", ["_id"]))).details).toHaveProperty("fields");
  });
});

describe("bulk load off the main thread", () => {
  let engine: DatastoreEngine;
  let file: string;

  beforeEach(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bulk-off-")), "bulk.db");
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "r", name: "r", description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
      { id: "ok", type: "bool" },
    ]);
  });

  const parts = () => fs.readdirSync(path.dirname(file)).filter((n) => n.includes(".import-"));

  it("takes sealed parts in whole: ids after the table's last, full text, nothing left on disk", async () => {
    await engine.write("r", [1, 2, 3].map((n) => ({ n, word: "old" })), "insert");
    await engine.deleteRows("r", [{ op: "eq", field: "n", value: 3 }]); // id 3 stays taken
    let release = async () => {};
    await engine.transaction(async (tx) => {
      const bulk = await tx.bulkLoad("r", ["word", "n"]);
      const load = bulk.offThread!();
      release = load.release;
      // The worker's end, here on the same thread.
      const sink = await openBulkSink(load.sink);
      for (const [from, to] of [[0, 700], [700, 1500], [1500, 1501]]) {
        sink.append(Array.from({ length: to - from }, (_, i) => [(from + i) % 2 ? "odd" : "even", String(from + i)]));
        const part = sink.seal()!;
        expect(part.rows).toBe(to - from);
        expect(await load.take(part)).toBe(to - from);
        expect(fs.existsSync(String(part.file))).toBe(false); // unlinked once attached
      }
      expect(sink.seal()).toBeNull();
      sink.close();
      expect(await bulk.index(10)).toBe(0); // indexed as taken
      expect(await bulk.finish()).toBe(1501);
    });
    await release();
    expect(parts()).toEqual([]);
    expect(() => checkFtsIntegrity(file, "r")).not.toThrow();
    const r = (await engine.getResource("r"))!;
    expect(r.rowCount).toBe(1503);
    const out = await engine.search(r, { ...all, offset: 2, limit: 2 });
    expect(out.rows).toEqual([
      [4, 0, "even", null],
      [5, 1, "odd", null],
    ]);
    const odd = await engine.search(r, { ...all, fts: [{ field: null, tree: parsePlain("odd"), rank: "rank" }], limit: 0 });
    expect(odd.total).toBe(750);
  });

  it("indexes an empty resource's parts on a thread of its own, and the writer reads the index it adopts", async () => {
    const words = { filters: [], fts: [{ field: null, tree: parsePlain("odd"), rank: "rank" as const }], limit: 0 };
    expect((await engine.search((await engine.getResource("r"))!, { ...all, ...words })).total).toBe(0); // read before
    let release = async () => {};
    await engine.transaction(async (tx) => {
      const bulk = await tx.bulkLoad("r", ["word", "n"]);
      const load = bulk.offThread!();
      release = load.release;
      const sink = await openBulkSink(load.sink);
      const files: string[] = [];
      for (const [from, to] of [[0, 700], [700, 1500]]) {
        sink.append(Array.from({ length: to - from }, (_, i) => [(from + i) % 2 ? "odd" : "even", String(from + i)]));
        const part = sink.seal()!;
        expect(await load.take(part)).toBe(to - from);
        files.push(String(part.file));
      }
      sink.close();
      expect(await bulk.index(10)).toBe(0); // that thread's work
      expect(await bulk.finish()).toBe(1500);
      expect(files.filter((f) => fs.existsSync(f))).toEqual([]); // the full-text thread has them open
    });
    await release();
    expect(parts()).toEqual([]);
    expect(() => checkFtsIntegrity(file, "r")).not.toThrow();
    // The options a load leaves, as the main thread's own indexing leaves them.
    const config = withRawDb(file, (db) => db.prepare(`SELECT k, v FROM "${tableOf(file, "r")}_fts_config" ORDER BY k`).raw().all());
    expect(config).toEqual([["automerge", 4], ["hashsize", 1048576], ["version", 4]]);
    const r = (await engine.getResource("r"))!;
    expect((await engine.search(r, { ...all, ...words })).total).toBe(750);
    // The writer goes on from the adopted index, not from what it read before the load.
    await engine.write("r", [{ n: 1, word: "odd one" }], "insert");
    expect((await engine.search((await engine.getResource("r"))!, { ...all, ...words })).total).toBe(751);
    expect(() => checkFtsIntegrity(file, "r")).not.toThrow();
  });

  it("indexes a French resource's parts on that thread in French", async () => {
    await engine.createResource({ id: "fr", name: "fr", description: "", private: false, language: "french" }, [{ id: "t", type: "text" }, { id: "ok", type: "bool" }]);
    let release = async () => {};
    await engine.transaction(async (tx) => {
      const bulk = await tx.bulkLoad("fr", ["t", "ok"]);
      const load = bulk.offThread!();
      release = load.release;
      const sink = await openBulkSink(load.sink);
      sink.append(Array.from({ length: 300 }, (_, i) => [i % 3 ? "un cheval" : "L'élève", i % 2 ? "true" : "false"]));
      expect(await load.take(sink.seal()!)).toBe(300);
      sink.close();
      expect(await bulk.finish()).toBe(300);
    });
    await release();
    // The view the index is checked against reads French too: the adopted index agrees with it.
    expect(() => checkFtsIntegrity(file, "fr")).not.toThrow();
    const r = (await engine.getResource("fr"))!;
    const find = async (q: string) => (await engine.search(r, { ...all, columns: ["_id"], fts: [{ field: null, tree: parsePlain(q, "french"), rank: "rank" }], limit: 0 })).total;
    expect(await find("chevaux")).toBe(200);
    expect(await find("eleve")).toBe(100);
  });

  it("refuses a part out of order, and a bad value with its row and field", async () => {
    await expect(
      engine.transaction(async (tx) => {
        const load = (await tx.bulkLoad("r", ["n"])).offThread!();
        const sink = await openBulkSink(load.sink);
        try {
          const e = (() => {
            try {
              sink.append([[1], ["x1"]]);
            } catch (e) {
              return e as DatastoreError;
            }
          })();
          expect(e?.details).toMatchObject({ records_row: 1, field: "n" });
          sink.close();
          const again = await openBulkSink({ ...load.sink, firstId: 10 });
          again.append([[1]]);
          await load.take(again.seal()!);
        } finally {
          await load.release(); // inside the transaction: nothing detaches, the directory goes
        }
      }),
    ).rejects.toThrow(/part ids start after 10, expected 0/);
    expect(parts()).toEqual([]);
    expect((await engine.getResource("r"))!.rowCount).toBe(0);
  });
});

describe("date and timestamp casts", () => {
  const outcome = (fn: () => unknown) => {
    try {
      return { value: fn() };
    } catch (e) {
      if (e instanceof CastError) return { error: e.message };
      throw e;
    }
  };
  // The fast path's check is proved against toStorage in ../stored-dates.test.ts; here, that
  // the caster takes it for stored forms and leaves everything else to toStorage.
  it.each(["timestamp", "date"] as TypeName[])("the %s fast path agrees with toStorage", (type) => {
    const cast = caster({ id: "x", type, column: "c1" });
    const cases = ["2020-02-29T23:59:59", "2021-02-29T00:00:00", "1900-02-29", "2000-02-29", "0099-01-01T00:00:00", "2020-01-01T24:00:00"];
    for (const s of [...cases, ...cases.map((c) => c.slice(0, 10)), "2020-01-02 03:04:05", "01/02/2020", "", "x"]) {
      expect(outcome(() => cast(s))).toEqual(outcome(() => toStorage(type, s)));
    }
  });
});
