// Contract §2–§3: datastore_create — both ways to name the resource, field and type rules,
// type guessing, keys, indexes, aliases, altering tables, the echo, and all-or-nothing.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { call, freshDb } from "../test/api";
import { admin, BOOK_FIELDS, BOOK_ROWS, createBooks, denied, fails, ids, invalid, notFound, ok, rowError, search, token } from "../test/contract";

beforeAll(() => {
  freshDb();
});

const create = (params: Record<string, unknown>) => admin("datastore_create", params);
const created = async (params: Record<string, unknown>) => ok(await create(params), "datastore_create");
const fieldsOf = async (id: string) => (await search({ resource_id: id, limit: 0 })).fields;
const count = async (id: string) => (await search({ resource_id: id, limit: 0 })).total;
const resourceCount = async () => ok(await admin("resource_search", {})).count;

describe("naming the resource", () => {
  it("creates a resource from `resource` and returns its new id", async () => {
    const r = await created({ resource: { name: "Books", description: "d" }, fields: [{ id: "a", type: "int" }] });
    expect(r.resource_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ok(await admin("resource_show", { id: r.resource_id }))).toMatchObject({ id: r.resource_id, name: "Books", description: "d", datastore_active: true, private: false });
  });

  it("creates a resource for an unknown resource_id (or id)", async () => {
    const id = randomUUID();
    expect((await created({ resource_id: id, fields: [{ id: "a" , type: "text"}] })).resource_id).toBe(id);
    const id2 = randomUUID();
    expect((await created({ id: id2, fields: [{ id: "a", type: "text" }] })).resource_id).toBe(id2);
    ok(await admin("datastore_info", { id: id2 }));
  });

  it("answers 409 for neither or both", async () => {
    fails(await create({ fields: [] }), 409, { resource_id: ["resource_id or resource required"] }, "datastore_create");
    fails(await create({ resource_id: randomUUID(), resource: { name: "x" } }), 409, { resource: ["resource cannot be used with resource_id"] });
  });

  it("answers 409 for a resource that is not an object", async () => {
    invalid(await create({ resource: "books" }), "resource");
    invalid(await create({ resource: [] }), "resource");
  });

  it("needs write rights: 403 anonymous and read-only", async () => {
    const before = await resourceCount();
    denied(await call("datastore_create", { resource: { name: "x" } }));
    denied(await call("datastore_create", { resource: { name: "x" } }, { token: "not-a-token" }));
    denied(await call("datastore_create", { resource: { name: "x" } }, { token: await token("read") }));
    expect(await resourceCount()).toBe(before);
    ok(await call("datastore_create", { resource: { name: "x" } }, { token: await token("write") }));
    expect(await resourceCount()).toBe(before + 1);
  });
});

describe("field names (§2)", () => {
  it.each(["rating with %", "bük", "it's", "a;b", "CamelCase", "x".repeat(63), "a\"".slice(0, 1), "1st", "with-dash"])(
    "accepts %j",
    async (name) => {
      const r = await created({ resource: { name: "f" }, fields: [{ id: name, type: "text" }], records: [{ [name]: "v" }] });
      expect((await search({ resource_id: r.resource_id })).records).toEqual([{ _id: 1, [name]: "v" }]);
    },
  );

  it.each(["_x", "", " a", "a ", 'say "hi"', "x".repeat(64), "_id", "_full_text"])("rejects %j with 409 fields", async (name) => {
    fails(await create({ resource: { name: "f" }, fields: [{ id: name, type: "text" }] }), 409, {
      fields: [`"${name}" is not a valid field name`],
    });
  });

  it("rejects non-string ids", async () => {
    invalid(await create({ resource: { name: "f" }, fields: [{ id: 5, type: "text" }] }), "fields");
    invalid(await create({ resource: { name: "f" }, fields: [{ type: "text" }] }), "fields");
  });

  it("keeps names case-sensitive", async () => {
    const r = await created({ resource: { name: "f" }, fields: [{ id: "a", type: "text" }, { id: "A", type: "int" }], records: [{ a: "x", A: 1 }] });
    expect((await search({ resource_id: r.resource_id })).records).toEqual([{ _id: 1, a: "x", A: 1 }]);
  });

  it("rejects a duplicate id with 409 field (singular)", async () => {
    invalid(await create({ resource: { name: "f" }, fields: [{ id: "a", type: "text" }, { id: "a", type: "int" }] }), "field");
  });

  it("answers 400 Integrity Error for fields that are not objects", async () => {
    const params = { resource: { name: "f" }, fields: ["a", "b"] };
    fails(await create(params), 400, { message: expect.any(String), data: params }, "datastore_create");
  });

  it("rejects other non-list fields with 409", async () => {
    invalid(await create({ resource: { name: "f" }, fields: "a,b" }), "fields");
    invalid(await create({ resource: { name: "f" }, fields: { id: "a" } }), "fields");
  });
});

