// Contract §6: datastore_search through the real handler — parameters, filters, q, sort,
// fields, distinct, paging, result echo, records formats and _links.
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb, isPostgres } from "../test/api";
import {
  BOOK_ROWS,
  BOOK_SEARCH_FIELDS,
  admin,
  createBooks,
  fails,
  ids,
  invalid,
  notFound,
  ok,
  search,
} from "../test/contract";

let R: string;

beforeAll(async () => {
  freshDb();
  R = await createBooks({ aliases: ["books_alias"] });
});

describe("the default search", () => {
  it("answers the whole result of contract §6.6", async () => {
    const res = await call("datastore_search", { resource_id: R });
    expect(ok(res, "datastore_search")).toEqual({
      include_total: true,
      resource_id: R,
      records_format: "objects",
      limit: 100,
      total_estimation_threshold: null,
      fields: BOOK_SEARCH_FIELDS,
      records: BOOK_ROWS,
      _links: { start: "/api/action/datastore_search", next: "/api/action/datastore_search?offset=100" },
      total: 6,
      total_was_estimated: false,
      // CKAN 2.12 echoes it always, false unless asked for.
      include_next_page: false,
    });
  });

  it("accepts id as a synonym and echoes the real id for an alias", async () => {
    expect((await search({ id: R, limit: 1 })).resource_id).toBe(R);
    expect((await search({ resource_id: "books_alias", limit: 1 })).resource_id).toBe(R);
  });

  it("echoes filters, q, sort, distinct, plain, language and offset only when sent", async () => {
    const r = await search({
      resource_id: R,
      filters: { author: "Tolstoy" },
      q: "war",
      sort: "year desc",
      distinct: false,
      plain: true,
      language: "english",
      offset: 0,
      limit: 2,
    });
    expect(r).toMatchObject({
      filters: { author: "Tolstoy" },
      q: "war",
      sort: "year desc",
      distinct: false,
      plain: true,
      language: "english",
      offset: 0,
      limit: 2,
    });
    const bare = await search({ resource_id: R });
    for (const key of ["filters", "q", "sort", "distinct", "plain", "language", "offset"]) expect(bare).not.toHaveProperty(key);
  });
});

describe("parameter validation (§6.1)", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["missing resource_id", { resource_id: undefined }, "resource_id"],
    ["empty resource_id", { resource_id: "" }, "resource_id"],
    ["filters not JSON", { filters: "{nope" }, "filters"],
    ["filters a list of numbers", { filters: [1, 2] }, "filters"],
    ["filters a number", { filters: 5 }, "filters"],
    ["q a number", { q: 5 }, "q"],
    ["q a list", { q: ["a"] }, "q"],
    ["fields a number", { fields: 5 }, "fields"],
    ["fields with objects", { fields: [{ id: "title" }] }, "__junk"],
    ["sort a number", { sort: 5 }, "sort"],
    ["limit not an integer", { limit: "ten" }, "limit"],
    ["limit a float", { limit: 1.5 }, "limit"],
    ["limit negative", { limit: -1 }, "limit"],
    ["offset not an integer", { offset: "x" }, "offset"],
    ["offset negative", { offset: -1 }, "offset"],
    ["records_format unknown", { records_format: "xml" }, "records_format"],
    ["records_format a list", { records_format: ["csv"] }, "records_format"],
    ["unknown parameter", { foo: 1 }, "__extras"],
    ["unknown language", { language: "klingon" }, "language"],
  ])("%s → 409", async (_, params, key) => {
    invalid(await call("datastore_search", { resource_id: R, ...params }), key);
  });

  it("uses CKAN's messages", async () => {
    fails(await call("datastore_search", {}), 409, { resource_id: ["Missing value"] }, "datastore_search");
    fails(await call("datastore_search", { resource_id: R, filters: "{" }), 409, { filters: ["Cannot parse JSON"] });
    fails(await call("datastore_search", { resource_id: R, limit: "x" }), 409, { limit: ["Invalid integer"] });
    fails(await call("datastore_search", { resource_id: R, limit: -1 }), 409, { limit: ["Must be a natural number"] });
    fails(await call("datastore_search", { resource_id: R, offset: -1 }), 409, { offset: ['invalid value "-1"'] });
    fails(await call("datastore_search", { resource_id: R, foo: 1 }), 409, { __extras: ['invalid value "foo"'] });
  });

  it("validates before looking the resource up (409 before 404)", async () => {
    // Every parameter error at once, and nothing about the missing resource.
    fails(await call("datastore_search", { resource_id: "nope", limit: "x", offset: -1, filters: "{" }), 409, {
      limit: ["Invalid integer"],
      offset: ['invalid value "-1"'],
      filters: ["Cannot parse JSON"],
    });
  });

  it("answers 404 for an unknown id or alias", async () => {
    notFound(await call("datastore_search", { resource_id: "nope" }));
  });

  it("checks field names only once the table is found (404 before 409)", async () => {
    notFound(await call("datastore_search", { resource_id: "nope", fields: ["nope"], sort: "nope", filters: { nope: 1 } }));
  });

  it('treats null and "" as the default', async () => {
    const r = await search({ resource_id: R, limit: null, offset: "", include_total: null, records_format: "", plain: null });
    expect(r).toMatchObject({ limit: 100, include_total: true, records_format: "objects", total: 6 });
    expect(r.records).toHaveLength(6);
  });
});

