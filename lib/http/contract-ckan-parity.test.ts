// CKAN parity: differences an independent run of CKAN's own datastore tests (ported to HTTP)
// found. Each test asserts what CKAN 2.11 answers (2.12 where 2.11 is silent or a 500); the
// comment above each names the CKAN source (ckan/ckan, branch dev-v2.11 unless stated).
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, freshDb, viaNextStart } from "../test/api";
import { admin, apiOrigin, createBooks, fails, ids, notFound, ok, search } from "../test/contract";
import { dispatch } from "../test/routes";

const create = (params: Record<string, unknown>) => admin("datastore_create", params);
const notFoundAs = (message: string) => ({ message: `Not found: ${message}` });

// One store for the file (over HTTP, one server): each test below works on resources of its own.
beforeAll(() => {
  freshDb();
});

// ------------------------------------------------------------------------------------------
// 1. `sort` on array fields. CKAN sorts with a plain `ORDER BY "field" asc|desc`
// (backend/postgres.py `_sort`, 2.11:578-605), so PostgreSQL's array_cmp decides
// (src/backend/utils/adt/arrayfuncs.c): elements compared one by one in the element type's
// order, "We consider two NULLs equal; NULL > not-NULL", and when one array is a prefix of the
// other the shorter comes first ('{}' first of all). A NULL column is placed by the usual
// NULLS LAST (asc) / NULLS FIRST (desc).
describe("sort on array fields orders element by element (PostgreSQL array order)", () => {
  let R: string;

  // Row (= _id) by row; JSON text order disagrees with element order in every column.
  const ROWS = [
    { n: [10], t: ["b"], x: [1.5] },
    { n: [9], t: ["a", "z"], x: [1.25] },
    { n: [1, 10], t: ["a"], x: [10] },
    { n: [1, 2], t: ["a b"], x: [2] },
    { n: [], t: [], x: [] },
    { n: null, t: null, x: null },
    { n: [1, null], t: ["a", null], x: [2, 0.5] },
    { n: [1], t: ["a", "b"], x: [2, null] },
    { n: [-1], t: ["a", "a"], x: [-0.5] },
  ];

  beforeAll(async () => {
    R = ok(
      await create({
        resource: { name: "arrays" },
        fields: [
          { id: "n", type: "int[]" },
          { id: "t", type: "text[]" },
          { id: "x", type: "numeric[]" },
        ],
        records: ROWS,
      }),
    ).resource_id;
  });

  it("stores the arrays as given (the rows the orders below refer to)", async () => {
    const r = await search({ resource_id: R, sort: "_id" });
    expect(r.records).toEqual(ROWS.map((row, i) => ({ _id: i + 1, ...row })));
  });

  it.each([
    // [] < [-1] < [1] < [1,2] < [1,10] < [1,NULL] < [9] < [10] < NULL
    ["n asc", [5, 9, 8, 4, 3, 7, 2, 1, 6]],
    ["n desc", [6, 1, 2, 7, 3, 4, 8, 9, 5]],
    // [] < {a} < {a,a} < {a,b} < {a,z} < {a,NULL} < {"a b"} < {b} < NULL
    ["t asc", [5, 3, 9, 8, 2, 7, 4, 1, 6]],
    ["t desc", [6, 1, 4, 7, 2, 8, 9, 3, 5]],
    // [] < [-0.5] < [1.25] < [1.5] < [2] < [2,0.5] < [2,NULL] < [10] < NULL
    ["x asc", [5, 9, 2, 1, 4, 7, 8, 3, 6]],
    ["x desc", [6, 3, 8, 7, 4, 1, 2, 9, 5]],
  ])("sort %j gives _ids %j", async (sort, expected) => {
    expect(await ids({ resource_id: R, sort })).toEqual(expected);
  });

  it("places NULL columns by the NULLS clause, arrays still element by element", async () => {
    expect(await ids({ resource_id: R, sort: "n asc nulls first" })).toEqual([6, 5, 9, 8, 4, 3, 7, 2, 1]);
    expect(await ids({ resource_id: R, sort: "n desc nulls last" })).toEqual([1, 2, 7, 3, 4, 8, 9, 5, 6]);
  });
});

