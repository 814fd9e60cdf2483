// Saved views (docs/api.md "Saved views"): datastore_view_create / _show / _list / _patch /
// _delete, who may see and change a view, a view of a private resource, a view by its
// resource's id through an alias renamed, and fields gone since it was saved.
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb } from "../test/api";
import { admin, BOOK_FIELDS, createBooks, denied, fails, invalid, notFound, ok, token } from "../test/contract";

let BOOKS: string;
let PRIVATE: string;
let writer: string;
let otherWriter: string;
let reader: string;

beforeAll(async () => {
  freshDb();
  BOOKS = await createBooks({ aliases: ["library"] });
  PRIVATE = await createBooks({}, true);
  [writer, otherWriter, reader] = await Promise.all([token("write"), token("write"), token("read")]);
});

const create = (params: Record<string, unknown>, auth = writer) => call("datastore_view_create", params, { token: auth });
const show = (id: string, auth?: string) => call("datastore_view_show", { id }, { token: auth });
const list = (params: Record<string, unknown> = {}, auth?: string) => call("datastore_view_list", params, { token: auth });
const names = (result: { name: string }[]) => result.map((v) => v.name);

describe("datastore_view_create and datastore_view_show", () => {
  it("saves a view's search, filters, sort, columns, tab and the tab's settings, and shows it by id", async () => {
    const saved = ok(
      await create({
        resource_id: BOOKS,
        name: "  Tolstoy by year ",
        description: "Russian classics",
        q: "war",
        filters: { author: "Tolstoy" },
        sort: "year desc",
        fields: ["title", "year"],
        tab: "chart",
        chart: "line",
        x: "year",
        y: "rating",
        agg: "avg",
      }),
      "datastore_view_create",
    );
    expect(saved).toEqual({
      id: expect.stringMatching(/^[\w-]{8,}$/),
      resource_id: BOOKS,
      name: "Tolstoy by year",
      description: "Russian classics",
      private: false,
      owner: "write token",
      created: expect.any(String),
      modified: saved.created,
      q: "war",
      filters: { author: "Tolstoy" },
      sort: "year desc",
      fields: ["title", "year"],
      tab: "chart",
      chart: "line",
      x: "year",
      y: "rating",
      agg: "avg",
      missing_fields: [],
      query: `resource_id=${BOOKS}&q=war&filters=%7B%22author%22%3A%22Tolstoy%22%7D&sort=year+desc&fields=title%2Cyear&view=chart&chart=line&x=year&y=rating&agg=avg`,
    });
    expect(ok(await show(saved.id), "datastore_view_show")).toEqual(saved);
    // GET, as a read action
    expect(ok(await call("datastore_view_show", { id: saved.id }, { method: "GET" }))).toEqual(saved);
  });

  it("takes the explorer's spellings: filters as JSON text, fields as a comma string, and defaults the rest", async () => {
    const saved = ok(await create({ resource_id: BOOKS, name: "plain", filters: '{"year": {"gte": 1900}}', fields: "title,author" }));
    expect(saved).toMatchObject({ q: "", filters: { year: { gte: 1900 } }, sort: "", fields: ["title", "author"], tab: "table", description: "" });
  });

  it("keeps any tab's settings, the pivot's too, as the URL holds them", async () => {
    const saved = ok(await create({ resource_id: BOOKS, name: "pivot", tab: "pivot", rows: "author", columns: "in_stock", measure: "avg:rating" }));
    expect(saved).toMatchObject({ tab: "pivot", rows: "author", columns: "in_stock", measure: "avg:rating", missing_fields: [] });
    expect(saved.query).toBe(`resource_id=${BOOKS}&view=pivot&rows=author&columns=in_stock&measure=avg%3Arating`);
  });

  it("needs write scope", async () => {
    fails(await call("datastore_view_create", { resource_id: BOOKS, name: "x" }), 403, {
      message: "Access denied: Action datastore_view_create requires an authenticated user",
    });
    fails(await create({ resource_id: BOOKS, name: "x" }, reader), 403, { message: "Access denied: Action datastore_view_create requires a token with write scope" });
  });

  it("names every missing or bad parameter in one 409", async () => {
    invalid(await create({}), "resource_id", "name");
    invalid(await create({ resource_id: BOOKS, name: " " }), "name");
    invalid(await create({ resource_id: BOOKS, name: "x", tab: "nope" }), "tab");
    invalid(await create({ resource_id: BOOKS, name: "x", filters: "{not json" }), "filters");
    invalid(await create({ resource_id: BOOKS, name: "x", q: { a: 1 }, description: 5 }), "q", "description");
    invalid(await create({ resource_id: BOOKS, name: "x".repeat(201) }), "name");
  });

  it("refuses fields the resource does not have, naming the parameter and the field", async () => {
    fails(await create({ resource_id: BOOKS, name: "x", fields: ["title", "nope"], sort: "gone desc", x: "zz" }), 409, {
      fields: ['field "nope" does not exist'],
      sort: ['field "gone" does not exist'],
      x: ['field "zz" does not exist'],
    });
    invalid(await create({ resource_id: BOOKS, name: "x", filters: { nope: 1 } }), "filters");
  });

  it("404 for an unknown resource or view", async () => {
    notFound(await create({ resource_id: "no-such-resource", name: "x" }));
    notFound(await show("no-such-view"));
    invalid(await call("datastore_view_show", {}), "id");
  });
});