describe("GET parameter conversion (§1)", () => {
  const get = (params: Record<string, unknown>) => search({ resource_id: R, ...params }, { method: "GET" });

  it("converts integers and booleans from strings", async () => {
    const r = await get({ limit: "2", offset: "1", include_total: "FALSE" });
    expect(r.limit).toBe(2);
    expect(r.offset).toBe(1);
    expect(r.records.map((x: { _id: number }) => x._id)).toEqual([2, 3]);
    expect(r).not.toHaveProperty("total");
  });

  it("echoes total_estimation_threshold as an integer", async () => {
    expect((await get({ total_estimation_threshold: "5", limit: "0" })).total_estimation_threshold).toBe(5);
    expect((await get({ total_estimation_threshold: "", limit: "0" })).total_estimation_threshold).toBeNull();
    invalid(await call("datastore_search", { resource_id: R, total_estimation_threshold: "x" }, { method: "GET" }), "total_estimation_threshold");
  });

  it("treats an unrecognised boolean word as false", async () => {
    expect(await get({ include_total: "nope", limit: "0" })).not.toHaveProperty("total");
    expect((await get({ include_total: "yes", limit: "0" })).total).toBe(6);
  });

  it("turns repeated keys into lists", async () => {
    const r = await get({ fields: ["title", "year"], limit: "1" });
    expect(r.fields.map((f: { id: string }) => f.id)).toEqual(["title", "year"]);
    expect((await get({ sort: ["author", "year desc"], fields: "_id" })).records.map((x: { _id: number }) => x._id)).toEqual([
      5, 3, 4, 6, 2, 1,
    ]);
  });

  it("parses filters as a JSON string", async () => {
    expect((await get({ filters: JSON.stringify({ author: "Tolstoy" }), fields: "_id" })).records).toEqual([{ _id: 1 }, { _id: 2 }]);
    invalid(await call("datastore_search", { resource_id: R, filters: "nope" }, { method: "GET" }), "filters");
  });

  it("parses q as JSON only when it is an object", async () => {
    const dict = await get({ q: JSON.stringify({ author: "tolstoy" }), fields: ["_id", "rank author"], sort: "_id" });
    expect(dict.q).toEqual({ author: "tolstoy" });
    expect(dict.fields.map((f: { id: string }) => f.id)).toEqual(["_id", "rank author"]);
    const text = await get({ q: "1869", fields: "_id" });
    expect(text.q).toBe("1869");
    expect(text.records.map((x: { _id: number }) => x._id)).toEqual([1]);
  });

  it("answers a POST form the same way", async () => {
    const body = new URLSearchParams({ resource_id: R, limit: "1", fields: "title" });
    body.append("fields", "year");
    const r = ok(await call("datastore_search", {}, { body: body.toString(), contentType: "application/x-www-form-urlencoded" }));
    expect(r.limit).toBe(1);
    expect(r.records).toEqual([{ title: "War and Peace", year: 1869 }]);
  });
});

