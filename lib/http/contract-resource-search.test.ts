// resource_search at scale (issue 28): `q` over names, descriptions, field ids and labels,
// `order_by` (with desc), `has_table`, paging with the count of every match, and the words kept
// in step as a resource is patched, altered, emptied and deleted. Both engines.
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, invalid, ok, token } from "../test/contract";

let READ: string;
/** Resource ids by a short name of ours (datastore_create with `resource` makes up the id). */
const ID: Record<string, string> = {};
const ids = (r: { results: { id: string }[] }) => r.results.map((x) => Object.keys(ID).find((k) => ID[k] === x.id));

async function create(key: string, resource: Record<string, unknown>, fields: unknown[], records: unknown[] = []) {
  ID[key] = ok(await admin("datastore_create", { resource, fields, records })).resource_id;
}

beforeAll(async () => {
  freshDb();
  await create("birds", { name: "Birdstrikes", description: "Aircraft wildlife strikes" }, [{ id: "airport", type: "text", info: { label: "Aéroport" } }], [{ airport: "PDX" }, { airport: "SEA" }, { airport: "SFO" }]);
  await create("cars", { name: "Cars", description: "Fuel economy of cars" }, [{ id: "miles_per_gallon", type: "numeric" }], [{ miles_per_gallon: 30 }, { miles_per_gallon: 20 }]);
  await create("hidden", { name: "Hidden birds", private: true }, [{ id: "a", type: "text" }], [{ a: "z" }]);
  await create("empty", { name: "Emptied" }, [{ id: "a", type: "text" }], [{ a: "x" }, { a: "y" }]);
  ok(await admin("datastore_delete", { resource_id: ID.empty })); // no data table now
  READ = await token("read");
});

describe("resource_search q", () => {
  it("finds words at the start of words in names, descriptions, field ids and labels, accents folded", async () => {
    expect(ids(ok(await call("resource_search", { q: "bird" })))).toEqual(["birds"]);
    expect(ids(ok(await call("resource_search", { q: "bird" }, { token: READ })))).toEqual(["birds", "hidden"]);
    expect(ids(ok(await call("resource_search", { q: "WILDLIFE" })))).toEqual(["birds"]);
    expect(ids(ok(await call("resource_search", { q: "gallon" })))).toEqual(["cars"]);
    expect(ids(ok(await call("resource_search", { q: "aeroport" })))).toEqual(["birds"]);
    expect(ids(ok(await call("resource_search", { q: "fuel cars" })))).toEqual(["cars"]);
    expect(ok(await call("resource_search", { q: "fuel birds" })).count).toBe(0);
    // inside a word is not the start of one
    expect(ok(await call("resource_search", { q: "irdstrikes" })).count).toBe(0);
  });

  it("keeps the words in step with patches, new fields and deletes", async () => {
    await create("later", { name: "Later" }, [{ id: "x", type: "text" }]);
    expect(ok(await call("resource_search", { q: "zebra" })).count).toBe(0);
    ok(await admin("resource_patch", { id: ID.later, description: "Zebra crossings" }));
    expect(ids(ok(await call("resource_search", { q: "zebra" })))).toEqual(["later"]);
    ok(await admin("datastore_create", { resource_id: ID.later, fields: [{ id: "x", type: "text" }, { id: "quagga", type: "text" }] }));
    expect(ids(ok(await call("resource_search", { q: "quagga" })))).toEqual(["later"]);
    ok(await admin("resource_delete", { id: ID.later }));
    expect(ok(await call("resource_search", { q: "zebra" })).count).toBe(0);
  });
});

describe("resource_search order, paging and has_table", () => {
  it("orders by name by default, by rows and last_modified, ascending or desc", async () => {
    const all = ok(await call("resource_search", {}, { token: READ }));
    expect(ids(all)).toEqual(["birds", "cars", "empty", "hidden"]);
    expect(ids(ok(await call("resource_search", { order_by: "rows desc" }, { token: READ })))).toEqual(["birds", "cars", "hidden", "empty"]);
    expect(ids(ok(await call("resource_search", { order_by: "row_count" }, { token: READ })))).toEqual(["empty", "hidden", "cars", "birds"]);
    const modified = ok(await call("resource_search", { order_by: "last_modified desc" }, { token: READ })).results.map((r: { last_modified: string }) => r.last_modified);
    expect(modified).toEqual([...modified].sort().reverse());
  });

  it("pages with the count of every match, and hides resources without a table when asked", async () => {
    const page = ok(await call("resource_search", { limit: 2, offset: 1 }, { token: READ }));
    expect(page.count).toBe(4);
    expect(ids(page)).toEqual(["cars", "empty"]);
    const tables = ok(await call("resource_search", { has_table: true, limit: 1 }, { token: READ }));
    expect(tables.count).toBe(3);
    expect(ids(tables)).toEqual(["birds"]);
    expect(ids(ok(await call("resource_search", { has_table: "true", q: "emptied" })))).toEqual([]);
    expect(ids(ok(await call("resource_search", { q: "emptied" })))).toEqual(["empty"]);
  });

  it("keeps query's substring terms and refuses bad values", async () => {
    expect(ids(ok(await call("resource_search", { query: "description:ECONOMY" })))).toEqual(["cars"]);
    expect(ids(ok(await call("resource_search", { query: "format:csv", q: "cars" })))).toEqual(["cars"]);
    expect(ok(await call("resource_search", { query: "format:json" })).count).toBe(0);
    invalid(await call("resource_search", { order_by: "rows sideways" }), "order_by");
    invalid(await call("resource_search", { q: ["a"] }), "q");
  });
});