// ------------------------------------------------------------------------------------------
// 2. datastore_delete without `filters` drops the table, not the resource.
// - backend/postgres.py 2.11:2108-2122: `DROP TABLE "<id>" CASCADE` (the alias views go with
//   it: tests/test_delete.py 2.11:50-62 checks pg_views is empty for the alias).
// - logic/action.py 2.11:486-499: datastore_active set to False on the resource, which stays
//   (test_delete.py 2.11:53-55); the result is the validated request minus `id`/`force`:
//   `{"resource_id": …}`.
// - Afterwards: datastore_search 404 'Resource "<id>" was not found.' (action.py 2.11:641-649),
//   datastore_info 404 'Resource/Alias "<id>" was not found.' (action.py 2.11:388-394),
//   upsert/delete 404 'Resource "<id>" was not found.' (action.py 2.11:330-334, 473-478).
// - resource_show still answers (plugin.py 2.11:132-143: datastore_active from the resource;
//   url still the dump URL since url_type stays "datastore"); resource_search still lists it.
// - datastore_create with the same resource_id: no table (pg_tables) → create_table from this
//   call's fields only (postgres.py 2.11:2150-2160), datastore_active True again
//   (action.py 2.11:175-181); name and description are the resource's and are untouched.
describe("datastore_delete without filters keeps the resource, inactive", () => {
  let R: string;
  let ALIAS: string;
  let tables = 0;

  // One store for these tests (over HTTP, one server), and a books table of its own for each.
  beforeEach(async () => {
    ALIAS = `books_alias_${++tables}`;
    R = await createBooks({ aliases: ALIAS, primary_key: "title" });
  });

  const drop = async () => expect(ok(await admin("datastore_delete", { resource_id: R }), "datastore_delete")).toEqual({ resource_id: R });

  it("answers {resource_id} and resource_show still shows the resource, datastore_active false", async () => {
    await drop();
    const r = ok(await call("resource_show", { id: R }), "resource_show");
    expect(r).toMatchObject({ id: R, name: "books", description: "Some books", url_type: "datastore", private: false, datastore_active: false });
  });

  it("resource_search still lists it, with datastore_active false", async () => {
    await drop();
    const r = ok(await call("resource_search", {}), "resource_search");
    expect(r.results.filter((x: { id: string }) => x.id === R)).toEqual([expect.objectContaining({ id: R, name: "books", datastore_active: false })]);
  });

  it("datastore_search on the id answers 404 Resource \"<id>\" was not found.", async () => {
    await drop();
    fails(await call("datastore_search", { resource_id: R }), 404, notFoundAs(`Resource "${R}" was not found.`), "datastore_search");
  });

  it("the alias is gone with the table: search and _table_metadata no longer know it", async () => {
    await drop();
    fails(await call("datastore_search", { resource_id: ALIAS }), 404, notFoundAs(`Resource "${ALIAS}" was not found.`));
    const names = (await search({ resource_id: "_table_metadata", limit: 1000 })).records.map((x: { name: string }) => x.name);
    expect(names).not.toContain(R);
    expect(names).not.toContain(ALIAS);
  });

  it("datastore_info answers 404 with its own wording, Resource/Alias \"<id>\" was not found.", async () => {
    await drop();
    fails(await call("datastore_info", { resource_id: R }), 404, notFoundAs(`Resource/Alias "${R}" was not found.`), "datastore_info");
  });

  it("writes to it answer 404 Resource \"<id>\" was not found.", async () => {
    await drop();
    const gone = notFoundAs(`Resource "${R}" was not found.`);
    fails(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ title: "x" }] }), 404, gone, "datastore_upsert");
    fails(await admin("datastore_delete", { resource_id: R }), 404, gone, "datastore_delete");
    fails(await admin("datastore_records_delete", { resource_id: R, filters: {} }), 404, gone, "datastore_records_delete");
  });

  it("the dump answers 404", async () => {
    await drop();
    const res = await dispatch(new Request(`http://localhost/datastore/dump/${R}`));
    expect(res.status).toBe(404);
  });

  it("datastore_create with the same resource_id gives it a new table with only the new fields, active again", async () => {
    await drop();
    const created = ok(await create({ resource_id: R, fields: [{ id: "x", type: "int" }], records: [{ x: 1 }] }), "datastore_create");
    expect(created.resource_id).toBe(R);
    const r = await search({ resource_id: R });
    expect(r.fields).toEqual([{ id: "_id", type: "int" }, { id: "x", type: "int4" }]);
    expect(r.records).toEqual([{ _id: 1, x: 1 }]);
    expect(r.total).toBe(1);
    expect(ok(await call("datastore_info", { resource_id: R })).meta).toMatchObject({ id: R, count: 1, aliases: [] });
    // The resource itself was never deleted: its metadata is as before.
    expect(ok(await call("resource_show", { id: R }))).toMatchObject({ id: R, name: "books", description: "Some books", datastore_active: true });
  });

  it("the old key and alias do not come back with the new table; the alias name is free", async () => {
    await drop();
    ok(await create({ resource_id: R, fields: [{ id: "title", type: "text" }] }));
    ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ title: "a" }, { title: "a" }] }));
    notFound(await call("datastore_search", { resource_id: ALIAS }));
    const other = ok(await create({ resource: { name: "other" }, fields: [{ id: "a", type: "text" }], aliases: ALIAS })).resource_id;
    expect((await search({ resource_id: ALIAS, limit: 0 })).resource_id).toBe(other);
  });
});

