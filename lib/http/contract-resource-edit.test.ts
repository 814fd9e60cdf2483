// Editing a resource from the browser: resource_patch (name, description, private), the data
// dictionary through datastore_create (`fields[].info`, CKAN's label and notes), and
// resource_delete (the resource and its table gone, the id free again).
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb, storeChecksum } from "../test/api";
import { BOOK_ROWS, admin, badRequest, createBooks, denied, fails, notFound, ok, search, token } from "../test/contract";

const GET_USE_POST = "Bad request - JSON Error: Invalid request. Please use POST method for your request";

let R: string;
let ALIAS: string;
let tables = 0;

// One store for the file (over HTTP, one server), and a books table of its own for each test.
beforeAll(() => {
  freshDb();
});

beforeEach(async () => {
  ALIAS = `books_alias_${++tables}`;
  R = await createBooks({ aliases: ALIAS });
});

const show = async (id = R) => ok(await admin("resource_show", { id }));
const patch = (params: Record<string, unknown>) => admin("resource_patch", { id: R, ...params });
const fieldsOf = async (id = R) => ok(await admin("datastore_info", { resource_id: id })).fields.map(({ id, info }: { id: string; info?: unknown }) => ({ id, info }));

describe("resource_patch", () => {
  it("changes name, description and private, and answers the resource dict", async () => {
    const result = ok(await patch({ name: "  Great books ", description: "Read them", private: true }), "resource_patch");
    expect(result).toEqual({
      ...(await show()),
      name: "Great books",
      description: "Read them",
      private: true,
    });
    expect(result).toMatchObject({ id: R, name: "Great books", datastore_active: true, row_count: 6, aliases: [ALIAS] });
    // private now: anonymous callers may not see it, and the picker's search no longer lists it
    denied(await call("resource_show", { id: R }));
    expect(ok(await call("resource_search", { query: "name:great" })).count).toBe(0);
    expect(ok(await admin("resource_search", { query: "name:great" })).results.map((r: { id: string }) => r.id)).toEqual([R]);
  });

  it("changes only what it is given", async () => {
    ok(await patch({ description: "" }));
    expect(await show()).toMatchObject({ name: "books", description: "", private: false });
    ok(await patch({ name: "renamed" }));
    expect(await show()).toMatchObject({ name: "renamed", description: "", private: false });
    // no change at all is an answer too
    expect(ok(await patch({}))).toMatchObject({ name: "renamed" });
  });

  it("takes private as CKAN's boolean words", async () => {
    for (const [value, want] of [["true", true], ["False", false], ["yes", true], ["0", false], [true, true], [false, false]] as const) {
      expect(ok(await patch({ private: value })).private).toBe(want);
    }
  });

  it("ignores keys it cannot store (a whole resource dict sent back)", async () => {
    const dict = await show();
    const result = ok(await patch({ ...dict, name: "again", url: "http://elsewhere", format: "XLS", extra_key: "x", row_count: 99 }));
    expect(result).toMatchObject({ name: "again", format: "CSV", row_count: 6, url: dict.url });
    expect(result).not.toHaveProperty("extra_key");
  });

  it("answers 409 with a message per bad value, and changes nothing", async () => {
    const before = await storeChecksum();
    fails(await patch({ name: "", description: 5, private: "maybe" }), 409, {
      name: ["Missing value"],
      description: ["Must be a string"],
      private: ["Must be true or false"],
    }, "resource_patch");
    fails(await patch({ name: "   " }), 409, { name: ["Missing value"] });
    fails(await patch({ name: null }), 409, { name: ["Missing value"] });
    fails(await patch({ name: 5 }), 409, { name: ["Must be a string"] });
    fails(await patch({ name: "x".repeat(201) }), 409, { name: ["Must be at most 200 characters long"] });
    fails(await patch({ name: "fine", private: null }), 409, { private: ["Must be true or false"] });
    fails(await patch({ name: "fine", private: 2 }), 409, { private: ["Must be true or false"] });
    fails(await patch({ description: "x".repeat(10_001) }), 409, { description: ["Must be at most 10000 characters long"] });
    expect(await storeChecksum()).toBe(before);
    expect(await show()).toMatchObject({ name: "books", description: "Some books", private: false });
  });

  it("needs an id, 409 even anonymously", async () => {
    fails(await call("resource_patch", { name: "x" }), 409, { id: ["Missing value"] }, "resource_patch");
    fails(await admin("resource_patch", { id: "", name: "x" }), 409, { id: ["Missing value"] });
  });

  it("needs write scope", async () => {
    denied(await call("resource_patch", { id: R, name: "x" }));
    denied(await call("resource_patch", { id: R, name: "x" }, { token: await token("read") }));
    // anonymous on an unknown id: 403, not 404 (no probing for ids)
    denied(await call("resource_patch", { id: "missing", name: "x" }));
    expect((await show()).name).toBe("books");
    expect(ok(await call("resource_patch", { id: R, name: "x" }, { token: await token("write") })).name).toBe("x");
  });

  it("answers 404 for an unknown id and for an alias (writes need the real id)", async () => {
    notFound(await admin("resource_patch", { id: "missing", name: "x" }));
    notFound(await admin("resource_patch", { id: ALIAS, name: "x" }));
    expect((await show()).name).toBe("books");
  });

  it("is POST only, as CKAN", async () => {
    badRequest(await call("resource_patch", { id: R, name: "x" }, { method: "GET", token: ADMIN }), GET_USE_POST);
    expect((await show()).name).toBe("books");
  });

  it("edits a resource whose table was dropped", async () => {
    ok(await admin("datastore_delete", { resource_id: R }));
    expect(ok(await patch({ name: "tableless" }))).toMatchObject({ name: "tableless", datastore_active: false });
  });

  it("does not require names to be unique (CKAN does not)", async () => {
    const other = await createBooks();
    expect(ok(await patch({ name: "shared" })).name).toBe("shared");
    expect(ok(await admin("resource_patch", { id: other, name: "shared" })).name).toBe("shared");
  });
});

