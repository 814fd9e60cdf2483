// Contract §4–§5: datastore_upsert (insert / update / upsert, keys, all-or-nothing,
// dry_run) and datastore_delete / datastore_records_delete.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, createBooks, denied, fails, ids, invalid, notFound, ok, rowError, search, token } from "../test/contract";

let R: string;
let ALIAS: string;
let tables = 0;

// One store for the file (over HTTP, one server), and a books table of its own for each test.
beforeAll(() => {
  freshDb();
});

beforeEach(async () => {
  ALIAS = `books_alias_${++tables}`;
  R = await createBooks({ primary_key: "title", aliases: ALIAS });
});

const upsert = (params: Record<string, unknown>) => admin("datastore_upsert", { resource_id: R, ...params });
const rows = async (fields = ["_id", "title", "year"]) => (await search({ resource_id: R, fields, sort: "_id" })).records;
const count = async () => (await search({ resource_id: R, limit: 0 })).total;

describe("datastore_upsert parameters", () => {
  it("answers 409 Missing value without resource_id, even anonymously", async () => {
    fails(await call("datastore_upsert", { records: [] }), 409, { resource_id: ["Missing value"] }, "datastore_upsert");
    fails(await call("datastore_upsert", { resource_id: "", records: [] }), 409, { resource_id: ["Missing value"] });
  });

  it("answers 404 for an unknown id and for an alias (writes need the real id)", async () => {
    notFound(await admin("datastore_upsert", { resource_id: "missing", records: [] }));
    notFound(await admin("datastore_upsert", { resource_id: ALIAS, records: [] }));
  });

  it("accepts id as a synonym", async () => {
    expect(ok(await admin("datastore_upsert", { id: R, method: "insert", records: [{ title: "x" }] })).resource_id).toBe(R);
    expect((await rows()).at(-1)).toEqual({ _id: 7, title: "x", year: null });
  });

  it("answers 409 for an unknown method", async () => {
    fails(await upsert({ method: "replace", records: [] }), 409, { method: [expect.stringMatching(/^Value must be one of/)] });
  });

  it("does nothing for empty or missing records", async () => {
    expect(ok(await upsert({ records: [] }), "datastore_upsert")).toEqual({ resource_id: R, records: [] });
    ok(await upsert({}));
    expect(await count()).toBe(6);
  });

  it("answers 409 records for records that are not a list of objects", async () => {
    invalid(await upsert({ records: { title: "x" } }), "records");
    invalid(await upsert({ records: [{ title: "x" }, 5] }), "records");
    invalid(await upsert({ records: "x" }), "records");
  });

  it("needs write scope", async () => {
    denied(await call("datastore_upsert", { resource_id: R, records: [] }));
    denied(await call("datastore_upsert", { resource_id: R, records: [] }, { token: await token("read") }));
    ok(await call("datastore_upsert", { resource_id: R, records: [] }, { token: await token("write") }));
  });
});

describe("method: insert", () => {
  it("inserts with new _ids and echoes the request", async () => {
    const records = [{ title: "New", year: "2020" }];
    expect(ok(await upsert({ method: "insert", records }))).toEqual({ resource_id: R, method: "insert", records });
    expect((await rows()).at(-1)).toEqual({ _id: 7, title: "New", year: 2020 });
  });

  it("answers 409 records for an unknown key, with a 1-based row", async () => {
    fails(await upsert({ method: "insert", records: [{ title: "a" }, { title: "b", nope: 1 }] }), 409, {
      records: ['row "2" has extra keys "nope"'],
    });
  });

  it("answers 409 records for a duplicate key", async () => {
    const res = await upsert({ method: "insert", records: [{ title: "War and Peace" }] });
    fails(res, 409, { records: [expect.stringMatching(/^duplicate key value violates unique constraint/)], records_row: 0 });
  });

  it("does not need a key", async () => {
    // Without a key, a title already there is just another row.
    const id = await createBooks();
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "War and Peace" }] }));
    expect(await ids({ resource_id: id, filters: { title: "War and Peace" } })).toEqual([1, 7]);
  });
});