describe("types (§2)", () => {
  it("reports PG type names, and the create result echoes the declared names", async () => {
    const declared = [
      ["t", "text"], ["i", "int"], ["i2", "integer"], ["i4", "int4"], ["b8", "bigint"], ["s", "smallint"],
      ["f", "float"], ["d", "double precision"], ["r", "real"], ["n", "numeric"], ["dec", "decimal"],
      ["bo", "boolean"], ["da", "date"], ["ti", "time"], ["ts", "timestamp"], ["j", "json"],
      ["ta", "text[]"], ["ia", "_int4"], ["fa", "float8[]"], ["i2a", "int[2]"],
    ];
    const r = await created({ resource: { name: "types" }, fields: declared.map(([id, type]) => ({ id, type })) });
    expect(r.fields).toEqual(declared.map(([id, type]) => ({ id, type })));
    expect(await fieldsOf(r.resource_id)).toEqual([
      { id: "_id", type: "int" },
      ...[
        ["t", "text"], ["i", "int4"], ["i2", "int4"], ["i4", "int4"], ["b8", "int8"], ["s", "int2"],
        ["f", "float8"], ["d", "float8"], ["r", "float4"], ["n", "numeric"], ["dec", "numeric"],
        ["bo", "bool"], ["da", "date"], ["ti", "time"], ["ts", "timestamp"], ["j", "json"],
        ["ta", "_text"], ["ia", "_int4"], ["fa", "_float8"], ["i2a", "_int4"],
      ].map(([id, type]) => ({ id, type })),
    ]);
  });

  it.each(["INVALID", "int[", "uuid", "varchar(20)", "timestamptz"])("rejects %j with 409 fields", async (type) => {
    fails(await create({ resource: { name: "t" }, fields: [{ id: "a", type }] }), 409, { fields: [`"${type}" is not a valid field type`] });
  });

  it("stores and renders every type's values", async () => {
    const r = await created({
      resource: { name: "values" },
      fields: [
        { id: "t", type: "text" }, { id: "i", type: "int" }, { id: "n", type: "numeric" }, { id: "b", type: "bool" },
        { id: "d", type: "date" }, { id: "tm", type: "time" }, { id: "ts", type: "timestamp" }, { id: "j", type: "json" },
        { id: "a", type: "text[]" }, { id: "ia", type: "int[]" },
      ],
      records: [
        { t: 42, i: "42", n: "9.99", b: "yes", d: "2012-05-25", tm: "12:42", ts: "2012-10-01T02:43Z", j: { x: [1, null] }, a: ["x", "y"], ia: ["1", 2] },
        { t: "", i: "", n: "", b: "", d: "", tm: "", ts: "", j: null, a: [], ia: "" },
        { t: null, j: "str", a: null },
        { n: 10, b: false, j: 0, ts: "2012-10-01 02:43:00" },
      ],
    });
    expect((await search({ resource_id: r.resource_id })).records).toEqual([
      { _id: 1, t: "42", i: 42, n: 9.99, b: true, d: "2012-05-25", tm: "12:42:00", ts: "2012-10-01T02:43:00", j: { x: [1, null] }, a: ["x", "y"], ia: [1, 2] },
      { _id: 2, t: "", i: null, n: null, b: null, d: null, tm: null, ts: null, j: null, a: [], ia: null },
      { _id: 3, t: null, i: null, n: null, b: null, d: null, tm: null, ts: null, j: "str", a: null, ia: null },
      { _id: 4, t: null, i: null, n: 10, b: false, d: null, tm: null, ts: "2012-10-01T02:43:00", j: 0, a: null, ia: null },
    ]);
  });

  it.each<[string, unknown]>([
    ["int", "abc"],
    ["int", 1.5e10],
    ["numeric", "abc"],
    ["date", "2012-02-30"],
    ["timestamp", "nope"],
    ["bool", 1],
    ["bool", 0],
    ["bool", "maybe"],
    ["time", "25:00"],
    ["text[]", "not a list"],
    ["int[]", ["x"]],
  ])("answers 409 records + records_row for a %s column given %j", async (type, value) => {
    const res = await create({ resource: { name: "bad" }, fields: [{ id: "a", type }], records: [{ a: null }, { a: value }] });
    fails(res, 409, { records: [expect.any(String)], records_row: 1 }, "datastore_create");
  });

  it("words the cast error as PostgreSQL does", async () => {
    const res = await create({ resource: { name: "bad" }, fields: [{ id: "a", type: "int" }], records: [{ a: "abc" }] });
    fails(res, 409, { records: ['invalid input syntax for type integer: "abc"'], records_row: 0 });
  });
});