describe("a view refers to its resource by id", () => {
  it("keeps working when the alias it was saved through is renamed", async () => {
    const saved = ok(await create({ resource_id: "library", name: "via alias", filters: { author: "Hemingway" } }));
    expect(saved.resource_id).toBe(BOOKS);
    ok(await admin("datastore_create", { resource_id: BOOKS, aliases: ["bookshelf"] }));
    notFound(await call("datastore_search", { resource_id: "library" }));
    const shown = ok(await show(saved.id));
    expect(shown).toMatchObject({ resource_id: BOOKS, filters: { author: "Hemingway" }, missing_fields: [] });
    expect(names(ok(await list({ resource_id: "bookshelf" })))).toContain("via alias");
  });

  it("goes with its resource", async () => {
    const id = await createBooks();
    const saved = ok(await create({ resource_id: id, name: "doomed" }));
    ok(await admin("resource_delete", { id }));
    notFound(await show(saved.id));
    expect(names(ok(await list()))).not.toContain("doomed");
  });
});

describe("fields dropped since", () => {
  it("says which, and opens with the rest", async () => {
    const id = await createBooks();
    const saved = ok(
      await create({ resource_id: id, name: "wide", fields: ["title", "note", "year"], sort: "note, year desc", filters: { note: "x", author: "Tolstoy" }, tab: "chart", x: "note", y: "year" }),
    );
    ok(await admin("datastore_create", { resource_id: id, fields: BOOK_FIELDS.filter((f) => f.id !== "note"), delete_fields: true }));
    const shown = ok(await show(saved.id));
    expect(shown.missing_fields).toEqual(["note"]);
    // the view itself is kept as saved: the field may come back
    expect(shown.fields).toEqual(["title", "note", "year"]);
    const opened = new URLSearchParams(shown.query);
    expect(Object.fromEntries(opened)).toEqual({
      resource_id: id,
      filters: JSON.stringify({ author: "Tolstoy" }),
      sort: "year desc",
      fields: "title,year",
      view: "chart",
      y: "year",
    });
  });
});

