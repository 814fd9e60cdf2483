// Requests the fuzzer (lib/test/arbitraries.ts) found answering 500 or failing inside the
// handlers, kept as plain cases so they stay fixed. Each must be a clean 4xx (or a 200).
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb, isPostgres } from "../test/api";
import { admin, badRequest, createBooks, fails, invalid, ok, search } from "../test/contract";
import { dispatch } from "../test/routes";

let R: string;
let WIDE: string;
const WIDE_FIELDS = Array.from({ length: 1000 }, (_, i) => ({ id: `f${i}`, type: i % 2 ? "int" : "text" }));

beforeAll(async () => {
  freshDb();
  R = await createBooks({ primary_key: "title" });
  WIDE = ok(
    await admin("datastore_create", {
      resource: { name: "wide" },
      fields: WIDE_FIELDS,
      records: [0, 1].map((r) => Object.fromEntries(WIDE_FIELDS.map((f, i) => [f.id, i % 2 ? i + r : `word ${r}`]))),
    }),
  ).resource_id;
});

describe("found by fuzzing", () => {
  it("more filter values than SQLite binds: 409 filters (search, value counts, deletes, dumps)", async () => {
    const many = Array.from({ length: 40_000 }, (_, i) => i);
    invalid(await call("datastore_search", { resource_id: R, filters: { year: many } }), "filters");
    invalid(await call("datastore_value_counts", { resource_id: R, field: "author", filters: { year: many } }), "filters");
    invalid(await admin("datastore_records_delete", { resource_id: R, filters: { year: many } }), "filters");
    invalid(await admin("datastore_delete", { resource_id: R, filters: { year: many } }), "filters");
    const dump = await dispatch(new Request(`http://localhost/datastore/dump/${R}?filters=${encodeURIComponent(JSON.stringify({ year: many.slice(0, 12_000) }))}`));
    expect(dump.status).toBe(400);
    // Within the limit it works.
    expect(ok(await call("datastore_search", { resource_id: R, filters: { year: many.slice(0, 5000) } })).total).toBe(5);
  });

  it("fields, sort, key and index lists past SQLite's 2000 columns: 409", async () => {
    invalid(await call("datastore_search", { resource_id: R, fields: Array(3000).fill("title") }), "fields");
    invalid(await call("datastore_search", { resource_id: R, sort: Array(3000).fill("title desc").join(",") }), "sort");
    invalid(await call("datastore_search", { resource_id: R, sort: Array(3000).fill("year") }), "sort");
    invalid(await admin("datastore_create", { resource_id: R, primary_key: Array(3000).fill("title") }), "primary_key");
    invalid(await admin("datastore_create", { resource_id: R, indexes: [Array(3000).fill("title")] }), "indexes");
  });

  it("a condition on each of 1000 fields, and a field-scoped q on a 1000-field table", async () => {
    // CKAN 2.12 takes at most 99 keys in a dict of filters, 100 operations in all.
    const all = Object.fromEntries(WIDE_FIELDS.map((f, i) => [f.id, i % 2 ? i : "word 0"]));
    const many = { filters: ["Maximum number of filter operations exceeded"] };
    fails(await call("datastore_search", { resource_id: WIDE, filters: all }), 409, many);
    fails(await admin("datastore_records_delete", { resource_id: WIDE, filters: all }), 409, many);
    const some = Object.fromEntries(WIDE_FIELDS.slice(0, 99).map((f, i) => [f.id, i % 2 ? i : "word 0"]));
    const left = async () => (await search({ resource_id: WIDE, fields: ["_id", "f0", "f1"] })).records;
    expect(ok(await call("datastore_search", { resource_id: WIDE, filters: some })).total).toBe(1);
    // All 99 conditions count: with the last one met by no row, nothing is deleted…
    ok(await admin("datastore_records_delete", { resource_id: WIDE, filters: { ...some, f97: 999_999 } }));
    expect(await left()).toEqual([{ _id: 1, f0: "word 0", f1: 1 }, { _id: 2, f0: "word 1", f1: 2 }]);
    // …and when all are met, exactly the row that meets them goes.
    ok(await admin("datastore_records_delete", { resource_id: WIDE, filters: some }));
    expect(await left()).toEqual([{ _id: 2, f0: "word 1", f1: 2 }]);
    const q = ok(await call("datastore_search", { resource_id: WIDE, q: { f0: "word", f2: "1" } }));
    expect(q.total).toBe(1);
    expect(q.records[0]._id).toBe(2);
    expect(q.fields.map((f: { id: string }) => f.id)).toContain("rank f0");
  });

  it("names every object inherits are no type, format or parameter", async () => {
    for (const t of ["constructor", "_constructor", "toString", "__proto__", "hasOwnProperty[]"]) {
      invalid(await admin("datastore_create", { resource: { name: "p" }, fields: [{ id: "x", type: t }] }), "fields");
    }
    for (const format of ["constructor", "__proto__", "toString"]) {
      const res = await dispatch(new Request(`http://localhost/datastore/dump/${R}?format=${format}`));
      expect(res.status, format).toBe(400);
    }
    // A repeated __proto__ in a query string stays a plain (unknown) parameter.
    const res = await dispatch(new Request(`http://localhost/api/action/datastore_search?resource_id=${R}&__proto__=a&__proto__=b`));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toEqual({ __type: "Validation Error", __extras: ['invalid value "__proto__"'] });
  });

  it("JSON objects whose own toString or valueOf is not a function", async () => {
    const evil = { toString: 1, valueOf: "x" };
    const cases: [string, Record<string, unknown>][] = [
      ["datastore_search", { resource_id: R, language: evil }],
      ["datastore_search", { resource_id: R, offset: evil }],
      ["datastore_search", { resource_id: R, q: { title: evil } }],
      ["datastore_search", { resource_id: R, filters: { tags: evil } }],
      ["datastore_search", { resource_id: "_table_metadata", filters: { name: [evil] } }],
      ["datastore_search", { resource_id: R, fields: [evil] }],
      ["datastore_search", { resource_id: evil }],
      ["datastore_create", { resource_id: evil }],
      ["datastore_create", { resource: { name: evil } }],
      ["datastore_create", { resource_id: R, fields: [{ id: evil }] }],
      ["datastore_create", { resource_id: R, fields: [{ id: "x", type: evil }] }],
      ["datastore_upsert", { resource_id: R, method: "update", records: [{ title: evil, year: 1 }] }],
      ["datastore_upsert", { resource_id: R, method: "update", records: [{ _id: evil, year: 1 }] }],
      ["datastore_upsert", { resource_id: R, method: evil, records: [] }],
      ["resource_search", { order_by: evil }],
      ["resource_search", { query: evil }],
      ["resource_show", { id: evil }],
      ["api_token_create", { name: "t", scope: evil }],
      ["api_token_revoke", { jti: evil }],
    ];
    for (const [action, params] of cases) {
      const res = await call(action, params, { token: ADMIN });
      expect([200, 400, 403, 404, 409], `${action} ${JSON.stringify(params)}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });

  it("search words the full-text tokenizer cuts in two (a Devanagari nukta, a combining overline)", async () => {
    // SQLite's tokenizer cuts ज़मीन at the nukta, so ज़मी is a word of its own there;
    // PostgreSQL's parser (so CKAN) keeps ज़मीन whole.
    const id = ok(await admin("datastore_create", { resource: { name: "scripts" }, records: [{ t: "हिंदी भाषा" }, { t: "ज़मीन" }, { t: "x\u0305y" }] })).resource_id;
    for (const [q, expected] of [["हिंदी", "हिंदी भाषा"], ["ज़मीन", "ज़मीन"], ["ज़मी:*", isPostgres ? null : "ज़मीन"], ["x\u0305y", "x\u0305y"], ["ݢǄऱ़ᔃ䷑⸋㍺", null]] as const) {
      const rows = expected === null ? [] : [expected];
      const found = ok(await call("datastore_search", { resource_id: id, q, fields: ["t"] }));
      expect(found.records.map((r: { t: string }) => r.t), q).toEqual(rows);
      expect(ok(await call("datastore_search", { resource_id: id, q: { t: q }, fields: ["t"] })).records.map((r: { t: string }) => r.t), q).toEqual(rows);
      expect([200, 409], q).toContain((await call("datastore_search", { resource_id: id, q, plain: false })).status);
      // Value counts and dumps search the same way.
      expect(ok(await call("datastore_value_counts", { resource_id: id, field: "t", q })).values, q).toEqual(rows.map((value) => ({ value, count: 1 })));
      const dump = await dispatch(new Request(`http://localhost/datastore/dump/${id}?fields=t&q=${encodeURIComponent(q)}`));
      expect(dump.status, q).toBe(200);
      expect(await dump.text(), q).toBe(["t\r\n", ...rows.map((t) => `${t}\n`)].join(""));
    }
  });

  it("deep JSON anywhere: 400 JSON Error", async () => {
    badRequest(await call("datastore_upsert", {}, { token: ADMIN, body: `{"resource_id": "${R}", "records": [{"meta": ${"[".repeat(50_000)}${"]".repeat(50_000)}}]}` }), /JSON Error/);
  });
});
