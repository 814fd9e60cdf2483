// as_of naming the current version, with a write landing between the version check and the read
// (the explorer's "link to this version" on a live table): the answer must be that version's
// rows, on both engines. A stand-in engine makes the write happen at that moment.
// The stand-in reads the resource again after the write: PostgreSQL's read checks its copy
// against the catalog and retries the whole request, which would hide the window.
import { beforeAll, expect, it } from "vitest";
import { TokenStore } from "../auth/tokens";
import { getDatastore } from "../datastore";
import { datastoreSearch } from "../datastore/actions/datastore-search";
import type { DatastoreEngine, Resource, SearchQuery } from "../datastore/engine";
import type { EncodedJson } from "../datastore/formats";
import { openDump } from "../datastore/dump";
import { freshDb } from "../test/api";
import { admin, ok } from "../test/contract";

let R: string;
let version: number;

beforeAll(async () => {
  freshDb();
  R = ok(await admin("datastore_create", { resource: { name: "live" }, fields: [{ id: "n", type: "int4" }], records: [{ n: 1 }] })).resource_id;
  version = ok(await admin("datastore_info", { resource_id: R })).meta.version;
});

/** The engine, but a write lands just before its first read of the current rows. */
async function racing(): Promise<DatastoreEngine> {
  const { engine } = await getDatastore();
  let raced = false;
  const write = async (q: SearchQuery) => {
    if (q.asOf !== undefined || raced) return;
    raced = true;
    ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ n: 2 }] }));
  };
  return new Proxy(engine, {
    get(target, key) {
      if (key === "search") return async (r: Resource, q: SearchQuery) => (await write(q), target.search((await target.getResource(r.id))!, q));
      if (key === "iterate")
        return async function* (r: Resource, q: SearchQuery) {
          await write(q);
          yield* target.iterate((await target.getResource(r.id))!, q);
        };
      const v: unknown = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

const ctx = async () => {
  const engine = await racing();
  return { engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin" as const } };
};

it("datastore_search as_of the current version answers that version's rows when a write races it", async () => {
  const out = (await datastoreSearch(await ctx(), { resource_id: R, as_of: version, fields: "n" })) as { records: EncodedJson; as_of: { version: number } };
  expect(out.as_of.version).toBe(version);
  expect(JSON.parse(Buffer.from(out.records.bytes).toString())).toEqual([{ n: 1 }]);
});

it("the dump as_of the current version too", async () => {
  version = ok(await admin("datastore_info", { resource_id: R })).meta.version;
  const rows = ok(await admin("datastore_search", { resource_id: R, fields: "n", sort: "n" })).records;
  const dump = await openDump(await ctx(), R, { as_of: version, fields: "n" });
  let text = "";
  for await (const piece of dump.pieces) text += String(piece);
  expect(text.trim().split(/\r?\n/)).toEqual(["n", ...rows.map((r: { n: number }) => String(r.n))]);
});

it("a retention pass that removes a version's images while it is read makes the read a 409, not a short answer", async () => {
  const S = ok(await admin("datastore_create", { resource: { name: "kept" }, primary_key: "k", fields: [{ id: "k", type: "text" }, { id: "n", type: "int4" }], records: [{ k: "a", n: 1 }] })).resource_id;
  const old = ok(await admin("datastore_info", { resource_id: S })).meta.version;
  ok(await admin("datastore_upsert", { resource_id: S, records: [{ k: "a", n: 2 }] }));
  const { engine } = await getDatastore();
  const pruning = new Proxy(engine, {
    get(target, key) {
      if (key === "search")
        return async (r: Resource, q: SearchQuery) => {
          if (q.asOf !== undefined) await target.pruneHistory(r, new Date(Date.now() + 60_000).toISOString());
          return target.search(r, q);
        };
      const v: unknown = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const refused = await datastoreSearch({ engine: pruning, tokens: new TokenStore(engine.tokens), user: { scope: "admin" } }, { resource_id: S, as_of: old }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ details: { as_of: [expect.stringMatching(/oldest version this resource keeps/)] } });
});
