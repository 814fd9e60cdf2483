// datastore_search_all (issue 28): one word over every readable table, best first, each with
// its total and first records; private tables only with a read token; a spent budget answers
// partial with the tables not searched. Both engines.
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, invalid, ok, token } from "../test/contract";

const ID: Record<string, string> = {};
let READ: string;

async function create(key: string, resource: Record<string, unknown>, records: Record<string, unknown>[]) {
  ID[key] = ok(await admin("datastore_create", { resource, fields: [{ id: "city", type: "text" }, { id: "n", type: "int" }], records })).resource_id;
}

beforeAll(async () => {
  freshDb();
  await create("few", { name: "Few" }, [{ city: "Portland", n: 1 }, { city: "Seattle", n: 2 }]);
  await create("many", { name: "Many" }, [1, 2, 3, 4, 5].map((n) => ({ city: n === 3 ? "Boise" : "Portland Oregon", n })));
  await create("none", { name: "None" }, [{ city: "Boston", n: 1 }]);
  // The better ranked match of "tacoma" comes second.
  await create("ranked", { name: "Ranked" }, [{ city: "Tacoma, a port city on the southern end of Puget Sound", n: 1 }, { city: "Tacoma Tacoma", n: 2 }]);
  await create("secret", { name: "Secret", private: true }, [{ city: "Portland", n: 9 }]);
  ID.gone = ok(await admin("datastore_create", { resource: { name: "Gone" }, fields: [{ id: "city", type: "text" }], records: [{ city: "Portland" }] })).resource_id;
  ok(await admin("datastore_delete", { resource_id: ID.gone }));
  READ = await token("read");
});

describe("datastore_search_all", () => {
  it("answers every readable table with matches, most matches first, with totals and the first records", async () => {
    const r = ok(await call("datastore_search_all", { q: "portland", limit: 2 }), "datastore_search_all");
    expect(r.partial).toBe(false);
    expect(r.not_searched).toEqual([]);
    expect(r.results.map((x: { resource_id: string }) => x.resource_id)).toEqual([ID.many, ID.few]);
    expect(r.results[0]).toEqual({
      resource_id: ID.many,
      name: "Many",
      total: 4,
      records: [expect.objectContaining({ _id: 1, city: "Portland Oregon", n: 1 }), expect.objectContaining({ _id: 2, n: 2 })],
    });
    expect(r.results[1].total).toBe(1);
  });

  it("answers each table's first matches in _id order, not its best ranked", async () => {
    const ranked = ok(await call("datastore_search", { resource_id: ID.ranked, q: "tacoma", limit: 1 }));
    expect(ranked.records.map((x: { _id: number }) => x._id)).toEqual([2]);
    const r = ok(await call("datastore_search_all", { q: "tacoma", limit: 1 }));
    expect(r.results).toEqual([{ resource_id: ID.ranked, name: "Ranked", total: 2, records: [expect.objectContaining({ _id: 1, n: 1 })] }]);
  });

  it("searches private tables only for a token that may read them", async () => {
    const r = ok(await call("datastore_search_all", { q: "portland" }, { token: READ }));
    expect(r.results.map((x: { name: string }) => x.name)).toEqual(["Many", "Few", "Secret"]);
    const get = ok(await call("datastore_search_all", { q: "seattle" }, { method: "GET" }));
    expect(get.results.map((x: { name: string }) => x.name)).toEqual(["Few"]);
  });

  it("takes datastore_search's plain: false syntax", async () => {
    const r = ok(await call("datastore_search_all", { q: "portland & !oregon", plain: false }, { token: READ }));
    expect(r.results.map((x: { name: string }) => x.name)).toEqual(["Few", "Secret"]);
  });

  it("names what a spent budget left unsearched", async () => {
    const r = ok(await call("datastore_search_all", { q: "portland", budget_ms: 0 }));
    expect(r.partial).toBe(true);
    expect([...r.not_searched].sort()).toEqual([ID.few, ID.many, ID.none, ID.ranked].sort());
    expect(r.results).toEqual([]);
  });

  it("refuses bad parameters with 409", async () => {
    invalid(await call("datastore_search_all", {}), "q");
    invalid(await call("datastore_search_all", { q: "x", limit: -1 }), "limit");
    invalid(await call("datastore_search_all", { q: "x", budget_ms: "soon" }), "budget_ms");
    invalid(await call("datastore_search_all", { q: "x", resource_id: "y" }), "__extras");
  });
});
