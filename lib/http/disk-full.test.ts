// A full disk: the write that does not fit answers a clear 409 and leaves the database exactly
// as it was; reads go on; once there is room again, writes succeed. SQLite: the server's own
// database file is capped a few batches past its size. PostgreSQL: from the fourth batch on,
// every write to the store fails as PostgreSQL's own full disk does (SQLSTATE 53100).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { integrityCheck, limitPages } from "../datastore/sqlite/test-support";
import { ADMIN, call, createResource, currentStore, freshDb, isPostgres, storeChecksum } from "../test/api";
import { ok, search } from "../test/contract";
import { simulateDiskFull } from "../test/pg-support";

let R: string;
let store: string;

beforeAll(async () => {
  store = freshDb();
  R = await createResource({ fields: [{ id: "k", type: "int" }, { id: "v", type: "text" }], primary_key: "k" });
});

afterAll(async () => {
  if (!isPostgres) limitPages((await getDatastore()).engine, null);
});

const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ k: from + i, v: `${from + i} ${"lorem ipsum ".repeat(40)}` }));

/** Fills the disk (at once on PostgreSQL, after a few batches on SQLite); returns the way back. */
async function fillDisk(): Promise<() => Promise<void>> {
  if (isPostgres) {
    const { databaseUrl, schema } = currentStore() as { databaseUrl: string; schema: string };
    const full = await simulateDiskFull(databaseUrl, schema);
    return () => full.lift();
  }
  const { engine } = await getDatastore();
  limitPages(engine, 300); // room for a few batches, far fewer than a hundred
  return async () => limitPages(engine, null);
}

describe("a full disk", () => {
  it("refuses the write that does not fit with 409 database, and loses nothing", async () => {
    let room: (() => Promise<void>) | undefined;
    let written = 0;
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    let before = "";
    for (let i = 0; i < 100 && !refused; i++) {
      if (i === (isPostgres ? 3 : 0)) room = await fillDisk();
      before = await storeChecksum();
      const res = await call("datastore_upsert", { resource_id: R, method: "insert", records: batch(written, 200) }, { token: ADMIN });
      if (res.status === 200) written += 200;
      else refused = res;
    }
    expect(written).toBeGreaterThan(0);
    expect(refused?.status).toBe(409);
    expect(refused?.body.error).toEqual({ __type: "Validation Error", database: ["the database is full; nothing was written"] });
    expect(await storeChecksum()).toBe(before);
    if (!isPostgres) expect(integrityCheck(store)).toBe("ok");

    // Everything acknowledged is there; reads work; other writes that fit still work.
    expect((await search({ resource_id: R, limit: 0 })).total).toBe(written);
    const full = await call("datastore_create", { resource: { name: "more" }, fields: [{ id: "x", type: "text" }], records: batch(0, 500).map((r) => ({ x: r.v })) }, { token: ADMIN });
    expect(full.status).toBe(409);
    expect(await storeChecksum()).toBe(before);

    await room!();
    ok(await call("datastore_upsert", { resource_id: R, method: "insert", records: batch(written, 200) }, { token: ADMIN }));
    expect((await search({ resource_id: R, limit: 0 })).total).toBe(written + 200);
  });
});
