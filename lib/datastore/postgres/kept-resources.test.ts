// Catalog copies kept per app server (kept-resources.ts) never answer for a resource another app
// server has changed: two engines on one schema stand for two app servers; A changes a resource
// through CKAN's actions, B (which keeps a copy from its earlier searches) searches at once.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../auth/principal";
import type { TokenStore } from "../../auth/tokens";
import { config } from "../../config";
import { ACTIONS } from "../actions";
import type { SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import type { EncodedJson } from "../formats";
import { openPostgresEngine, type PostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_kept_${randomBytes(4).toString("hex")}`;

describe.skipIf(!url)("kept catalog copies across app servers", () => {
  let a: PostgresEngine;
  let b: PostgresEngine;

  beforeAll(async () => {
    a = await openPostgresEngine({ url: url!, schema, poolSize: 3, limits: config });
    b = await openPostgresEngine({ url: url!, schema, poolSize: 3, limits: config, pageCacheBytes: 1 << 20 });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    await raw.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw.end();
  });

  /** An action on `engine` as a caller of `scope` (null: anonymous): its result, or its error. */
  async function call(engine: PostgresEngine, action: string, params: Record<string, unknown>, scope: Scope | null = "admin"): Promise<Record<string, unknown>> {
    const ctx = { engine: engine.forClient("test"), tokens: {} as TokenStore, user: { scope } };
    return (await ACTIONS[action].run(ctx, params)) as Record<string, unknown>;
  }
  const records = async (engine: PostgresEngine, params: Record<string, unknown>, scope: Scope | null = "admin") => {
    const out = await call(engine, "datastore_search", params, scope);
    return { records: JSON.parse(Buffer.from((out.records as EncodedJson).bytes).toString("utf8")) as Record<string, unknown>[], total: out.total };
  };
  async function refused(p: Promise<unknown>): Promise<DatastoreError> {
    const e = await p.then(
      () => undefined,
      (x: unknown) => x,
    );
    if (e instanceof DatastoreError) return e;
    throw new Error(`expected a DatastoreError, got ${String(e)}`);
  }

  it("B keeps its copy between searches, and reads rows and fields A has just added", async () => {
    await call(a, "datastore_create", { resource_id: "r1", fields: [{ id: "n", type: "int" }], records: [{ n: 1 }] });
    expect(await records(b, { resource_id: "r1" })).toMatchObject({ total: 1 });
    const kept = b.keptResource("r1");
    expect(kept).toBeDefined();
    await records(b, { resource_id: "r1" });
    expect(b.keptResource("r1")).toBe(kept);

    await call(a, "datastore_upsert", { resource_id: "r1", method: "insert", records: [{ n: 2 }] });
    // Unfiltered, the total is the catalog's row count: the copy's would be 1.
    expect(await records(b, { resource_id: "r1", limit: 1 })).toMatchObject({ total: 2 });
    expect(await records(b, { resource_id: "r1", filters: { n: [1, 2] } })).toMatchObject({ total: 2 });
    // A field B's copy does not have: refused on that copy, answered on a fresh one.
    await call(a, "datastore_create", { resource_id: "r1", fields: [{ id: "n", type: "int" }, { id: "m", type: "text" }], records: [{ n: 3, m: "x" }] });
    expect(await records(b, { resource_id: "r1", filters: { m: "x" }, fields: "n,m" })).toEqual({ records: [{ n: 3, m: "x" }], total: 1 });
    expect(await records(b, { resource_id: "r1", limit: 1, fields: "n" })).toEqual({ records: [{ n: 1 }], total: 3 });
  });

  it("an answer B keeps is given again only while the resource is unchanged", async () => {
    await call(a, "datastore_create", { resource_id: "r6", fields: [{ id: "n", type: "int" }], records: [{ n: 1 }, { n: 2 }] });
    const q = { resource_id: "r6", filters: { n: [1, 2, 3] }, fields: "n" };
    expect(await records(b, q)).toEqual({ records: [{ n: 1 }, { n: 2 }], total: 2 });
    expect(await records(b, q)).toEqual({ records: [{ n: 1 }, { n: 2 }], total: 2 });
    await call(a, "datastore_upsert", { resource_id: "r6", method: "insert", records: [{ n: 3 }] });
    expect(await records(b, q)).toEqual({ records: [{ n: 1 }, { n: 2 }, { n: 3 }], total: 3 });
    await call(a, "resource_patch", { id: "r6", private: true });
    expect(await refused(records(b, q, null))).toMatchObject({ kind: "authorization" });
  });

  it("a search on a copy behind the catalog reads nothing and says the resource changed", async () => {
    await call(a, "datastore_create", { resource_id: "r5", fields: [{ id: "n", type: "int" }], records: [{ n: 1 }] });
    const copy = (await b.getResource("r5"))!;
    await call(a, "datastore_upsert", { resource_id: "r5", method: "insert", records: [{ n: 2 }] });
    const q: SearchQuery = { filters: [], fts: [], columns: ["n"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 10, offset: 0, includeTotal: true };
    const e = await refused(b.search(copy, q));
    expect(e).toMatchObject({ changed: true, retryAfter: 1 });
    expect((await b.search((await b.getResource("r5"))!, q)).rows).toEqual([[1], [2]]);
  });

  it("a resource A makes private is refused to B's anonymous readers at once, and answered once public again", async () => {
    await call(a, "datastore_create", { resource_id: "r2", fields: [{ id: "n", type: "int" }], records: [{ n: 1 }] });
    expect(await records(b, { resource_id: "r2" }, null)).toMatchObject({ total: 1 });
    await call(a, "resource_patch", { id: "r2", private: true });
    expect(await refused(records(b, { resource_id: "r2" }, null))).toMatchObject({ kind: "authorization" });
    expect(await records(b, { resource_id: "r2" }, "read")).toMatchObject({ total: 1 });
    await call(a, "resource_patch", { id: "r2", private: false });
    expect(await records(b, { resource_id: "r2" }, null)).toMatchObject({ total: 1 });
  });

  it("a resource A deletes is not found on B; created again, B reads the new rows", async () => {
    await call(a, "datastore_create", { resource_id: "r3", fields: [{ id: "n", type: "int" }], records: [{ n: 1 }] });
    expect(await records(b, { resource_id: "r3" })).toMatchObject({ total: 1 });
    await call(a, "datastore_delete", { resource_id: "r3" });
    expect(await refused(records(b, { resource_id: "r3" }))).toMatchObject({ kind: "not_found" });
    await call(a, "datastore_create", { resource_id: "r3", fields: [{ id: "s", type: "text" }], records: [{ s: "new" }] });
    expect(await records(b, { resource_id: "r3", fields: "s" })).toEqual({ records: [{ s: "new" }], total: 1 });
  });

  it("an alias A moves to another resource names that one on B", async () => {
    await call(a, "datastore_create", { resource_id: "r4a", fields: [{ id: "s", type: "text" }], records: [{ s: "first" }], aliases: "nick" });
    await call(a, "datastore_create", { resource_id: "r4b", fields: [{ id: "s", type: "text" }], records: [{ s: "second" }] });
    expect((await records(b, { resource_id: "nick", fields: "s" })).records).toEqual([{ s: "first" }]);
    await call(a, "datastore_create", { resource_id: "r4a", aliases: "" });
    await call(a, "datastore_create", { resource_id: "r4b", aliases: "nick" });
    expect((await records(b, { resource_id: "nick", fields: "s" })).records).toEqual([{ s: "second" }]);
  });
});