describe("type guessing (§2)", () => {
  it("guesses from the first record only", async () => {
    const r = await created({
      resource: { name: "guess" },
      records: [
        { obj: { a: 1 }, arr: [1], int: 5, float: 1.5, sint: "51", sfloat: "1.5", date: "2012-05-25", dmy: "25/05/2012", text: "hello", nul: null },
        { obj: "x", arr: null, int: "7", float: 2, sint: 3, sfloat: 4, date: "2013-01-01 10:00:00", dmy: null, text: 5, nul: "x" },
      ],
    });
    expect(await fieldsOf(r.resource_id)).toEqual([
      { id: "_id", type: "int" },
      { id: "obj", type: "json" },
      { id: "arr", type: "json" },
      { id: "int", type: "int4" },
      { id: "float", type: "float8" },
      { id: "sint", type: "int4" },
      { id: "sfloat", type: "numeric" },
      { id: "date", type: "timestamp" },
      { id: "dmy", type: "timestamp" },
      { id: "text", type: "text" },
      { id: "nul", type: "text" },
    ]);
  });

  it("guesses numbers from strings, so a later non-number fails the whole request", async () => {
    const before = await resourceCount();
    const res = await create({ resource: { name: "g" }, records: [{ a: "51" }, { a: "abc" }] });
    fails(res, 409, { records: [expect.any(String)], records_row: 1 });
    expect(await resourceCount()).toBe(before);
  });

  it("guesses int for a JSON boolean, so the boolean itself is refused (as PostgreSQL refuses it)", async () => {
    fails(await create({ resource: { name: "g" }, records: [{ flag: true }] }), 409, { records: [expect.any(String)], records_row: 0 });
    const r = await created({ resource: { name: "g" }, fields: [{ id: "flag" }], records: [{ flag: 1 }] });
    expect(r.fields).toEqual([{ id: "flag", type: "int" }]);
  });

  it("fills guessed types into declared fields without a type, and appends undeclared keys", async () => {
    const r = await created({
      resource: { name: "g" },
      fields: [{ id: "b" }, { id: "a", type: "text" }],
      records: [{ a: "1", b: 2, c: "2012-01-01", d: 1.5 }],
    });
    expect(r.fields).toEqual([
      { id: "b", type: "int" },
      { id: "a", type: "text" },
    ]);
    expect(await fieldsOf(r.resource_id)).toEqual([
      { id: "_id", type: "int" },
      { id: "b", type: "int4" },
      { id: "a", type: "text" },
      { id: "c", type: "timestamp" },
      { id: "d", type: "float8" },
    ]);
  });

  it('answers 409 "type not guessable" for a typeless field missing from the first record', async () => {
    fails(await create({ resource: { name: "g" }, fields: [{ id: "x" }] }), 409, { fields: ['"x" type not guessable'] });
    fails(await create({ resource: { name: "g" }, fields: [{ id: "x" }], records: [{ y: 1 }, { x: 1 }] }), 409, {
      fields: ['"x" type not guessable'],
    });
  });

  it("rejects keys first seen in later records with the 1-based row", async () => {
    const res = await create({ resource: { name: "g" }, records: [{ a: 1 }, { a: 2, x: 3 }] });
    fails(res, 409, { records: ['row "2" has extra keys "x"'] }, "datastore_create");
  });

  it("rejects invalid names among the first record's keys", async () => {
    invalid(await create({ resource: { name: "g" }, records: [{ _x: 1 }] }), "fields");
  });

  it("answers 409 records when a record is not an object", async () => {
    invalid(await create({ resource: { name: "g" }, records: [5] }), "records");
    invalid(await create({ resource: { name: "g" }, records: ["a"] }), "records");
    invalid(await create({ resource: { name: "g" }, records: [{ a: 1 }, [1]] }), "records");
    invalid(await create({ resource: { name: "g" }, records: [{ a: 1 }, null] }), "records");
    invalid(await create({ resource: { name: "g" }, records: { a: 1 } }), "records");
  });
});