// ------------------------------------------------------------------------------------------
// 3. Duplicate keys.
// datastore_create runs create_table/alter_table → insert_data → create_indexes
// (postgres.py 2.11:2150-2171): the unique index of `primary_key` is built *after* the
// records are inserted, so duplicates among them fail CREATE UNIQUE INDEX, an IntegrityError
// caught by `create` (postgres.py 2.11:2178-2187) as
//   {"constraints": ["Cannot insert records or create indexbecause of uniqueness constraint"],
//    "info": {"orig": str(psycopg2 error), "pgcode": "23505"}}
// (the missing space is CKAN's, 2.11 and 2.12 alike; upsert's copy of the text has it). The
// same answer for a new key over existing duplicate rows (tests/test_create.py 2.11:893-910).
// An INSERT into a table that already has the key fails inside upsert_data, whose
// `except (DatabaseError, DataError)` (IntegrityError is a DatabaseError) answers
// {"records": ['duplicate key value violates unique constraint "…"'], "records_row": num}
// (postgres.py 2.11:1209-1238) — for datastore_create's records and for datastore_upsert
// method insert alike; upsert's own `except IntegrityError` → constraints (2.11:1739-1748) is
// never reached for duplicates. Quirk: num is the last row's index (all rows go in one
// executemany after the loop), not the offending row's.
const UNIQUE_TEXT = /^Cannot insert records or create index ?because of uniqueness constraint$/;
const constraintsError = { constraints: [expect.stringMatching(UNIQUE_TEXT)], info: { orig: expect.stringMatching(/^could not create unique index "/), pgcode: "23505" } };

describe("duplicate keys", () => {
  it("datastore_create of a new table whose records repeat the primary_key answers 409 constraints + info, and creates nothing", async () => {
    const id = randomUUID();
    const res = await create({ resource_id: id, fields: [{ id: "a", type: "text" }], primary_key: "a", records: [{ a: "x" }, { a: "y" }, { a: "x" }] });
    fails(res, 409, constraintsError, "datastore_create");
    notFound(await call("datastore_search", { resource_id: id }));
  });

  it("datastore_create setting a primary_key on an existing table with records that repeat it answers 409 constraints + info", async () => {
    const id = await createBooks();
    const res = await create({ resource_id: id, primary_key: "title", records: [{ title: "War and Peace" }] });
    fails(res, 409, constraintsError, "datastore_create");
    expect((await search({ resource_id: id, limit: 0 })).total).toBe(6);
  });

  it("datastore_create setting a primary_key over existing duplicate rows answers 409 constraints + info", async () => {
    const id = await createBooks();
    fails(await create({ resource_id: id, primary_key: "author" }), 409, constraintsError, "datastore_create");
  });

  it("datastore_create appending a duplicate to a table that already has the key answers 409 records + records_row", async () => {
    const id = await createBooks({ primary_key: "title" });
    const res = await create({ resource_id: id, records: [{ title: "War and Peace" }] });
    fails(res, 409, { records: [expect.stringMatching(/^duplicate key value violates unique constraint "/)], records_row: 0 }, "datastore_create");
  });

  it("datastore_upsert method insert of a duplicate answers 409 records + records_row (not constraints)", async () => {
    const id = await createBooks({ primary_key: "title" });
    const res = await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "New" }, { title: "War and Peace" }] });
    fails(res, 409, { records: [expect.stringMatching(/^duplicate key value violates unique constraint "/)], records_row: 1 }, "datastore_upsert");
  });
});

// ------------------------------------------------------------------------------------------
// 4. resource_show's `url`. plugin.py 2.11:132-138 (before_resource_show): for url_type
// "datastore", `url_for('datastore.dump', resource_id=id, qualified=True)`, an absolute URL
// built on ckan.site_url (lib/helpers.py 2.11:579-591, get_site_protocol_and_host). Ours: the
// configured public base URL when set, else the request's origin (as our `help` link does).
describe("resource_show url", () => {
  let R: string;

  // A name of its own: other tests here create "books" resources in the same store.
  beforeAll(async () => {
    R = await createBooks({ resource: { name: "shelf", description: "Some books" } });
  });

  it("is the absolute dump URL on the request's origin", async () => {
    expect(ok(await call("resource_show", { id: R }), "resource_show").url).toBe(`${apiOrigin()}/datastore/dump/${R}`);
  });

  // In-process (and npm start) only: `next start` gives a route handler its own origin whatever
  // Host the client sent (lib/test/over-http.ts).
  it.skipIf(viaNextStart)("is on the host the client asked", async () => {
    const res = await dispatch(new Request(`https://data.example.org/api/3/action/resource_show?id=${R}`));
    expect(res.status).toBe(200);
    expect((await res.json()).result.url).toBe(`https://data.example.org/datastore/dump/${R}`);
  });

  it("is the same absolute URL in resource_search results", async () => {
    const r = ok(await call("resource_search", { query: "name:shelf" }), "resource_search");
    expect(r.results.map((x: { url: string }) => x.url)).toEqual([`${apiOrigin()}/datastore/dump/${R}`]);
  });
});

// ------------------------------------------------------------------------------------------
// 5. `key "…" not found` for datastore_upsert method update. postgres.py 2.11:1283-1337
// formats the key values the Python way. (It formats the dict of its SQL placeholders,
// {'val_2': '1'}; we print the list of values, ['1'], as the issue asked, which CKAN's own
// test_update_unknown_key pattern r"key .*\'1\'.* not found" accepts as well.) Values are the
// record's, uncast: an int key sent as "7" prints '7'.
describe("datastore_upsert method update with a key that does not exist", () => {
  const TEXT_ID = { fields: [{ id: "id", type: "text" }, { id: "book", type: "text" }, { id: "author", type: "text" }], primary_key: "id" };
  const INT_ID = { fields: [{ id: "n", type: "int" }, { id: "v", type: "text" }], primary_key: "n" };
  const TWO_KEYS = { fields: [{ id: "a", type: "text" }, { id: "b", type: "int" }, { id: "c", type: "text" }], primary_key: ["a", "b"] };
  const NO_KEY = { fields: [{ id: "title", type: "text" }] };

  it.each([
    ["a text key, with another column (CKAN's own test)", TEXT_ID, { id: "1", author: "tolkien" }, `key "['1']" not found`],
    ["a text key alone", TEXT_ID, { id: "1" }, `key "['1']" not found`],
    ["a text key holding a quote", TEXT_ID, { id: "O'Brien" }, `key "["O'Brien"]" not found`],
    ["an int key", INT_ID, { n: 7, v: "x" }, `key "[7]" not found`],
    ["an int key sent as a string", INT_ID, { n: "7" }, `key "['7']" not found`],
    ["a two-column key", TWO_KEYS, { a: "x", b: 2, c: "y" }, `key "['x', 2]" not found`],
    ["an _id", NO_KEY, { _id: 99, title: "x" }, `key "[99]" not found`],
    ["an _id sent as a string", NO_KEY, { _id: "99" }, `key "['99']" not found`],
  ])("prints %s as the Python list of the key values", async (_label, table, record, message) => {
    const id = ok(await create({ resource_id: randomUUID(), ...table })).resource_id;
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [Object.fromEntries(table.fields.map((f) => [f.id, f.type === "int" ? 1 : "other"]))] }));
    fails(await admin("datastore_upsert", { resource_id: id, method: "update", records: [record] }), 409, { key: [message] }, "datastore_upsert");
  });
});

// ------------------------------------------------------------------------------------------
// 6. One word per mistake in `resource_id` / `id`. CKAN's schemas for search, upsert, delete
// and records_delete (logic/schema.py 2.11:147,163,177,190) and datastore_info (2.12
// schema.py:254-261; 2.11 has none and gives a 500 for non-strings) are
// [not_missing, not_empty, unicode_safe], with `id` renamed to `resource_id` first:
// - not_missing / not_empty (lib/navl/validators.py 2.11:36-76): absent, null, "", [] and {}
//   → 409 {"resource_id": ["Missing value"]} (False and 0 pass not_empty on purpose).
// - unicode_safe (validators.py 2.11:289-323) never fails: any other value becomes its text,
//   json.dumps(value, sort_keys=True) — 5 → "5", true → "true", ["a", "b"] → '["a", "b"]',
//   {"b": 1, "a": "x"} → '{"a": "x", "b": 1}' — and that text is then an unknown id: 404.
// GET has only strings; a repeated key is a list of strings, so the same rule applies.
// Ours: the same rule everywhere (resource_show's key is `id`, CKAN core's parameter).
describe("resource_id of the wrong type: one answer per kind, on every action", () => {
  let R: string;

  beforeAll(async () => {
    R = ok(await create({ resource: { name: "kinds" }, fields: [{ id: "a", type: "text" }], records: [{ a: "x" }] })).resource_id;
  });

  // [action, key errors are filed under, other parameters the call needs]
  const ACTIONS: [string, string, Record<string, unknown>][] = [
    ["datastore_search", "resource_id", {}],
    ["datastore_info", "resource_id", {}],
    ["datastore_value_counts", "resource_id", { field: "a" }],
    ["datastore_histogram", "resource_id", { field: "a" }],
    ["datastore_summary", "resource_id", { fields: ["a"] }],
    ["datastore_aggregate", "resource_id", { group_by: "a" }],
    ["resource_show", "id", {}],
    ["datastore_upsert", "resource_id", { records: [] }],
    ["datastore_delete", "resource_id", { filters: {} }],
    ["datastore_records_delete", "resource_id", { filters: {} }],
  ];
  const READS = ACTIONS.filter(([a]) => ["datastore_search", "datastore_info", "datastore_value_counts", "datastore_histogram", "datastore_summary", "datastore_aggregate", "resource_show"].includes(a));
  const KEYS = ["resource_id", "id"];

  const EMPTY: [string, unknown][] = [
    ["null", null],
    ['""', ""],
    ["[]", []],
    ["{}", {}],
  ];
  const cases = <T>(list: [string, T][], keys = KEYS) =>
    ACTIONS.flatMap(([action, errorKey, extra]) => keys.flatMap((key) => list.map(([label, value]) => [action, key, label, errorKey, extra, value] as const)));

  it.each(ACTIONS)("%s without the parameter answers 409 Missing value", async (action, errorKey, extra) => {
    fails(await admin(action, extra), 409, { [errorKey]: ["Missing value"] }, action);
  });

  it.each(cases(EMPTY))("%s with %s = %s answers 409 Missing value", async (action, key, _label, errorKey, extra, value) => {
    fails(await admin(action, { ...extra, [key]: value }), 409, { [errorKey]: ["Missing value"] }, action);
  });

  // The value's text as unicode_safe makes it (json.dumps with sort_keys, Python spacing).
  const NON_STRING: [string, [unknown, string]][] = [
    ["5", [5, "5"]],
    ["1.5", [1.5, "1.5"]],
    ["true", [true, "true"]],
    ['["x"]', [["x"], '["x"]']],
    ['["a","b"]', [["a", "b"], '["a", "b"]']],
    ['{"b":1,"a":"x"}', [{ b: 1, a: "x" }, '{"a": "x", "b": 1}']],
  ];
  const missing = (action: string, text: string) =>
    notFoundAs(action === "datastore_info" ? `Resource/Alias "${text}" was not found.` : `Resource "${text}" was not found.`);

  it.each(cases(NON_STRING))("%s with %s = %s reads it as text and answers 404", async (action, key, _label, _errorKey, extra, [value, text]) => {
    fails(await admin(action, { ...extra, [key]: value }), 404, missing(action, text), action);
  });

  // 0 and false pass not_empty (valid_values = [False, 0, 0.0]): "0" and "false". (Sent as
  // `id`, CKAN's rename skips a falsy value and answers Missing value; we do not copy that.)
  it.each(cases<[unknown, string]>([["0", [0, "0"]], ["false", [false, "false"]]], ["resource_id"]))(
    "%s with %s = %s reads it as text and answers 404",
    async (action, key, _label, _errorKey, extra, [value, text]) => {
      fails(await admin(action, { ...extra, [key]: value }), 404, missing(action, text), action);
    },
  );

  it.each(READS)("%s by GET: an empty value answers 409 Missing value", async (action, errorKey, extra) => {
    for (const key of KEYS) fails(await call(action, { ...extra, [key]: "" }, { method: "GET" }), 409, { [errorKey]: ["Missing value"] }, action);
  });

  it.each(READS)("%s by GET: a repeated key is a list, read as its text, 404", async (action, _errorKey, extra) => {
    for (const key of KEYS) {
      fails(await call(action, { ...extra, [key]: [R, R] }, { method: "GET" }), 404, missing(action, `["${R}", "${R}"]`), action);
    }
  });

  it("datastore_create: absent, null, \"\", [] and {} all answer its one word for a missing id", async () => {
    for (const key of KEYS) {
      for (const value of [undefined, null, "", [], {}]) {
        const params = value === undefined ? { fields: [{ id: "a", type: "text" }] } : { [key]: value, fields: [{ id: "a", type: "text" }] };
        fails(await create(params), 409, { resource_id: ["resource_id or resource required"] }, "datastore_create");
      }
    }
  });

  it("datastore_create reads a number as its text (a new resource \"5\")", async () => {
    expect(ok(await create({ resource_id: 5, fields: [{ id: "a", type: "text" }] }), "datastore_create").resource_id).toBe("5");
    expect((await search({ resource_id: "5", limit: 0 })).resource_id).toBe("5");
  });
});
