// Indexes learned from use, as a CKAN client sees them: after a few slow sorted pages the
// field's index exists, datastore_info says it was learned, and a declared index wins.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, ok } from "../test/contract";

let R: string;

beforeAll(async () => {
  freshDb();
  process.env.DATASTORE_ADAPTIVE_SLOW_MS = "0"; // every read counts as slow here
  process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT = "100"; // a narrow table: an index is about its size
  R = ok(
    await admin("datastore_create", {
      resource: { name: "learned" },
      fields: [{ id: "city", type: "text" }, { id: "distance", type: "int4" }],
      records: Array.from({ length: 10_000 }, (_, i) => ({ city: `c${i % 7}`, distance: (i * 37) % 10_000 })),
      primary_key: "city,distance",
    }),
  ).resource_id;
});

afterAll(() => {
  delete process.env.DATASTORE_ADAPTIVE_SLOW_MS;
  delete process.env.DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT;
});

async function info() {
  return ok(await call("datastore_info", { resource_id: R }), "datastore_info");
}

// On both engines: one rule (lib/datastore/index-learning-rule.ts), each engine's own build.
describe("indexes learned from use", () => {
  it("indexes a field after three slow sorted pages, and datastore_info says why each index exists", async () => {
    const distance = () => info().then((r) => r.fields.find((f: { id: string }) => f.id === "distance").schema);
    expect((await distance()).is_index).toBe(true); // the key's second field, as CKAN reports it
    // Three different pages: the same page again is a kept answer, which reads nothing.
    for (let i = 0; i < 3; i++) {
      const page = ok(await call("datastore_search", { resource_id: R, sort: "distance desc", limit: 2, offset: i }));
      expect(page.records.map((r: { distance: number }) => r.distance)).toEqual([9999 - i, 9998 - i]);
    }
    let indexes: unknown[] = [];
    for (let i = 0; i < 400 && indexes.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
      indexes = (await info()).indexes;
    }
    expect(indexes).toEqual([
      { fields: ["city", "distance"], reason: "primary_key" },
      {
        fields: ["distance"],
        reason: "learned",
        learned: { created: expect.any(String), slow_reads: 3, build_ms: expect.any(Number), size: expect.any(Number) },
      },
    ]);
  });

  it("keeps a learned index when other indexes are declared, and drops it for a declared one on its field", async () => {
    ok(await admin("datastore_create", { resource_id: R, indexes: "city" }));
    expect((await info()).indexes.map((ix: { fields: string[]; reason: string }) => [ix.fields, ix.reason])).toEqual([
      [["city", "distance"], "primary_key"],
      [["city"], "declared"],
      [["distance"], "learned"],
    ]);
    ok(await admin("datastore_create", { resource_id: R, indexes: ["distance"] }));
    expect((await info()).indexes.map((ix: { fields: string[]; reason: string }) => [ix.fields, ix.reason])).toEqual([
      [["city", "distance"], "primary_key"],
      [["distance"], "declared"],
    ]);
    const page = ok(await call("datastore_search", { resource_id: R, sort: "distance desc", limit: 1 }));
    expect(page.records[0].distance).toBe(9999);
  });
});
