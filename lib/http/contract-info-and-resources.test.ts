// Contract §7 and §0: datastore_info, resource_show, resource_search and the
// `_table_metadata` pseudo-resource, including what anonymous users may see.
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, createBooks, denied, fails, invalid, notFound, ok, rowError, search, token } from "../test/contract";

let R: string;
let PRIVATE: string;
let KEYED: string;
let READ: string;

beforeAll(async () => {
  freshDb();
  R = await createBooks({ aliases: ["books_alias"], primary_key: "title", indexes: "year" });
  PRIVATE = ok(
    await admin("datastore_create", {
      resource: { name: "secret stuff", description: "hidden", private: true },
      fields: [{ id: "a", type: "text" }],
      records: [{ a: "x" }],
      aliases: "secret_alias",
    }),
  ).resource_id;
  KEYED = ok(
    await admin("datastore_create", {
      resource: { name: "keyed" },
      fields: [{ id: "a", type: "text" }, { id: "b", type: "int" }, { id: "c", type: "text" }],
      primary_key: ["a", "b"],
      records: [{ a: "x", b: 1, c: "p" }],
    }),
  ).resource_id;
  READ = await token("read");
});

const schema = (native_type: string, extra: Record<string, unknown> = {}) => ({
  native_type,
  notnull: false,
  index_name: null,
  is_index: false,
  uniquekey: false,
  ...extra,
});

const CKAN_META = ["id", "count", "table_type", "size", "idx_size", "db_size", "aliases"];

describe("datastore_info (§7)", () => {
  it("answers meta and fields (without _id) with schema", async () => {
    const r = ok(await call("datastore_info", { resource_id: R }), "datastore_info");
    expect(r).toEqual({
      meta: {
        id: R,
        count: 6,
        table_type: "BASE TABLE",
        size: expect.any(Number),
        idx_size: expect.any(Number),
        db_size: expect.any(Number),
        aliases: ["books_alias"],
        // Ours (issue 28): the language its full text is stemmed in.
        language: "english",
        // Ours (issue 27): the version, the last write's time, and what history keeps.
        version: expect.any(Number),
        last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        history: { enabled: true, versions: expect.any(Number), rows: expect.any(Number), bytes: expect.any(Number), oldest_version: expect.any(Number) },
      },
      // Ours, beside CKAN's meta: why each index exists.
      indexes: [
        { fields: ["title"], reason: "primary_key" },
        { fields: ["year"], reason: "declared" },
      ],
      fields: [
        { id: "title", type: "text", info: { label: "Title" }, schema: schema("text", { is_index: true, index_name: expect.any(String) }) },
        { id: "author", type: "text", schema: schema("text") },
        { id: "year", type: "int4", schema: schema("integer", { is_index: true, index_name: expect.any(String) }) },
        { id: "rating", type: "numeric", schema: schema("numeric") },
        { id: "in_stock", type: "bool", schema: schema("boolean") },
        { id: "updated", type: "timestamp", schema: schema("timestamp without time zone") },
        { id: "tags", type: "_text", schema: schema("text[]") },
        { id: "meta", type: "json", schema: schema("nested") },
        { id: "note", type: "text", schema: schema("text") },
      ],
    });
    for (const k of ["size", "idx_size", "db_size"]) expect(r.meta[k]).toBeGreaterThanOrEqual(0);
    // CKAN's test_info_success: meta has its seven keys; ours (history) come after them.
    expect(Object.keys(r.meta).slice(0, 7)).toEqual(CKAN_META);
    expect(Object.keys(r.meta).slice(7)).toEqual(expect.arrayContaining(["version", "last_modified", "history"]));
  });

  it("leaves out meta with include_meta false, and each field's schema with include_fields_schema false (CKAN 2.12)", async () => {
    const r = ok(await call("datastore_info", { resource_id: R, include_meta: false, include_fields_schema: "false" }));
    expect(Object.keys(r).sort()).toEqual(["fields", "indexes"]);
    expect(r.fields[0]).toEqual({ id: "title", type: "text", info: { label: "Title" } });
    expect(r.fields.some((f: object) => "schema" in f)).toBe(false);
    expect(Object.keys(ok(await call("datastore_info", { resource_id: R, include_fields_schema: false })).meta).slice(0, 7)).toEqual(CKAN_META);
  });

  it("reports the primary key as an index but not a unique key (CKAN quirk)", async () => {
    // A composite key and no other index: each key field is an index, none a unique key,
    // though the key is enforced.
    const r = ok(await call("datastore_info", { resource_id: KEYED }));
    expect(r.fields.map((f: { id: string; schema: { is_index: boolean; uniquekey: boolean } }) => [f.id, f.schema.is_index, f.schema.uniquekey])).toEqual([
      ["a", true, false],
      ["b", true, false],
      ["c", false, false],
    ]);
    rowError(await admin("datastore_upsert", { resource_id: KEYED, method: "insert", records: [{ a: "x", b: 1, c: "q" }] }), 0);
  });

  it("answers with GET, with id, and for an alias with the real id", async () => {
    expect(ok(await call("datastore_info", { id: R }, { method: "GET" })).meta.id).toBe(R);
    expect(ok(await call("datastore_info", { resource_id: "books_alias" })).meta.id).toBe(R);
  });

  it("keeps count exact after writes", async () => {
    const id = await createBooks({ resource: { name: "counted" } });
    ok(await admin("datastore_records_delete", { resource_id: id, filters: { author: "Tolstoy" } }));
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "a" }, { title: "b" }, { title: "c" }] }));
    expect(ok(await call("datastore_info", { resource_id: id })).meta.count).toBe(7);
  });

  it("answers 409, 404 and 403 in CKAN's order", async () => {
    fails(await call("datastore_info", {}), 409, { resource_id: ["Missing value"] }, "datastore_info");
    notFound(await call("datastore_info", { resource_id: "missing" }));
    denied(await call("datastore_info", { resource_id: PRIVATE }));
    denied(await call("datastore_info", { resource_id: "secret_alias" }));
    expect(ok(await call("datastore_info", { resource_id: PRIVATE }, { token: READ })).meta.count).toBe(1);
  });
});