describe("method: update", () => {
  it("updates by primary key, only the columns given", async () => {
    ok(await upsert({ method: "update", records: [{ title: "Anna Karenina", year: 1878 }] }));
    expect((await search({ resource_id: R, filters: { _id: 2 } })).records[0]).toMatchObject({ title: "Anna Karenina", year: 1878, author: "Tolstoy", rating: 4.2 });
  });

  it("updates by _id, given as a number or a string", async () => {
    ok(await upsert({ method: "update", records: [{ _id: 1, year: 1 }, { _id: "2", year: 2 }] }));
    expect((await rows()).slice(0, 2)).toEqual([
      { _id: 1, title: "War and Peace", year: 1 },
      { _id: 2, title: "Anna Karenina", year: 2 },
    ]);
  });

  it("sets NULL for a key given as null", async () => {
    ok(await upsert({ method: "update", records: [{ title: "War and Peace", year: null, tags: null }] }));
    expect((await search({ resource_id: R, filters: { _id: 1 }, fields: ["year", "tags", "author"] })).records).toEqual([
      { year: null, tags: null, author: "Tolstoy" },
    ]);
  });

  it("keeps the full-text index in step", async () => {
    ok(await upsert({ method: "update", records: [{ title: "War and Peace", author: "Leo" }] }));
    expect(await ids({ resource_id: R, q: "tolstoy" })).toEqual([2]);
    expect(await ids({ resource_id: R, q: "leo" })).toEqual([1]);
  });

  it("answers 409 key when a key field is missing", async () => {
    fails(await upsert({ method: "update", records: [{ year: 1 }] }), 409, { key: ['fields "title" are missing but needed as key'] });
  });

  it("answers 409 table without a key or _id", async () => {
    const id = await createBooks();
    fails(await admin("datastore_upsert", { resource_id: id, method: "update", records: [{ title: "x" }] }), 409, {
      table: ["unique key must be passed for update/upsert"],
    });
    fails(await admin("datastore_upsert", { resource_id: id, records: [{ title: "x" }] }), 409, {
      table: ["unique key must be passed for update/upsert"],
    });
  });

  it("answers 409 key when no row matches", async () => {
    invalid(await upsert({ method: "update", records: [{ title: "Nope", year: 1 }] }), "key");
    invalid(await upsert({ method: "update", records: [{ _id: 99, year: 1 }] }), "key");
  });

  it("answers 409 fields for an unknown key", async () => {
    fails(await upsert({ method: "update", records: [{ title: "War and Peace", nope: 1 }] }), 409, { fields: ['fields "nope" do not exist'] });
  });

  it("answers 409 for a value the column cannot hold", async () => {
    rowError(await upsert({ method: "update", records: [{ title: "War and Peace", year: "abc" }] }), 0);
    rowError(await upsert({ method: "update", records: [{ _id: "abc", year: 1 }] }), 0);
  });
});

describe("method: upsert (the default)", () => {
  it("updates a matching row and inserts a new one", async () => {
    const records = [
      { title: "War and Peace", year: 1870 },
      { title: "Brand New", year: 2024 },
    ];
    expect(ok(await upsert({ records }))).toEqual({ resource_id: R, records });
    expect(await rows()).toEqual([
      { _id: 1, title: "War and Peace", year: 1870 },
      { _id: 2, title: "Anna Karenina", year: 1877 },
      { _id: 3, title: "One Hundred Years of Solitude", year: 1967 },
      { _id: 4, title: "The Old Man and the Sea", year: 1952 },
      { _id: 5, title: "25", year: null },
      { _id: 6, title: "100% Done_right", year: 2001 },
      { _id: 7, title: "Brand New", year: 2024 },
    ]);
  });

  it("echoes the method when given", async () => {
    expect(ok(await upsert({ method: "upsert", records: [] }))).toEqual({ resource_id: R, method: "upsert", records: [] });
  });

  it("answers 409 key when a key field is missing", async () => {
    invalid(await upsert({ records: [{ year: 1 }] }), "key");
  });
});

describe("all or nothing", () => {
  it("applies no record when a later one fails", async () => {
    const res = await upsert({ records: [{ title: "War and Peace", year: 1 }, { title: "New" }, { title: "Bad", year: "x" }] });
    rowError(res, 2);
    expect(await count()).toBe(6);
    expect((await rows())[0]).toEqual({ _id: 1, title: "War and Peace", year: 1869 });
    expect(await ids({ resource_id: R, q: "new" })).toEqual([]);
  });

  it("rolls back a dry run after doing everything", async () => {
    const r = ok(await upsert({ dry_run: true, records: [{ title: "War and Peace", year: 1 }, { title: "New" }] }));
    expect(r.resource_id).toBe(R);
    expect(await count()).toBe(6);
    expect((await rows())[0]).toEqual({ _id: 1, title: "War and Peace", year: 1869 });
    rowError(await upsert({ dry_run: true, records: [{ title: "x", year: "abc" }] }), 0);
  });
});

