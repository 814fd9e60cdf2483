// The SQLite engine's kept search answers (../page-cache.ts): the same query on the same
// version of a resource is answered from memory; any write makes a new version.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatastoreEngine, SearchQuery } from "../engine";
import { openEngine } from "../open";

const query: SearchQuery = {
  filters: [{ op: "eq", field: "k", value: 1 }],
  fts: [],
  columns: ["_id", "k"],
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit: 2,
  offset: 0,
  includeTotal: true,
  encode: { format: "objects", columns: [{ id: "_id", type: "int" }, { id: "k", type: "int4" }] },
};

describe("kept search answers", () => {
  let engine: DatastoreEngine;
  const search = async () => engine.search((await engine.getResource("kept"))!, query);
  const records = (out: { records?: Uint8Array }) => JSON.parse(new TextDecoder().decode(out.records));

  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kept-")), "kept.db");
    engine = await openEngine({ file, readWorkers: 1, pageCacheBytes: 1 << 20 });
    await engine.createResource({ id: "kept", name: "kept", description: "", private: false }, [{ id: "k", type: "int4" }]);
    await engine.write("kept", [{ k: 1 }, { k: 2 }, { k: 1 }], "insert");
  });

  afterAll(() => engine.close());

  it("answers the same query on the same version from memory, and again after any write", async () => {
    const first = await search();
    expect({ total: first.total, records: records(first) }).toEqual({ total: 2, records: [{ _id: 1, k: 1 }, { _id: 3, k: 1 }] });
    expect(await search()).toBe(first); // the very answer kept
    await engine.write("kept", [{ k: 1 }], "insert");
    const after = await search();
    expect(after).not.toBe(first);
    expect(after.total).toBe(3);
    await engine.write("kept", [{ _id: 1, k: 5 }], "update");
    const updated = await search();
    expect({ total: updated.total, records: records(updated) }).toEqual({ total: 2, records: [{ _id: 3, k: 1 }, { _id: 4, k: 1 }] });
  });

  it("never for a resource deleted and created again with the same id", async () => {
    const before = await search();
    expect(before.total).toBeGreaterThan(0);
    await engine.deleteResource("kept");
    await engine.createResource({ id: "kept", name: "kept", description: "", private: false }, [{ id: "k", type: "int4" }]);
    await engine.write("kept", [{ k: 99 }], "insert");
    const after = await search();
    expect({ total: after.total, records: records(after) }).toEqual({ total: 0, records: [] });
  });

  it("never for a copy of the resource looked up before a write", async () => {
    const old = (await engine.getResource("kept"))!;
    const before = await engine.search(old, query);
    await engine.write("kept", [{ k: 1 }], "insert");
    const out = await engine.search(old, query);
    expect(out).not.toBe(before);
    expect(out.total).toBe(before.total! + 1);
  });
});