describe("the data dictionary through datastore_create", () => {
  const dictionary = (fields: unknown[]) => admin("datastore_create", { resource_id: R, fields });

  it("sets a field's label and notes without touching rows, seen by datastore_info and datastore_search", async () => {
    ok(await dictionary([{ id: "author", info: { label: "Written by", notes: "The **author**" } }]), "datastore_create");
    const info = { label: "Written by", notes: "The **author**" };
    expect(await fieldsOf()).toEqual([
      { id: "title", info: { label: "Title" } },
      { id: "author", info },
      { id: "year", info: undefined },
      { id: "rating", info: undefined },
      { id: "in_stock", info: undefined },
      { id: "updated", info: undefined },
      { id: "tags", info: undefined },
      { id: "meta", info: undefined },
      { id: "note", info: undefined },
    ]);
    const found = await search({ resource_id: R, sort: "_id" });
    expect(found.fields.find((f: { id: string }) => f.id === "author")).toEqual({ id: "author", type: "text", info });
    expect(found.records).toEqual(BOOK_ROWS);
    expect(found.total).toBe(6);
    // anonymous readers (CKAN clients) see it too
    expect(ok(await call("datastore_info", { resource_id: R })).fields[1].info).toEqual(info);
  });

  it("replaces a field's info as a whole, as CKAN does; the client keeps other keys by sending them", async () => {
    ok(await dictionary([{ id: "title", type: "text", info: { notes: "The title" } }]));
    expect((await fieldsOf())[0]).toEqual({ id: "title", info: { notes: "The title" } });
    ok(await dictionary([{ id: "year", info: { type_override: "text", label: "Year" } }]));
    ok(await dictionary([{ id: "year", info: { type_override: "text", label: "Published", notes: "" } }]));
    expect((await fieldsOf())[2]).toEqual({ id: "year", info: { type_override: "text", label: "Published", notes: "" } });
    expect((await fieldsOf())[0]).toEqual({ id: "title", info: { notes: "The title" } });
  });

  it("answers 409 for info that is not a dict, and changes nothing", async () => {
    const before = await storeChecksum();
    fails(await dictionary([{ id: "author", info: "label" }]), 409, { info: ['invalid value "label"'] });
    fails(await dictionary([{ id: "author", info: { label: "A" } }, { id: "title", info: [1] }]), 409, { info: ["invalid value [1]"] });
    expect(await storeChecksum()).toBe(before);
  });

  it("needs write scope", async () => {
    denied(await call("datastore_create", { resource_id: R, fields: [{ id: "author", info: { label: "A" } }] }, { token: await token("read") }));
    ok(await call("datastore_create", { resource_id: R, fields: [{ id: "author", info: { label: "A" } }] }, { token: await token("write") }));
    expect((await fieldsOf())[1]).toEqual({ id: "author", info: { label: "A" } });
  });
});

describe("resource_delete", () => {
  it("removes the resource, its table and aliases; answers null", async () => {
    const other = await createBooks();
    const writer = await token("write");
    expect(ok(await call("resource_delete", { id: R }, { token: writer }), "resource_delete")).toBeNull();
    notFound(await admin("resource_show", { id: R }));
    notFound(await admin("datastore_search", { resource_id: R }));
    notFound(await admin("datastore_info", { resource_id: ALIAS }));
    const listed = ok(await admin("resource_search", {})).results.map((r: { id: string }) => r.id);
    expect(listed).toContain(other);
    expect(listed).not.toContain(R);
    // the rest stays: the other resource, its rows, and tokens
    expect((await search({ resource_id: other, limit: 0 })).total).toBe(6);
    expect(ok(await call("resource_patch", { id: other, name: "still here" }, { token: writer })).name).toBe("still here");
  });

  it("frees the id and the aliases to be created again", async () => {
    ok(await admin("resource_delete", { id: R }));
    ok(await admin("datastore_create", { resource_id: R, fields: [{ id: "x", type: "int" }], records: [{ x: 1 }], aliases: ALIAS }));
    expect(await show()).toMatchObject({ id: R, name: R, row_count: 1, datastore_active: true, aliases: [ALIAS] });
    expect((await search({ resource_id: ALIAS })).records).toEqual([{ _id: 1, x: 1 }]);
  });

  it("removes a resource whose table was already dropped", async () => {
    ok(await admin("datastore_delete", { resource_id: R }));
    expect((await show()).datastore_active).toBe(false);
    expect(ok(await admin("resource_delete", { id: R }))).toBeNull();
    notFound(await admin("resource_show", { id: R }));
  });

  it("needs an id (409 even anonymously), write scope (403), the real id (404); refused changes nothing", async () => {
    denied(await call("resource_delete", { id: R }, { token: await token("read") }));
    const before = await storeChecksum();
    fails(await call("resource_delete", {}), 409, { id: ["Missing value"] }, "resource_delete");
    denied(await call("resource_delete", { id: R }));
    denied(await call("resource_delete", { id: "missing" }));
    notFound(await admin("resource_delete", { id: "missing" }));
    notFound(await admin("resource_delete", { id: ALIAS }));
    badRequest(await call("resource_delete", { id: R }, { method: "GET", token: ADMIN }), GET_USE_POST);
    expect(await storeChecksum()).toBe(before);
    expect((await show()).row_count).toBe(6);
  });
});