describe("all or nothing", () => {
  it("leaves no resource and no rows when a record is bad", async () => {
    const before = await resourceCount();
    const res = await create({ resource: { name: "atomic" }, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }, { a: 2 }, { a: "x" }] });
    rowError(res, 2);
    expect(await resourceCount()).toBe(before);
    const id = randomUUID();
    rowError(await create({ resource_id: id, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }, { a: "x" }] }), 1);
    notFound(await admin("datastore_info", { resource_id: id }));
  });

  it("leaves an existing table as it was: rows, fields and aliases", async () => {
    const id = await createBooks({ aliases: "atomic_books" });
    const res = await create({
      resource_id: id,
      fields: [{ id: "extra", type: "int" }],
      records: [{ title: "ok", extra: 1 }, { title: "bad", extra: "x" }],
      aliases: ["other_alias"],
    });
    rowError(res, 1);
    expect(await count(id)).toBe(6);
    expect((await fieldsOf(id)).map((f: { id: string }) => f.id)).not.toContain("extra");
    expect(ok(await admin("datastore_info", { resource_id: id })).meta.aliases).toEqual(["atomic_books"]);
  });
});

describe("primary_key, indexes and aliases", () => {
  it("accepts a list or a comma string, shown by datastore_info", async () => {
    const fields = [{ id: "a", type: "text" }, { id: "b", type: "int" }, { id: "c", type: "text" }];
    const a = await created({ resource: { name: "pk" }, fields, primary_key: ["a", "b"] });
    expect(a.primary_key).toEqual(["a", "b"]);
    const b = await created({ resource: { name: "pk" }, fields, primary_key: "a,b" });
    for (const r of [a, b]) {
      const info = ok(await admin("datastore_info", { resource_id: r.resource_id }));
      expect(info.fields.map((f: { schema: { is_index: boolean } }) => f.schema.is_index)).toEqual([true, true, false]);
    }
  });

  it("refuses duplicate keys among the records as CKAN does: 409 constraints, nothing created", async () => {
    const res = await create({ resource: { name: "pk-dup" }, fields: [{ id: "a", type: "text" }], primary_key: "a", records: [{ a: "x" }, { a: "x" }] });
    fails(res, 409, {
      constraints: ["Cannot insert records or create index because of uniqueness constraint"],
      info: { orig: expect.stringContaining("Key (a)=(x) is duplicated."), pgcode: "23505" },
    });
    const found = ok(await admin("resource_search", { query: "name:pk-dup" }));
    expect(found.count).toBe(0);
  });

  it("enforces an existing key on inserted records (409 records, naming the row)", async () => {
    const id = await createBooks({ primary_key: "title" });
    rowError(await create({ resource_id: id, records: [{ title: "new one" }, { title: "new one" }] }), 1);
  });

  it("answers 409 for an unknown key field", async () => {
    invalid(await create({ resource: { name: "pk" }, fields: [{ id: "a", type: "text" }], primary_key: "nope" }), "primary_key");
  });

  it("answers 409 constraints when existing rows are duplicates", async () => {
    const id = await createBooks();
    fails(await create({ resource_id: id, primary_key: "author" }), 409, {
      constraints: ["Cannot insert records or create index because of uniqueness constraint"],
      info: { orig: expect.stringMatching(/^could not create unique index/), pgcode: "23505" },
    });
    ok(await create({ resource_id: id, primary_key: "title" }));
  });

  it('replaces the key, and "" removes it', async () => {
    const id = await createBooks({ primary_key: "title" });
    rowError(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "25" }] }), 0);
    ok(await create({ resource_id: id, primary_key: "" }));
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "25" }] }));
    const info = ok(await admin("datastore_info", { resource_id: id }));
    expect(info.fields.find((f: { id: string }) => f.id === "title").schema.is_index).toBe(false);
  });

  it("answers 409 index for an unknown index field; composite indexes are lists", async () => {
    invalid(await create({ resource: { name: "ix" }, fields: [{ id: "a", type: "text" }], indexes: ["nope"] }), "index");
    const ix = ok(await create({ resource: { name: "ix" }, fields: [{ id: "a", type: "text" }, { id: "b", type: "int" }, { id: "c", type: "int" }], indexes: [["a", "b"], "c"] }));
    // One index over a and b together, and one over c.
    expect((await (await getDatastore()).engine.getResource(ix.resource_id))!.indexes).toEqual([["a", "b"], ["c"]]);
    invalid(await create({ resource: { name: "ix" }, fields: [{ id: "a", type: "text" }], indexes: [5] }), "indexes");
  });

  it("answers 409 for a json key or index, and for more than 32 fields in one, creating nothing", async () => {
    const before = await resourceCount();
    const fields = [{ id: "j", type: "json" }, { id: "a", type: "text" }];
    invalid(await create({ resource: { name: "jk" }, fields, primary_key: "j" }), "primary_key");
    invalid(await create({ resource: { name: "ji" }, fields, indexes: [["a", "j"]] }), "index");
    const many = Array.from({ length: 33 }, (_, i) => ({ id: `f${i}`, type: "int" }));
    invalid(await create({ resource: { name: "wide" }, fields: many, primary_key: many.map((f) => f.id) }), "primary_key");
    invalid(await create({ resource: { name: "wide" }, fields: many, indexes: [many.map((f) => f.id)] }), "indexes");
    expect(await resourceCount()).toBe(before);
  });

  it("makes aliases usable for reads; replaces the whole set", async () => {
    const id = await createBooks({ aliases: ["alias_one", "alias_two"] });
    expect((await search({ resource_id: "alias_one", limit: 0 })).resource_id).toBe(id);
    ok(await create({ resource_id: id, aliases: "alias_three" }));
    notFound(await call("datastore_search", { resource_id: "alias_one" }));
    expect((await search({ resource_id: "alias_three", limit: 0 })).resource_id).toBe(id);
    expect(ok(await admin("datastore_info", { id: "alias_three" })).meta.aliases).toEqual(["alias_three"]);
  });

  it("answers 409 alias for invalid names and names in use", async () => {
    const id = await createBooks({ aliases: "taken_alias" });
    for (const aliases of [["_x"], ["a%b"], ['a"b'], ["x".repeat(64)]]) invalid(await create({ resource: { name: "a" }, aliases }), "alias");
    invalid(await create({ resource: { name: "a" }, aliases: ["taken_alias"] }), "alias");
    invalid(await create({ resource: { name: "a" }, aliases: [id] }), "alias");
    ok(await create({ resource_id: id, aliases: ["taken_alias"] }));
  });

  it("needs the real id to write: an alias as resource_id is not found (404), as CKAN's resource_show answers", async () => {
    const id = await createBooks({ aliases: "write_alias" });
    notFound(await create({ resource_id: "write_alias", records: [{ title: "x" }] }));
    expect((await search({ resource_id: id, limit: 0 })).total).toBe(BOOK_ROWS.length);
  });
});