describe("resource_show", () => {
  it("answers the resource's metadata with datastore_active", async () => {
    const r = ok(await call("resource_show", { id: R }), "resource_show");
    expect(r).toMatchObject({ id: R, name: "books", description: "Some books", datastore_active: true, private: false, url_type: "datastore" });
    expect(ok(await call("resource_show", { id: R }, { method: "GET" })).id).toBe(R);
  });

  it("answers 409 without id, 404 for unknown, 403 for private to anonymous users", async () => {
    invalid(await call("resource_show", {}), "id");
    notFound(await call("resource_show", { id: "missing" }));
    denied(await call("resource_show", { id: PRIVATE }));
    expect(ok(await call("resource_show", { id: PRIVATE }, { token: READ }))).toMatchObject({ id: PRIVATE, private: true });
  });
});

describe("resource_search", () => {
  it("lists readable resources with count and results", async () => {
    const anon = ok(await call("resource_search", {}), "resource_search");
    expect(anon.count).toBe(anon.results.length);
    const names = anon.results.map((r: { id: string }) => r.id);
    expect(names).toContain(R);
    expect(names).not.toContain(PRIVATE);
    const reader = ok(await call("resource_search", {}, { token: READ }));
    expect(reader.results.map((r: { id: string }) => r.id)).toContain(PRIVATE);
    expect(reader.count).toBe(anon.count + 1);
  });

  it('filters by "name:term" queries', async () => {
    const r = ok(await call("resource_search", { query: "name:secret" }, { token: READ }));
    expect(r.results.map((x: { id: string }) => x.id)).toEqual([PRIVATE]);
    expect(ok(await call("resource_search", { query: "name:secret" })).count).toBe(0);
    expect(ok(await call("resource_search", { query: ["name:book", "description:some"] })).results.map((x: { id: string }) => x.id)).toEqual([R]);
  });

  it("orders and pages", async () => {
    const all = ok(await call("resource_search", { order_by: "name" }, { token: READ }));
    expect(all.results.map((x: { name: string }) => x.name)).toEqual(["books", "counted", "keyed", "secret stuff"]);
    const page = ok(await call("resource_search", { order_by: "name", offset: 3, limit: 1 }, { token: READ }));
    expect(page).toEqual({ count: 4, results: [expect.objectContaining({ name: "secret stuff" })] });
    const get = ok(await call("resource_search", { limit: "1" }, { method: "GET", token: READ }));
    expect(get.results).toHaveLength(1);
  });

  it("answers 409 for bad parameters", async () => {
    invalid(await call("resource_search", { query: "nonsense" }), "query");
    invalid(await call("resource_search", { order_by: "nope" }), "order_by");
    invalid(await call("resource_search", { limit: -1 }), "limit");
    invalid(await call("resource_search", { offset: "x" }), "offset");
  });
});

describe("_table_metadata", () => {
  it("is readable anonymously and hides private tables and their aliases", async () => {
    const r = await search({ resource_id: "_table_metadata", limit: 1000 }, { token: undefined });
    const names = r.records.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining([R, "books_alias"]));
    expect(names).not.toContain(PRIVATE);
    expect(names).not.toContain("secret_alias");
    const reader = await search({ resource_id: "_table_metadata", limit: 1000 }, { token: READ });
    expect(reader.records.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining([PRIVATE, "secret_alias"]));
  });
});
