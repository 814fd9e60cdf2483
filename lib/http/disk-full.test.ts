// A full disk, simulated by capping the size of the server's own database file: the write that
// does not fit answers a clear 409 and leaves the database exactly as it was; reads go on;
// once there is room again, writes succeed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { checksumFile, integrityCheck, limitPages } from "../datastore/sqlite/test-support";
import { ADMIN, call, createResource, freshDb } from "../test/api";
import { ok, search } from "../test/contract";

let R: string;
let file: string;

beforeAll(async () => {
  file = freshDb();
  R = await createResource({ fields: [{ id: "k", type: "int" }, { id: "v", type: "text" }], primary_key: "k" });
});

afterAll(async () => {
  limitPages((await getDatastore()).engine, null);
});

const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ k: from + i, v: `${from + i} ${"lorem ipsum ".repeat(40)}` }));

describe("a full disk", () => {
  it("refuses the write that does not fit with 409 database, and loses nothing", async () => {
    const { engine } = await getDatastore();
    limitPages(engine, 300); // room for a few batches, far fewer than a hundred
    let written = 0;
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    let before = "";
    for (let i = 0; i < 100 && !refused; i++) {
      before = checksumFile(file);
      const res = await call("datastore_upsert", { resource_id: R, method: "insert", records: batch(written, 200) }, { token: ADMIN });
      if (res.status === 200) written += 200;
      else refused = res;
    }
    expect(written).toBeGreaterThan(0);
    expect(refused?.status).toBe(409);
    expect(refused?.body.error).toEqual({ __type: "Validation Error", database: ["the database is full; nothing was written"] });
    expect(checksumFile(file)).toBe(before);
    expect(integrityCheck(file)).toBe("ok");

    // Everything acknowledged is there; reads work; other writes that fit still work.
    expect((await search({ resource_id: R, limit: 0 })).total).toBe(written);
    const full = await call("datastore_create", { resource: { name: "more" }, fields: [{ id: "x", type: "text" }], records: batch(0, 500).map((r) => ({ x: r.v })) }, { token: ADMIN });
    expect(full.status).toBe(409);
    expect(checksumFile(file)).toBe(before);

    limitPages(engine, null);
    ok(await call("datastore_upsert", { resource_id: R, method: "insert", records: batch(written, 200) }, { token: ADMIN }));
    expect((await search({ resource_id: R, limit: 0 })).total).toBe(written + 200);
  });
});