describe("altering an existing table", () => {
  it("appends records, adds new fields, ignores a new type for an existing field, updates info", async () => {
    const id = await createBooks();
    const r = await created({
      resource_id: id,
      fields: [{ id: "year", type: "text", info: { label: "Year" } }, { id: "pages", type: "int" }],
      records: [{ title: "New", year: 2020, pages: "300" }],
    });
    expect(r).toEqual({
      resource_id: id,
      fields: [{ id: "year", type: "text", info: { label: "Year" } }, { id: "pages", type: "int" }],
      method: "insert",
      delete_fields: false,
    });
    const fields = await fieldsOf(id);
    expect(fields.find((f: { id: string }) => f.id === "year")).toEqual({ id: "year", type: "int4", info: { label: "Year" } });
    expect(fields.at(-1)).toEqual({ id: "pages", type: "int4" });
    expect(fields.map((f: { id: string }) => f.id)).toContain("note");
    expect(await count(id)).toBe(7);
    expect((await search({ resource_id: id, filters: { _id: 7 }, fields: ["title", "year", "pages", "author"] })).records).toEqual([
      { title: "New", year: 2020, pages: 300, author: null },
    ]);
  });

  it("never reuses an _id", async () => {
    const id = await createBooks();
    ok(await admin("datastore_records_delete", { resource_id: id, filters: { _id: 6 } }));
    ok(await create({ resource_id: id, records: [{ title: "after" }] }));
    expect(await ids({ resource_id: id })).toEqual([1, 2, 3, 4, 5, 7]);
  });

  it("drops omitted fields only with delete_fields", async () => {
    const id = await createBooks();
    ok(await create({ resource_id: id, fields: [{ id: "title" }] }));
    expect((await fieldsOf(id)).length).toBe(10);
    const r = await created({ resource_id: id, fields: [{ id: "title" }, { id: "year" }], delete_fields: true });
    expect(r.delete_fields).toBe(true);
    expect(await fieldsOf(id)).toEqual([
      { id: "_id", type: "int" },
      { id: "title", type: "text", info: { label: "Title" } },
      { id: "year", type: "int4" },
    ]);
    expect((await search({ resource_id: id, limit: 1 })).records).toEqual([{ _id: 1, title: "War and Peace", year: 1869 }]);
    expect(await ids({ resource_id: id, q: "tolstoy" })).toEqual([]);
    expect(await ids({ resource_id: id, q: "peace" })).toEqual([1]);
  });
});

describe("the result echo (§3)", () => {
  it("echoes the request minus records, plus resource_id and method", async () => {
    const params = {
      resource: { name: "echo", private: false },
      fields: [{ id: "a", type: "int", info: { label: "A" }, whatever: 1 }],
      records: [{ a: 1 }],
      primary_key: "a",
      force: true,
    };
    const r = await created(params);
    expect(r).toEqual({
      resource: { name: "echo", private: false },
      resource_id: expect.any(String),
      fields: [{ id: "a", type: "int", info: { label: "A" } }],
      primary_key: "a",
      force: true,
      method: "insert",
      delete_fields: false,
    });
  });

  it("drops force on the resource_id path and has no method without records", async () => {
    const id = randomUUID();
    const r = await created({ resource_id: id, fields: BOOK_FIELDS, force: true, calculate_record_count: true });
    expect(r).toEqual({ resource_id: id, fields: BOOK_FIELDS, calculate_record_count: true, delete_fields: false });
  });
});
