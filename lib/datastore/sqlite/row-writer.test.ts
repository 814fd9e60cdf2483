// The row writer keeps the full-text index exact through batches of upserts (rows changed twice,
// rows inserted then changed, numbers that spell as words) and the history's images, and gives
// FTS5 a batch's changes together: one new segment per batch, not one per row (history on or off).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatastoreEngine, SearchQuery } from "../engine";
import { parseTsQuery } from "../full-text";
import { openEngine } from "../open";
import { setFtsSettings } from "./fts-index";
import { checkFtsIntegrity, tableOf, withRawDb } from "./test-support";

let engine: DatastoreEngine;
let file: string;

beforeAll(async () => {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "row-writer-")), "e.db");
  engine = await openEngine({ file, readWorkers: 0 });
  for (const [id, history] of [["on", true], ["off", false]] as const) {
    await engine.createResource({ id, name: id, description: "", private: false, history }, [
      { id: "t", type: "text" },
      { id: "n", type: "int4" },
      { id: "x", type: "float8" },
      { id: "b", type: "bool" },
    ]);
    await engine.write(id, Array.from({ length: 60 }, (_, i) => ({ t: `row ${i} alpha`, n: i - 30, x: i / 4, b: i % 2 === 0 })), "insert");
  }
  // No merging: every segment FTS5 writes stays, so the count tells how many a batch wrote.
  withRawDb(file, (db) => {
    for (const id of ["on", "off"]) setFtsSettings(db, tableOf(file, id), { automerge: 0, crisismerge: 2000 });
  }, true);
});

afterAll(async () => {
  await engine.close();
});

/** FTS5's segments: each has its own id in the `_idx` table. */
function segments(id: string): number {
  return withRawDb(file, (db) => db.prepare(`SELECT count(DISTINCT segid) FROM "${tableOf(file, id)}_fts_idx"`).pluck().get() as number);
}

const search = (q: string): SearchQuery => ({
  filters: [],
  fts: [{ field: null, tree: parseTsQuery(q), rank: "rank" }],
  columns: ["_id"],
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit: 100,
  offset: 0,
  includeTotal: true,
});

async function ids(id: string, q: string): Promise<number[]> {
  const out = await engine.search((await engine.getResource(id))!, search(q));
  return out.rows.map((r) => Number(r[0]));
}

describe.each(["on", "off"])("upserts with history %s", (id) => {
  it("leave the index exact, in one segment per batch", async () => {
    const before = segments(id);
    await engine.write(
      id,
      [
        // Out of _id order, one row twice, a new row then changed again, numbers with signs and dots.
        ...Array.from({ length: 40 }, (_, i) => ({ _id: 50 - i, t: `moved ${i} beta`, n: -i, x: i + 0.5 })),
        { _id: 7, t: "once zeta" },
        { _id: 7, t: "twice gamma", b: false },
        { _id: 61, t: "fresh delta", n: 5 },
        { _id: 61, t: "fresh epsilon" },
      ],
      "upsert",
    );
    expect(segments(id) - before).toBeLessThanOrEqual(1);
    checkFtsIntegrity(file, id);
    expect(await ids(id, "gamma")).toEqual([7]);
    expect(await ids(id, "epsilon")).toEqual([61]);
    expect(await ids(id, "delta")).toEqual([]);
    expect(await ids(id, "zeta")).toEqual([]);
    expect(await ids(id, "beta")).toEqual(Array.from({ length: 40 }, (_, i) => 11 + i));
    expect(await ids(id, "alpha")).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60]);
    if (id === "on") {
      // Row 7, changed twice in the batch: one image, its values as they were (integers as such).
      const kept = await engine.rowImages((await engine.getResource(id))!, { id: 7 });
      expect(kept!.images.map((i) => i.record)).toEqual([
        { _id: 7, t: "row 6 alpha", n: -24, x: 1.5, b: true },
        { _id: 7, t: "twice gamma", n: -24, x: 1.5, b: false },
      ]);
      expect(kept!.images[0].to).toBe(kept!.images[1].from);
    }
  });
});

describe("a batch's images, kept before its writes", () => {
  /** Each kept image of row `_id` as [from, to, code, n]; the live row last (to null). */
  async function kept(id: string, rowId: number): Promise<unknown[][]> {
    const out = await engine.rowImages((await engine.getResource(id))!, { id: rowId });
    return out!.images.map((i) => [i.to === null ? "live" : "kept", i.record.code, i.record.n]);
  }

  it("are one per row named by `_id` or by key, of the row before the batch, and none for a row it inserts", async () => {
    await engine.createResource({ id: "keyed", name: "keyed", description: "", private: false, history: true }, [
      { id: "code", type: "text" },
      { id: "n", type: "int4" },
    ]);
    await engine.setPrimaryKey("keyed", ["code"]);
    await engine.write("keyed", ["a", "b", "c", "d"].map((code, i) => ({ code, n: i })), "insert");
    await engine.write(
      "keyed",
      [
        { code: "a", n: 10 }, // by key
        { _id: 1, n: 11 }, // the same row again, by `_id`
        { _id: 2, code: "b2" }, // moves key b away from row 2...
        { code: "b", n: 12 }, // ...so b is a new row (row 2 held it), which has no image
        { code: "b", n: 13 },
        { _id: 3 }, // nothing to set: no change
        { _id: 99, code: "e", n: 14 }, // no such row: inserted
      ],
      "upsert",
    );
    expect(await kept("keyed", 1)).toEqual([["kept", "a", 0], ["live", "a", 11]]);
    expect(await kept("keyed", 2)).toEqual([["kept", "b", 1], ["live", "b2", 1]]);
    expect(await kept("keyed", 3)).toEqual([["live", "c", 2]]);
    const b = await engine.rowImages((await engine.getResource("keyed"))!, { key: { code: "b" } });
    expect(b!.images.map((i) => [i.to === null ? "live" : "kept", i.record.code, i.record.n])).toEqual([
      ["kept", "b", 1],
      ["live", "b2", 1],
      ["live", "b", 13],
    ]);
    expect(b!.ids).toEqual([2, b!.id]);
    expect(b!.id).toBeGreaterThan(4);
  });

  it("go with a batch that fails", async () => {
    const r = (await engine.getResource("keyed"))!;
    await expect(engine.write("keyed", [{ _id: 4, n: 20 }, { code: "d", n: 21 }, { _id: 1000, n: 22 }], "update")).rejects.toThrow(/not found/);
    expect(await kept("keyed", 4)).toEqual([["live", "d", 3]]);
    expect((await engine.historyState((await engine.getResource("keyed"))!)).version).toBe((await engine.historyState(r)).version);
  });
});
