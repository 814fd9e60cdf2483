import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { DatastoreEngine, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { CastError, toStorage, type TypeName } from "../types";
import { openEngine } from "../open";
import { caster } from "./bulk-load";
import { checkFtsIntegrity, tableOf, withRawDb } from "./test-support";

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

  it("rejects unknown fields and _id", async () => {
    expect((await caught(() => engine.bulkLoad("r", ["nope"]))).details).toHaveProperty("fields");
    expect((await caught(() => engine.bulkLoad("r", ["_id"]))).details).toHaveProperty("fields");
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
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  // Mostly well-formed, often out of range: the fast path must agree with toStorage on all.
  const moment = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
      fc.constantFrom("T", " ", "t"),
    )
    .map(([y, mo, d, h, mi, s, sep]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${sep}${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`);

  it.each(["timestamp", "date"] as TypeName[])("the %s fast path agrees with toStorage", (type) => {
    const cast = caster({ id: "x", type, column: "c1" });
    const inputs = fc.oneof(moment, moment.map((s) => s.slice(0, 10)), fc.string({ maxLength: 20 }));
    const agrees = fc.property(inputs, (s) => {
      expect(outcome(() => cast(s))).toEqual(outcome(() => toStorage(type, s)));
    });
    fc.assert(agrees, { numRuns: 5000 });
    for (const s of ["2020-02-29T23:59:59", "2021-02-29T00:00:00", "1900-02-29", "2000-02-29", "0099-01-01T00:00:00", "2020-01-01T24:00:00"]) {
      expect(outcome(() => cast(s))).toEqual(outcome(() => toStorage(type, s)));
    }
  });
});