describe("filters (§6.2)", () => {
  const found = (filters: unknown) => ids({ resource_id: R, filters });

  it("matches a scalar, any of a list, and ANDs keys", async () => {
    expect(await found({ author: "Tolstoy" })).toEqual([1, 2]);
    expect(await found({ year: [1869, "1952"] })).toEqual([1, 4]);
    expect(await found({ author: "Tolstoy", year: 1877 })).toEqual([2]);
    expect(await found({ author: ["Tolstoy", "Hemingway"], in_stock: true })).toEqual([1]);
    expect(await found({})).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("casts values to the column type", async () => {
    expect(await found({ year: "1877" })).toEqual([2]);
    expect(await found({ title: 25 })).toEqual([5]);
    expect(await found({ updated: "2020-01-03" })).toEqual([1]);
    expect(await found({ updated: "2020-01-01 10:00" })).toEqual([2]);
    expect(await found({ in_stock: true })).toEqual([1, 3, 6]);
    expect(await found({ in_stock: "true" })).toEqual([1, 3, 6]);
    expect(await found({ in_stock: "f" })).toEqual([2, 5]);
    expect(await found({ rating: "9.99" })).toEqual([5]);
    expect(await found({ rating: 10 })).toEqual([6]);
  });

  it("answers 409 query for a value the column cannot hold", async () => {
    for (const filters of [{ year: "abc" }, { in_stock: "maybe" }, { updated: "yesterday" }, { _id: "x" }, { year: [1869, "abc"] }, { year: { gt: "abc" } }]) {
      invalid(await call("datastore_search", { resource_id: R, filters }), "query");
    }
  });

  it("matches nothing for null", async () => {
    expect(await found({ author: null })).toEqual([]);
    expect(await found({ year: null })).toEqual([]);
    expect(await found({ year: [null, 1869] })).toEqual([1]);
  });

  it("treats % and _ as literal characters", async () => {
    expect(await found({ title: "100% Done_right" })).toEqual([6]);
    expect(await found({ title: "100%" })).toEqual([]);
    expect(await found({ title: "2_" })).toEqual([]);
    expect(await found({ title: "%" })).toEqual([]);
  });

  it("compares an array column with whole arrays: {eq: [...]} or a list of lists (2.12)", async () => {
    expect(await found({ tags: { eq: ["classic", "russian"] } })).toEqual([1, 2]);
    expect(await found({ tags: [["classic", "russian"], []] })).toEqual([1, 2, 4]);
    expect(await found({ tags: { eq: ["classic"] } })).toEqual([]);
    expect(await found({ tags: { eq: [] } })).toEqual([4]);
    expect(await found({ tags: [] })).toEqual([]);
    // A list of plain values is any of them, each an array: CKAN 2.12 answers 409 query.
    invalid(await call("datastore_search", { resource_id: R, filters: { tags: ["classic", "russian"] } }), "query");
    invalid(await call("datastore_search", { resource_id: R, filters: { tags: "classic" } }), "query");
  });

  it("filters on _id", async () => {
    expect(await found({ _id: 3 })).toEqual([3]);
    expect(await found({ _id: ["1", 2] })).toEqual([1, 2]);
  });

  it("answers 409 filters for an unknown field", async () => {
    invalid(await call("datastore_search", { resource_id: R, filters: { nope: 1 } }), "filters");
    invalid(await call("datastore_search", { resource_id: R, filters: { Author: "Tolstoy" } }), "filters");
  });

  it("matches field names with spaces, %, quotes and unicode exactly", async () => {
    const odd = ok(
      await admin("datastore_create", {
        resource: { name: "odd names" },
        fields: [{ id: "rating with %" }, { id: "bük" }, { id: "it's; x" }],
        records: [
          { "rating with %": 5, "bük": "ä", "it's; x": "a" },
          { "rating with %": 7, "bük": "b", "it's; x": "b" },
        ],
      }),
    ).resource_id;
    expect(await ids({ resource_id: odd, filters: { "rating with %": 7 } })).toEqual([2]);
    expect(await ids({ resource_id: odd, filters: { "bük": "ä" } })).toEqual([1]);
    expect(await ids({ resource_id: odd, filters: { "it's; x": "a" } })).toEqual([1]);
    expect(await ids({ resource_id: odd, sort: '"rating with %" desc' })).toEqual([2, 1]);
  });
});

describe("full-text q (§6.3)", () => {
  const found = (q: unknown, extra: Record<string, unknown> = {}) => ids({ resource_id: R, q, sort: "_id", ...extra });

  it("requires every word, whole words, case-insensitively", async () => {
    expect(await found("tolstoy")).toEqual([1, 2]);
    expect(await found("TOLSTOY")).toEqual([1, 2]);
    expect(await found("tols")).toEqual([]);
    expect(await found("war peace")).toEqual([1]);
    expect(await found("tolstoy hemingway")).toEqual([]);
  });

  it("stems English words", async () => {
    expect(await found("peace")).toEqual([1]);
    expect(await found("peaces")).toEqual([1]);
    expect(await found("year")).toEqual([3]);
  });

  it("folds case", async () => {
    expect(await found("Márquez")).toEqual([3]);
    expect(await found("tolstoy")).toEqual(await found("TolStoy"));
  });

  // SQLite only: FTS5 folds accents; PostgreSQL's english configuration keeps them, as CKAN's
  // does (docs/postgresql.md: where the two engines differ).
  it.skipIf(isPostgres)("folds accents", async () => {
    expect(await found("marquez")).toEqual([3]);
    expect(await found("GARCIA")).toEqual([3]);
  });

  it("searches numbers, arrays and json content", async () => {
    expect(await found("1869")).toEqual([1]);
    expect(await found("russian")).toEqual([1, 2]);
    expect(await found("translations")).toEqual([1]);
    expect(await found("nobel")).toEqual([3]);
  });

  it("treats punctuation as separators", async () => {
    expect(await found('"peace" (war) * :')).toEqual([1]);
    expect(await found("tolstoy & !")).toEqual([1, 2]);
  });

  it("matches nothing for a q of stop words only", async () => {
    expect(await found("the")).toEqual([]);
    expect(await found("the and or")).toEqual([]);
  });

  it("ignores an empty q", async () => {
    const r = await search({ resource_id: R, q: "", fields: "_id" });
    expect(r.records).toHaveLength(6);
    expect(r.fields).toEqual([{ id: "_id", type: "int" }]);
  });

  it("adds a float rank column last, and orders by it by default", async () => {
    const r = await search({ resource_id: R, q: "tolstoy" });
    expect(r.fields).toEqual([...BOOK_SEARCH_FIELDS, { id: "rank", type: "float" }]);
    for (const rec of r.records) {
      expect(Object.keys(rec).at(-1)).toBe("rank");
      expect(rec.rank).toBeGreaterThanOrEqual(0);
      expect(rec.rank).toBeLessThan(1);
    }
    const ranks = r.records.map((x: { rank: number }) => x.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(r.total).toBe(2);
  });

  it("pages through a best-first search as one long page would, equal ranks in _id order", async () => {
    const words = ["tolstoy", "tolstoy tolstoy", "tolstoy and others", "tolstoy tolstoy tolstoy", "tolstoy"];
    const t = ok(
      await admin("datastore_create", {
        resource: { name: "ranked pages" },
        fields: [{ id: "a" }],
        records: Array.from({ length: 40 }, (_, i) => ({ a: words[i % words.length] })),
      }),
    ).resource_id;
    const all = (await search({ resource_id: t, q: "tolstoy", limit: 40, fields: ["_id", "rank"] })).records as { _id: number; rank: number }[];
    expect(all).toHaveLength(40);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a.rank > b.rank || (a.rank === b.rank && a._id < b._id), `${i}`).toBe(true);
    }
    const paged = [];
    for (let offset = 0; offset < 40; offset += 7) paged.push(...(await search({ resource_id: t, q: "tolstoy", limit: 7, offset, fields: ["_id", "rank"] })).records);
    expect(paged).toEqual(all);
  });

  it("orders the better match first", async () => {
    // "tolstoy" twice in one row beats once.
    const t = ok(
      await admin("datastore_create", {
        resource: { name: "ranked" },
        fields: [{ id: "a" }, { id: "b" }],
        records: [
          { a: "tolstoy", b: "other words here" },
          { a: "tolstoy", b: "tolstoy" },
        ],
      }),
    ).resource_id;
    expect(await ids({ resource_id: t, q: "tolstoy" })).toEqual([2, 1]);
  });

  it("matches a dict q per field, ANDing keys, with a rank column per key", async () => {
    expect(await found({ author: "tolstoy" })).toEqual([1, 2]);
    expect(await found({ title: "tolstoy" })).toEqual([]);
    expect(await found({ author: "tolstoy", title: "anna" })).toEqual([2]);
    const r = await search({ resource_id: R, q: { author: "tolstoy", title: "anna" }, fields: ["_id", "rank author", "rank title"] });
    expect(r.fields).toEqual([
      { id: "_id", type: "int" },
      { id: "rank author", type: "float" },
      { id: "rank title", type: "float" },
    ]);
    expect(Object.keys(r.records[0])).toEqual(["_id", "rank author", "rank title"]);
  });

  it("takes a JSON string holding an object as the dict", async () => {
    const r = await search({ resource_id: R, q: '{"author": "tolstoy"}', fields: "_id", sort: "_id" });
    expect(r.q).toEqual({ author: "tolstoy" });
    expect(r.records).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it("answers 409 q for a dict with an unknown field or a non-string value", async () => {
    invalid(await call("datastore_search", { resource_id: R, q: { nope: "x" } }), "q");
    invalid(await call("datastore_search", { resource_id: R, q: { author: 5 } }), "q");
    invalid(await call("datastore_search", { resource_id: R, q: { author: ["tolstoy"] } }), "q");
  });

  it("sorts by a dict q's rank column", async () => {
    const r = await search({ resource_id: R, q: { author: "tolstoy" }, sort: "rank author asc", fields: ["_id", "rank author"] });
    const ranks = r.records.map((x: Record<string, number>) => x["rank author"]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("takes full_text like a string q, also alongside a dict q", async () => {
    const r = await search({ resource_id: R, full_text: "tolstoy", sort: "_id" });
    expect(r.full_text).toBe("tolstoy");
    expect(r.records.map((x: { _id: number }) => x._id)).toEqual([1, 2]);
    expect(r.fields.at(-1)).toEqual({ id: "rank", type: "float" });
    const both = await search({ resource_id: R, full_text: "tolstoy", q: { title: "anna" }, fields: ["_id", "rank", "rank title"] });
    expect(both.records.map((x: { _id: number }) => x._id)).toEqual([2]);
    invalid(await call("datastore_search", { resource_id: R, full_text: 5 }), "full_text");
  });

  it("allows rank in fields and sort only with the matching q", async () => {
    invalid(await call("datastore_search", { resource_id: R, fields: ["rank"] }), "fields");
    invalid(await call("datastore_search", { resource_id: R, sort: "rank" }), "sort");
    invalid(await call("datastore_search", { resource_id: R, q: "tolstoy", fields: ["rank author"] }), "fields");
    invalid(await call("datastore_search", { resource_id: R, q: { author: "tolstoy" }, sort: "rank" }), "sort");
    const r = await search({ resource_id: R, q: "tolstoy", fields: ["rank", "_id"], sort: "rank asc" });
    expect(r.fields).toEqual([
      { id: "rank", type: "float" },
      { id: "_id", type: "int" },
    ]);
    const ranks = r.records.map((x: { rank: number }) => x.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  describe("plain: false (tsquery syntax)", () => {
    const ts = (q: string) => found(q, { plain: false });

    it.each<[string, number[]]>([
      ["tolstoy & anna", [2]],
      ["tolstoy | hemingway", [1, 2, 4]],
      ["tolstoy & !anna", [1]],
      ["!tolstoy", [3, 4, 5, 6]],
      ["tols:*", [1, 2]],
      ["(war | anna) & tolstoy", [1, 2]],
      ["peace | !tolstoy", [1, 3, 4, 5, 6]],
      ["!(tolstoy | hemingway)", [3, 5, 6]],
      ["TOLSTOY", [1, 2]],
      ["the & tolstoy", [1, 2]],
    ])("%j → %j", async (q, expected) => {
      expect(await ts(q)).toEqual(expected);
    });

    it.each(["&&&", "tolstoy &", "tolstoy anna", "(tolstoy", "tolstoy)", "war <-> peace", "!", '"war"', "tolstoy:"])(
      "answers 409 query for %j",
      async (q) => {
        fails(await call("datastore_search", { resource_id: R, q, plain: false }), 409, { query: ["Invalid query"] }, "datastore_search");
      },
    );

    it("applies to a dict q too", async () => {
      expect(await found({ author: "tol:*" }, { plain: false })).toEqual([1, 2]);
      invalid(await call("datastore_search", { resource_id: R, q: { author: "a &" }, plain: false }), "query");
    });
  });
});

describe("sort (§6.4)", () => {
  const sorted = (sort: unknown) => ids({ resource_id: R, sort });

  it("sorts asc and desc with PostgreSQL's null placement", async () => {
    expect(await sorted("year")).toEqual([1, 2, 4, 3, 6, 5]);
    expect(await sorted("year asc")).toEqual([1, 2, 4, 3, 6, 5]);
    expect(await sorted("year desc")).toEqual([5, 6, 3, 4, 2, 1]);
    expect(await sorted("year desc nulls last")).toEqual([6, 3, 4, 2, 1, 5]);
    expect(await sorted("year ASC NULLS FIRST")).toEqual([5, 1, 2, 4, 3, 6]);
  });

  it("compares numbers numerically and timestamps chronologically", async () => {
    expect(await sorted("rating")).toEqual([4, 2, 1, 5, 6, 3]);
    expect(await sorted("updated")).toEqual([6, 5, 2, 1, 4, 3]);
    expect(await sorted("in_stock, _id")).toEqual([2, 5, 1, 3, 6, 4]);
  });

  it("takes quoted names, comma strings and lists", async () => {
    expect(await sorted('"author" desc, year')).toEqual([1, 2, 6, 4, 3, 5]);
    expect(await sorted("author, year desc")).toEqual([5, 3, 4, 6, 2, 1]);
    expect(await sorted(["author", "year desc"])).toEqual([5, 3, 4, 6, 2, 1]);
    expect(await sorted("_id desc")).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("answers 409 sort for unknown fields and garbage", async () => {
    fails(await call("datastore_search", { resource_id: R, sort: "nope" }), 409, { sort: ['invalid value "nope"'] });
    for (const sort of ["title sideways", "title desc nulls", '"title', "Title", "title; drop table x", "", ","]) {
      const res = await call("datastore_search", { resource_id: R, sort });
      if (sort === "" || sort === ",") ok(res);
      else invalid(res, "sort");
    }
  });
});

describe("fields and distinct (§6.5)", () => {
  it("restricts and orders fields and records", async () => {
    const r = await search({ resource_id: R, fields: ["year", "title"], limit: 1 });
    expect(r.fields).toEqual([
      { id: "year", type: "int4" },
      { id: "title", type: "text", info: { label: "Title" } },
    ]);
    expect(r.records).toEqual([{ year: 1869, title: "War and Peace" }]);
    expect(Object.keys(r.records[0])).toEqual(["year", "title"]);
  });

  it("shows _id only when asked", async () => {
    expect((await search({ resource_id: R, fields: "title", limit: 1 })).records[0]).toEqual({ title: "War and Peace" });
    expect((await search({ resource_id: R, fields: "title,_id", limit: 1 })).records[0]).toEqual({ title: "War and Peace", _id: 1 });
  });

  it("answers 409 fields for an unknown field", async () => {
    fails(await call("datastore_search", { resource_id: R, fields: ["title", "nope"] }), 409, { fields: ['invalid value "nope"'] });
    invalid(await call("datastore_search", { resource_id: R, fields: "_full_text" }), "fields");
  });

  it("removes duplicate rows and counts distinct rows", async () => {
    const r = await search({ resource_id: R, fields: "author", distinct: true, sort: "author" });
    expect(r.records).toEqual([
      { author: "Anonymous" },
      { author: "Gabriel García Márquez" },
      { author: "Hemingway" },
      { author: "O'Brien" },
      { author: "Tolstoy" },
    ]);
    expect(r.total).toBe(5);
    expect(r.distinct).toBe(true);
  });

  it("applies limit and offset after distinct", async () => {
    const r = await search({ resource_id: R, fields: "author", distinct: true, sort: "author desc", limit: 2, offset: 0 });
    expect(r.records).toEqual([{ author: "Tolstoy" }, { author: "O'Brien" }]);
    expect(r.total).toBe(5);
    const all = await search({ resource_id: R, fields: ["author"], distinct: true, limit: 5 });
    expect(new Set(all.records.map((x: { author: string }) => x.author)).size).toBe(5);
  });
});

describe("paging and totals", () => {
  it("clamps limit at 32000 and echoes the clamped value", async () => {
    expect((await search({ resource_id: R, limit: 50000 })).limit).toBe(32000);
    expect((await search({ resource_id: R, limit: 1e20 })).limit).toBe(32000);
    expect((await search({ resource_id: R, limit: "99999999999999999999" }, { method: "GET" })).limit).toBe(32000);
  });

  it("computes total with limit 0", async () => {
    const r = await search({ resource_id: R, limit: 0, filters: { author: "Tolstoy" } });
    expect(r.records).toEqual([]);
    expect(r.total).toBe(2);
    expect(r.limit).toBe(0);
  });

  it("counts all matching rows whatever the page", async () => {
    const r = await search({ resource_id: R, limit: 1, offset: 1, q: "tolstoy", fields: "_id", sort: "_id" });
    expect(r.records).toEqual([{ _id: 2 }]);
    expect(r.total).toBe(2);
    expect(r.offset).toBe(1);
  });

  it("returns an empty page past the end", async () => {
    const r = await search({ resource_id: R, offset: 100 });
    expect(r.records).toEqual([]);
    expect(r.total).toBe(6);
  });

  it("drops total and total_was_estimated when include_total is false", async () => {
    const r = await search({ resource_id: R, include_total: false, limit: 1 });
    expect(r).not.toHaveProperty("total");
    expect(r).not.toHaveProperty("total_was_estimated");
    expect(r.include_total).toBe(false);
  });
});

describe("records_format (§6.6)", () => {
  it("gives lists in fields order", async () => {
    const r = await search({ resource_id: R, records_format: "lists", fields: ["year", "_id", "in_stock"], limit: 2 });
    expect(r.records_format).toBe("lists");
    expect(r.records).toEqual([
      [1869, 1, true],
      [1877, 2, false],
    ]);
  });

  it("gives one CSV string with PG COPY quoting and renderings", async () => {
    const r = await search({ resource_id: R, records_format: "csv" });
    expect(r.records_format).toBe("csv");
    expect(r.fields).toEqual(BOOK_SEARCH_FIELDS);
    expect(r.records).toBe(
      [
        '1,War and Peace,Tolstoy,1869,4.5,t,2020-01-03T00:00:00,"[""classic"",""russian""]","{""translations"": 3}","long, very long"',
        '2,Anna Karenina,Tolstoy,1877,4.2,f,2020-01-01T10:00:00,"[""classic"",""russian""]",null,"says ""hi"""',
        '3,One Hundred Years of Solitude,Gabriel García Márquez,1967,,t,,"[""magical realism""]","{""awards"": [""nobel""]}","line1\nline2"',
        '4,The Old Man and the Sea,Hemingway,1952,3.9,,2021-06-15T08:30:00,[],"""just text""",""',
        "5,25,Anonymous,,9.99,f,2019-12-31T00:00:00,null,null,",
        '6,100% Done_right,O\'Brien,2001,10,t,2001-01-01T00:00:00,"[""a,b""]","[1, 2]",tab\there',
        "",
      ].join("\n"),
    );
  });

  it("gives one TSV string, quoting only what needs it", async () => {
    const r = await search({ resource_id: R, records_format: "tsv", fields: ["note", "meta", "tags"], sort: "_id" });
    expect(r.records).toBe(
      [
        'long, very long\t"{""translations"": 3}"\t"[""classic"",""russian""]"',
        '"says ""hi"""\tnull\t"[""classic"",""russian""]"',
        '"line1\nline2"\t"{""awards"": [""nobel""]}"\t"[""magical realism""]"',
        '""\t"""just text"""\t[]',
        "\tnull\tnull",
        '"tab\there"\t[1, 2]\t"[""a,b""]"',
        "",
      ].join("\n"),
    );
  });

  it("adds rank to CSV rows and gives an empty string for no rows", async () => {
    const r = await search({ resource_id: R, records_format: "csv", q: "hemingway", fields: ["_id", "rank"] });
    expect(r.records).toMatch(/^4,0\.\d+\n$/);
    expect((await search({ resource_id: R, records_format: "csv", filters: { _id: 99 } })).records).toBe("");
    expect((await search({ resource_id: R, records_format: "tsv", limit: 0 })).records).toBe("");
  });
});

describe("_links (§6.6, 2.11)", () => {
  it("links POSTs by offset only", async () => {
    const at = async (offset?: number) =>
      (await search({ resource_id: R, limit: 2, ...(offset === undefined ? {} : { offset }), filters: { author: "Tolstoy" } }))._links;
    expect(await at()).toEqual({ start: "/api/action/datastore_search", next: "/api/action/datastore_search?offset=2" });
    expect(await at(2)).toEqual({ start: "/api/action/datastore_search", next: "/api/action/datastore_search?offset=4" });
    expect(await at(4)).toEqual({
      start: "/api/action/datastore_search",
      next: "/api/action/datastore_search?offset=6",
      prev: "/api/action/datastore_search?offset=2",
    });
    expect(await at(3)).toEqual({
      start: "/api/action/datastore_search",
      next: "/api/action/datastore_search?offset=5",
      prev: "/api/action/datastore_search?offset=1",
    });
  });

  it("re-encodes the GET query string, replacing offset", async () => {
    const filters = JSON.stringify({ author: "Tolstoy" });
    const r = await search({ resource_id: R, limit: "2", offset: "4", filters }, { method: "GET" });
    const parse = (link: string) => {
      const u = new URL(link, "http://x");
      return { path: u.pathname, params: Object.fromEntries(u.searchParams) };
    };
    expect(Object.keys(r._links).sort()).toEqual(["next", "prev", "start"]);
    expect(parse(r._links.start)).toEqual({ path: "/api/action/datastore_search", params: { resource_id: R, limit: "2", filters } });
    expect(parse(r._links.next)).toEqual({ path: "/api/action/datastore_search", params: { resource_id: R, limit: "2", filters, offset: "6" } });
    expect(parse(r._links.prev)).toEqual({ path: "/api/action/datastore_search", params: { resource_id: R, limit: "2", filters, offset: "2" } });
    for (const link of Object.values(r._links) as string[]) expect(link.startsWith("/")).toBe(true);
  });

  it("collapses repeated keys to one", async () => {
    const r = await search({ resource_id: R, fields: ["title", "year"] }, { method: "GET" });
    const u = new URL(r._links.next, "http://x");
    expect(u.searchParams.getAll("fields")).toEqual(["year"]); // the last of them
  });

  it("uses the clamped limit for next", async () => {
    const r = await search({ resource_id: R, limit: 50000 });
    expect(r._links.next).toBe("/api/action/datastore_search?offset=32000");
  });

  it("keeps the /api/3 path", async () => {
    const r = await search({ resource_id: R, limit: 2 }, { path: "/api/3/action" });
    expect(r._links).toEqual({ start: "/api/3/action/datastore_search", next: "/api/3/action/datastore_search?offset=2" });
  });
});

describe("_table_metadata", () => {
  it("lists tables and aliases with _id, name, alias_of, oid", async () => {
    const r = await search({ resource_id: "_table_metadata", limit: 1000 }, { token: undefined });
    expect(r.fields).toEqual([
      { id: "_id", type: "int" },
      { id: "name", type: "text" },
      { id: "alias_of", type: "text" },
      { id: "oid", type: "int4" },
    ]);
    expect(r.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: R, alias_of: null }),
        expect.objectContaining({ name: "books_alias", alias_of: R }),
      ]),
    );
    expect(r.total).toBe(r.records.length);
    expect(await ids({ resource_id: "_table_metadata", filters: { alias_of: R } })).toHaveLength(1);
  });
});