describe("datastore_delete", () => {
  it("drops the table, its aliases and dictionary without filters", async () => {
    expect(ok(await admin("datastore_delete", { resource_id: R }), "datastore_delete")).toEqual({ resource_id: R });
    notFound(await call("datastore_search", { resource_id: R }));
    notFound(await call("datastore_search", { resource_id: ALIAS }));
    notFound(await call("datastore_info", { resource_id: R }));
    notFound(await admin("datastore_upsert", { resource_id: R, records: [] }));
    notFound(await admin("datastore_delete", { resource_id: R }));
    notFound(await admin("datastore_records_delete", { resource_id: R, filters: {} }));
    // the alias is free again
    ok(await admin("datastore_create", { resource: { name: "again" }, aliases: ALIAS }));
    // and a new table under the same id starts with no trace of the old fields or their info
    ok(await admin("datastore_create", { resource_id: R, fields: [{ id: "title", type: "int" }] }));
    expect((await search({ resource_id: R })).fields).toEqual([{ id: "_id", type: "int" }, { id: "title", type: "int4" }]);
    expect(await count()).toBe(0);
  });

  it("treats filters: null as no filters", async () => {
    ok(await admin("datastore_delete", { resource_id: R, filters: null }));
    notFound(await call("datastore_search", { resource_id: R }));
  });

  it("deletes matching rows with filters, keeping the table", async () => {
    expect(ok(await admin("datastore_delete", { resource_id: R, filters: { author: "Tolstoy" } }))).toEqual({
      resource_id: R,
      filters: { author: "Tolstoy" },
    });
    expect(await ids({ resource_id: R })).toEqual([3, 4, 5, 6]);
    expect(await ids({ resource_id: R, q: "tolstoy" })).toEqual([]);
    expect(ok(await admin("datastore_info", { resource_id: R })).meta.count).toBe(4);
  });

  it("uses search's filter semantics: lists, casts, _id, null", async () => {
    ok(await admin("datastore_delete", { resource_id: R, filters: { year: ["1869", 1952], _id: [1, 2, 4] } }));
    expect(await ids({ resource_id: R })).toEqual([2, 3, 5, 6]);
    ok(await admin("datastore_delete", { resource_id: R, filters: { year: null } }));
    expect(await ids({ resource_id: R })).toEqual([2, 3, 5, 6]);
  });

  it("empties the table with {}", async () => {
    expect(ok(await admin("datastore_delete", { resource_id: R, filters: {} }))).toEqual({ resource_id: R, filters: {} });
    expect(await count()).toBe(0);
    ok(await call("datastore_search", { resource_id: ALIAS }));
  });

  it("answers 409 filters for filters that are not an object", async () => {
    for (const filters of [[1], "abc", 5, true]) {
      fails(await admin("datastore_delete", { resource_id: R, filters }), 409, { filters: ["filters must be either a dict or null."] });
    }
    expect(await count()).toBe(6);
  });

  it("answers 409 for an unknown field or a value the column cannot hold", async () => {
    invalid(await admin("datastore_delete", { resource_id: R, filters: { nope: 1 } }), "filters");
    invalid(await admin("datastore_delete", { resource_id: R, filters: { year: "old" } }), "query");
    expect(await count()).toBe(6);
  });

  it("answers 409 without resource_id, 403 anonymously, 404 for an alias", async () => {
    invalid(await call("datastore_delete", {}), "resource_id");
    denied(await call("datastore_delete", { resource_id: R }));
    denied(await call("datastore_delete", { resource_id: R }, { token: await token("read") }));
    notFound(await admin("datastore_delete", { resource_id: ALIAS }));
    expect(await count()).toBe(6);
  });
});

describe("datastore_records_delete", () => {
  it("answers 409 Missing value without filters", async () => {
    fails(await admin("datastore_records_delete", { resource_id: R }), 409, { filters: ["Missing value"] }, "datastore_records_delete");
    fails(await admin("datastore_records_delete", { resource_id: R, filters: null }), 409, { filters: ["Missing value"] });
  });

  it("answers 409 Must be a dict for filters that are not an object", async () => {
    for (const filters of [[1], "abc", 5]) {
      fails(await admin("datastore_records_delete", { resource_id: R, filters }), 409, { filters: ["Must be a dict"] });
    }
  });

  it("accepts id as a synonym", async () => {
    expect(ok(await admin("datastore_records_delete", { id: R, filters: { _id: 1 } }))).toEqual({ resource_id: R, filters: { _id: 1 } });
    expect(ok(await admin("datastore_delete", { id: R, filters: { _id: 2 } }))).toEqual({ resource_id: R, filters: { _id: 2 } });
    expect(await ids({ resource_id: R })).toEqual([3, 4, 5, 6]);
  });

  it("deletes matching rows and never drops the table", async () => {
    expect(ok(await admin("datastore_records_delete", { resource_id: R, filters: { _id: 1 } }))).toEqual({ resource_id: R, filters: { _id: 1 } });
    expect(await ids({ resource_id: R })).toEqual([2, 3, 4, 5, 6]);
    ok(await admin("datastore_records_delete", { resource_id: R, filters: {} }));
    expect(await count()).toBe(0);
    ok(await admin("datastore_info", { resource_id: R }));
  });

  it("answers 409 for unknown fields and bad values, 403 anonymously", async () => {
    invalid(await admin("datastore_records_delete", { resource_id: R, filters: { nope: 1 } }), "filters");
    invalid(await admin("datastore_records_delete", { resource_id: R, filters: { in_stock: "maybe" } }), "query");
    denied(await call("datastore_records_delete", { resource_id: R, filters: {} }));
    expect(await count()).toBe(6);
  });
});