describe("privacy", () => {
  let privateView: string;
  let viewOfPrivate: string;
  let publicView: string;

  beforeAll(async () => {
    publicView = ok(await create({ resource_id: BOOKS, name: "P public" })).id;
    privateView = ok(await create({ resource_id: BOOKS, name: "P mine", private: true })).id;
    viewOfPrivate = ok(await create({ resource_id: PRIVATE, name: "P of a private resource" })).id;
  });

  it("a view of a private resource is private by default and needs a token that may read it", async () => {
    expect(ok(await show(viewOfPrivate, writer)).private).toBe(true);
    denied(await show(viewOfPrivate));
    denied(await list({ resource_id: PRIVATE }));
    // made public, it is seen by every token that reads the resource, never anonymously
    ok(await call("datastore_view_patch", { id: viewOfPrivate, private: false }, { token: writer }));
    expect(ok(await show(viewOfPrivate, reader)).name).toBe("P of a private resource");
    denied(await show(viewOfPrivate));
    expect(names(ok(await list({}, reader)))).toContain("P of a private resource");
    expect(names(ok(await list({})))).not.toContain("P of a private resource");
  });

  it("a private view is seen only by the token that saved it and admins", async () => {
    expect(ok(await show(privateView, writer)).name).toBe("P mine");
    expect(ok(await show(privateView, ADMIN)).name).toBe("P mine");
    for (const other of [undefined, reader, otherWriter]) {
      fails(await show(privateView, other), 403, { message: expect.stringMatching(/^Access denied: User not authorized to read this view/) });
      expect(names(ok(await list({ resource_id: BOOKS }, other)))).not.toContain("P mine");
      expect(names(ok(await list({}, other)))).not.toContain("P mine");
    }
    expect(names(ok(await list({ resource_id: BOOKS }, writer)))).toEqual(expect.arrayContaining(["P mine", "P public"]));
  });

  it("lists a resource's views by name, anonymously the public ones", async () => {
    const shown = names(ok(await list({ resource_id: BOOKS }), "datastore_view_list"));
    expect(shown).toContain("P public");
    expect(shown).toEqual([...shown].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    notFound(await list({ resource_id: "no-such-resource" }));
    expect(publicView).toBeTruthy();
  });
});

describe("datastore_view_patch and datastore_view_delete", () => {
  it("the owner changes what it gives and keeps the rest", async () => {
    const saved = ok(await create({ resource_id: BOOKS, name: "before", q: "war", sort: "year", tab: "map", lat: "year", lon: "rating" }));
    const patched = ok(await call("datastore_view_patch", { id: saved.id, name: "after", q: "peace", lat: null, lon: null, tab: "table" }, { token: writer }), "datastore_view_patch");
    expect(patched).toMatchObject({ id: saved.id, name: "after", q: "peace", sort: "year", tab: "table", created: saved.created });
    expect(patched).not.toHaveProperty("lat");
    expect(ok(await show(saved.id))).toEqual(patched);
    invalid(await call("datastore_view_patch", { id: saved.id, name: "" }, { token: writer }), "name");
    invalid(await call("datastore_view_patch", { id: saved.id, fields: ["nope"] }, { token: writer }), "fields");
    invalid(await call("datastore_view_patch", { id: saved.id, resource_id: PRIVATE }, { token: writer }), "resource_id");
    invalid(await call("datastore_view_patch", {}, { token: writer }), "id");
  });

  it("only its owner and admins change or delete a view", async () => {
    const saved = ok(await create({ resource_id: BOOKS, name: "guarded" }));
    for (const [auth, message] of [
      [undefined, "Access denied: Action datastore_view_patch requires an authenticated user"],
      [reader, "Access denied: Action datastore_view_patch requires a token with write scope"],
      [otherWriter, "Access denied: User not authorized to change this view (only its owner or an admin may)"],
    ] as const) {
      fails(await call("datastore_view_patch", { id: saved.id, name: "taken" }, { token: auth }), 403, { message });
    }
    fails(await call("datastore_view_delete", { id: saved.id }, { token: otherWriter }), 403, {
      message: "Access denied: User not authorized to delete this view (only its owner or an admin may)",
    });
    expect(ok(await call("datastore_view_patch", { id: saved.id, description: "by admin" }, { token: ADMIN })).description).toBe("by admin");
    expect(ok(await call("datastore_view_delete", { id: saved.id }, { token: writer }), "datastore_view_delete")).toBeNull();
    notFound(await show(saved.id));
    notFound(await call("datastore_view_delete", { id: saved.id }, { token: writer }));
  });

  it("POST only, as every write", async () => {
    const res = await call("datastore_view_delete", { id: "x" }, { method: "GET", token: writer });
    expect(res.status).toBe(400);
  });
});
