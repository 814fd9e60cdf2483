// CKAN 2.12 filters (contract §6.2a) through the real handlers on a real database file:
// operators and their combinations, casts per type, NULLs, errors, our two extensions, keyset
// paging by next_page, and the same filters in dumps, deletes and value counts. Cases marked
// "CKAN" are ported from ckanext/datastore/tests/test_search.py (dev-v2.12).
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, createBooks, fails, invalid, ok, search } from "../test/contract";
import { dispatch } from "../test/routes";

let BOOKS: string;
let NUMS: string;

const create = async (params: Record<string, unknown>) => ok(await admin("datastore_create", { resource: { name: "t" }, ...params })).resource_id as string;

/** The `_id`s matching `filters` on `resource`, in `_id` order. */
async function found(filters: unknown, resource = BOOKS): Promise<number[]> {
  const r = await search({ resource_id: resource, filters, fields: ["_id"], sort: "_id", limit: 1000 });
  return r.records.map((x: { _id: number }) => x._id);
}

const filtersError = (messages: unknown[]) => ({ filters: messages });

beforeAll(async () => {
  freshDb();
  BOOKS = await createBooks();
  NUMS = await create({ fields: [{ id: "num", type: "int" }], records: [{ num: 5 }, { num: 7 }, { num: 9 }, { num: 1 }, { num: 10 }] });
});

describe("ranges (CKAN test_range)", () => {
  it("gt and lt, gte and lte, and a list mixing values and ranges", async () => {
    expect((await search({ resource_id: NUMS, filters: { num: { gt: 5, lt: 9 } } })).records).toEqual([{ _id: 2, num: 7 }]);
    expect((await search({ resource_id: NUMS, filters: { num: { gte: 5, lte: 9 } } })).records).toEqual([
      { _id: 1, num: 5 },
      { _id: 2, num: 7 },
      { _id: 3, num: 9 },
    ]);
    expect((await search({ resource_id: NUMS, filters: { num: [{ lte: 1 }, 7, { gte: 10 }] } })).records).toEqual([
      { _id: 2, num: 7 },
      { _id: 4, num: 1 },
      { _id: 5, num: 10 },
    ]);
  });

  it("eq is equality; a range with one side is open", async () => {
    expect(await found({ num: { eq: 7 } }, NUMS)).toEqual([2]);
    expect(await found({ num: { gte: 9 } }, NUMS)).toEqual([3, 5]);
    expect(await found({ num: { lt: 5 } }, NUMS)).toEqual([4]);
  });

  it("echoes the filters as sent and counts the total under them", async () => {
    const r = await search({ resource_id: NUMS, filters: { num: { gte: 5, lte: 9 } } });
    expect(r.filters).toEqual({ num: { gte: 5, lte: 9 } });
    expect(r.total).toBe(3);
  });
});

describe("OR and AND (CKAN test_nested_and_or)", () => {
  let R: string;
  beforeAll(async () => {
    R = await create({
      fields: [
        { id: "course", type: "text" },
        { id: "special", type: "bool" },
      ],
      records: [
        { course: "salad", special: false },
        { course: "appetizer", special: false },
        { course: "main", special: true },
        { course: "dessert", special: false },
      ],
    });
  });

  it("$or of dicts, a top-level list, and $or beside a field", async () => {
    expect(await found({ $or: [{ course: "appetizer", special: false }, { special: true }] }, R)).toEqual([2, 3]);
    expect(await found([{ course: "appetizer", special: false }, { special: true }], R)).toEqual([2, 3]);
    expect(await found({ special: false, $or: [{ course: "appetizer" }, { _id: { gt: 2 } }] }, R)).toEqual([2, 4]);
  });

  it("$and, nested groups, and empty lists", async () => {
    expect(await found({ $and: [{ special: false }, { $or: [{ course: "salad" }, { course: "dessert" }] }] }, R)).toEqual([1, 4]);
    expect(await found({ $or: [{ $and: [{ course: "main" }, { special: true }] }, { course: ["salad"] }] }, R)).toEqual([1, 3]);
    expect(await found({ course: [] }, R)).toEqual([]);
  });
});

describe("casts per type, as equality casts", () => {
  it("numbers from strings, and numeric and float columns", async () => {
    expect(await found({ year: { gte: "1900", lt: "2001" } })).toEqual([3, 4]);
    expect(await found({ rating: { gt: 4.2, lte: "9.99" } })).toEqual([1, 5]);
    expect(await found({ _id: { gte: "2", lte: 3 } })).toEqual([2, 3]);
  });

  it("timestamps from dates and datetimes", async () => {
    expect(await found({ updated: { gte: "2020-01-01", lt: "2020-01-03" } })).toEqual([2]);
    expect(await found({ updated: { gte: "2020-01-01T10:00:00" } })).toEqual([1, 2, 4]);
    expect(await found({ updated: { lte: "2001-01-01" } })).toEqual([6]);
  });

  it("integer fields compare with a JSON number exactly, as PostgreSQL does", async () => {
    expect(await found({ num: { gt: 5.5 } }, NUMS)).toEqual([2, 3, 5]);
    expect(await found({ num: { lte: 5.5 } }, NUMS)).toEqual([1, 4]);
    expect(await found({ num: { eq: 5.5 } }, NUMS)).toEqual([]);
    expect(await found({ num: { lt: 3_000_000_000 } }, NUMS)).toEqual([1, 2, 3, 4, 5]);
    expect(await found({ _id: { gt: 1.5, lt: 3 } }, NUMS)).toEqual([2]);
    // A string is cast as equality casts it: "5.5" is no integer.
    invalid(await call("datastore_search", { resource_id: NUMS, filters: { num: { gt: "5.5" } } }), "query");
  });

  it("a timestamp bound between two seconds keeps the second on its side", async () => {
    expect(await found({ updated: { lt: "2020-01-03T00:00:00.5" } })).toEqual([1, 2, 5, 6]);
    expect(await found({ updated: { gte: "2020-01-03T00:00:00.5" } })).toEqual([4]);
    expect(await found({ updated: { eq: "2020-01-03T00:00:00.5" } })).toEqual([]);
    expect(await found({ updated: { lte: "2020-01-03T00:00:00.000" } })).toEqual([1, 2, 5, 6]);
  });

  it("takes CKAN's `in` operator", async () => {
    expect(await found({ num: { in: [5, 9] } }, NUMS)).toEqual([1, 3]);
    expect(await found({ num: { in: [] } }, NUMS)).toEqual([]);
  });

  it("text compares as text: every value stringified first", async () => {
    expect(await found({ title: { gte: "A", lt: "B" } })).toEqual([2]);
    // "25" and "100% Done_right" sort before "5" as text.
    expect(await found({ title: { lt: 5 } })).toEqual([5, 6]);
  });

  it("booleans, and arrays element by element", async () => {
    expect(await found({ in_stock: { eq: "yes" } })).toEqual([1, 3, 6]);
    expect(await found({ tags: { gt: ["classic", "russian"] } })).toEqual([3]);
    expect(await found({ tags: { lt: ["b"] } })).toEqual([4, 6]);
  });

  it("a value the column cannot hold is 409 query", async () => {
    for (const filters of [{ year: { gt: "abc" } }, { updated: { lt: "yesterday" } }, { _id: { gte: "x" } }, { year: [1869, { lte: "z" }] }, { rating: { eq: [1] } }, { meta: { gt: 1 } }]) {
      invalid(await call("datastore_search", { resource_id: BOOKS, filters }), "query");
    }
  });
});

describe("NULL", () => {
  it("a null bound matches nothing; NULL cells never pass a range", async () => {
    expect(await found({ year: { gt: null } })).toEqual([]);
    expect(await found({ year: [null, { lt: 1900 }] })).toEqual([1, 2]);
    expect(await found({ rating: { gte: 0 } })).toEqual([1, 2, 4, 5, 6]);
  });

  it("on a text field null is the text None, as CKAN 2.12 stringifies it", async () => {
    const R = await create({ fields: [{ id: "s", type: "text" }], records: [{ s: "None" }, { s: null }, { s: "x" }] });
    expect(await found({ s: null }, R)).toEqual([1]);
    expect(await found({ s: true }, R)).toEqual([]);
  });
});

describe("errors: 409 filters with CKAN's messages", () => {
  it.each<[string, unknown, unknown[]]>([
    ["an unknown field", { nope: { gt: 1 } }, ["Unknown field: nope"]],
    ["each unknown field", [{ nope: 1 }, { other: 2 }], ["Unknown field: nope", "Unknown field: other"]],
    ["an unknown operator", { year: { like: 1 } }, ["Unknown filter operation: FilterOp(field='year', op='like', value=1)"]],
    ["an unknown group", { $not: [{ year: 1 }] }, ["Unknown operators (must be one of $or, $and): $not"]],
    ["a group that is no list of dicts", { $or: { year: 1 } }, ["Filter operations must be defined as a list of dicts: {'year': 1}"]],
    ["a list of numbers", [1], ["Filters must be defined as a dict or a list of dicts"]],
    ["a string of JSON that is no dict", "3", ["Filters must be defined as a dict or a list of dicts"]],
  ])("%s", async (_, filters, messages) => {
    fails(await call("datastore_search", { resource_id: BOOKS, filters }), 409, filtersError(messages), "datastore_search");
  });

  it("limits nesting to under 10 groups and operations to 100", async () => {
    let deep: Record<string, unknown> = { year: 1 };
    for (let i = 0; i < 10; i++) deep = { $or: [deep, { year: i }] };
    fails(await call("datastore_search", { resource_id: BOOKS, filters: deep }), 409, filtersError(["Maximum nesting depth for filter operations reached"]));
    const wide = { $or: Array.from({ length: 60 }, (_, i) => ({ year: i, author: "x" })) };
    fails(await call("datastore_search", { resource_id: BOOKS, filters: wide }), 409, filtersError(["Maximum number of filter operations exceeded"]));
  });

  it("checks the resource (404) before the filters, and JSON before the resource", async () => {
    fails(await call("datastore_search", { resource_id: "nope", filters: { nope: { gt: 1 } } }), 404, { message: "Not found: Resource \"nope\" was not found." });
    fails(await call("datastore_search", { resource_id: "nope", filters: "{x" }), 409, filtersError(["Cannot parse JSON"]));
  });

  it("takes filters as JSON text in a GET query string", async () => {
    const filters = encodeURIComponent(JSON.stringify({ year: { gte: 1900, lt: 2001 } }));
    const res = await dispatch(new Request(`http://localhost/api/action/datastore_search?resource_id=${BOOKS}&filters=${filters}&fields=_id`));
    const body = await res.json();
    expect(body.result.records).toEqual([{ _id: 3 }, { _id: 4 }]);
    expect(body.result.filters).toEqual({ year: { gte: 1900, lt: 2001 } });
  });
});

describe("our extensions: x_empty and x_not_in", () => {
  it("is empty / is not empty: NULL, '' for text, [] for arrays", async () => {
    expect(await found({ note: { x_empty: true } })).toEqual([4, 5]);
    expect(await found({ note: { x_empty: false } })).toEqual([1, 2, 3, 6]);
    expect(await found({ year: { x_empty: true } })).toEqual([5]);
    expect(await found({ tags: { x_empty: true } })).toEqual([4, 5]);
  });

  it("is not one of: empty cells pass", async () => {
    expect(await found({ author: { x_not_in: ["Tolstoy", "Hemingway"] } })).toEqual([3, 5, 6]);
    expect(await found({ year: { x_not_in: 1869 } })).toEqual([2, 3, 4, 5, 6]);
    expect(await found({ year: { x_not_in: [] } })).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("refuses bad values with a message that says what they take", async () => {
    invalid(await call("datastore_search", { resource_id: BOOKS, filters: { note: { x_empty: "yes" } } }), "filters");
    invalid(await call("datastore_search", { resource_id: BOOKS, filters: { note: { x_not_in: [{ a: 1 }] } } }), "filters");
  });
});

describe("keyset paging: include_next_page and next_page", () => {
  it("answers next_page in _id order, gt ascending and lt descending (CKAN)", async () => {
    expect((await search({ resource_id: BOOKS, limit: 2, include_next_page: true })).next_page).toEqual({ _id: { gt: 2 } });
    expect((await search({ resource_id: BOOKS, sort: "_id desc", limit: 3, include_next_page: true })).next_page).toEqual({ _id: { lt: 4 } });
    for (const records_format of ["lists", "csv", "tsv"]) {
      expect((await search({ resource_id: BOOKS, limit: 2, include_next_page: true, records_format })).next_page).toEqual({ _id: { gt: 2 } });
    }
    // The _id comes from the page even when `fields` leaves it out.
    expect((await search({ resource_id: BOOKS, limit: 2, fields: ["title"], include_next_page: true })).next_page).toEqual({ _id: { gt: 2 } });
  });

  it("answers none for another sort, a best-first search, an empty page, or when not asked", async () => {
    for (const extra of [{ sort: "year" }, { sort: "_id, year" }, { q: "war" }, { filters: { year: 1 } }, { limit: 0 }]) {
      expect(await search({ resource_id: BOOKS, include_next_page: true, ...extra })).not.toHaveProperty("next_page");
    }
    expect(await search({ resource_id: BOOKS })).not.toHaveProperty("next_page");
    expect((await search({ resource_id: BOOKS, q: "war", sort: "_id", include_next_page: true })).next_page).toEqual({ _id: { gt: 1 } });
  });

  it("walks a whole table exactly once, merged with the client's own filters", async () => {
    const R = await create({ fields: [{ id: "n", type: "int" }], records: Array.from({ length: 95 }, (_, i) => ({ n: i })) });
    const seen: number[] = [];
    let filters: Record<string, unknown> = { n: { gte: 10 } };
    for (let pages = 0; pages < 20; pages++) {
      const r = await search({ resource_id: R, filters, limit: 10, include_next_page: true });
      seen.push(...r.records.map((x: { n: number }) => x.n));
      if (!r.next_page) break;
      filters = { ...filters, ...r.next_page };
    }
    expect(seen).toEqual(Array.from({ length: 85 }, (_, i) => i + 10));
  });

  it("a walk sees rows inserted behind it once and rows inserted ahead of it never twice", async () => {
    const R = await create({ fields: [{ id: "n", type: "int" }], records: Array.from({ length: 30 }, (_, i) => ({ n: i })) });
    const seen: number[] = [];
    let next: Record<string, unknown> | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await search({ resource_id: R, filters: next ?? {}, limit: 10, include_next_page: true, sort: "_id" });
      seen.push(...r.records.map((x: { _id: number }) => x._id));
      if (page === 0) ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ n: 100 }, { n: 101 }] }));
      if (!r.next_page) break;
      next = r.next_page;
    }
    expect(seen).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it("walks backwards with _id desc", async () => {
    const seen: number[] = [];
    let next: Record<string, unknown> = {};
    for (let page = 0; page < 10; page++) {
      const r = await search({ resource_id: BOOKS, filters: next, limit: 4, sort: "_id desc", include_next_page: true, fields: ["_id"] });
      seen.push(...r.records.map((x: { _id: number }) => x._id));
      if (!r.next_page) break;
      next = r.next_page;
    }
    expect(seen).toEqual([6, 5, 4, 3, 2, 1]);
  });
});

describe("the same filters in dumps, deletes and value counts", () => {
  async function dumpIds(filters: unknown, resource = BOOKS): Promise<string[]> {
    const qs = new URLSearchParams({ filters: JSON.stringify(filters), fields: "_id" });
    const res = await dispatch(new Request(`http://localhost/datastore/dump/${resource}?${qs}`));
    expect(res.status).toBe(200);
    return (await res.text()).trim().split(/\r?\n/).slice(1);
  }

  it("dumps with ranges, OR lists (which CKAN's dump refuses) and extensions", async () => {
    expect(await dumpIds({ year: { gte: 1900, lte: 2001 } })).toEqual(["3", "4", "6"]);
    expect(await dumpIds([{ year: 1869 }, { note: { x_empty: true } }])).toEqual(["1", "4", "5"]);
  });

  it("a dump answers 400 for bad filters, as for its other parameters", async () => {
    const qs = new URLSearchParams({ filters: JSON.stringify({ year: { like: 1 } }) });
    const res = await dispatch(new Request(`http://localhost/datastore/dump/${BOOKS}?${qs}`));
    expect(res.status).toBe(400);
  });

  it("value counts under a range", async () => {
    const r = ok(await call("datastore_value_counts", { resource_id: BOOKS, field: "author", filters: { year: { lt: 1900 } } }));
    expect(r.values).toEqual([{ value: "Tolstoy", count: 2 }]);
  });

  it("datastore_delete and datastore_records_delete delete by range, and refuse a top-level list", async () => {
    const R = await create({ fields: [{ id: "n", type: "int" }], records: Array.from({ length: 10 }, (_, i) => ({ n: i })) });
    ok(await admin("datastore_delete", { resource_id: R, filters: { n: { gte: 7 } } }));
    ok(await admin("datastore_records_delete", { resource_id: R, filters: { $or: [{ n: { lt: 2 } }, { n: 5 }] } }));
    expect((await search({ resource_id: R, fields: ["n"] })).records.map((x: { n: number }) => x.n)).toEqual([2, 3, 4, 6]);
    fails(await admin("datastore_delete", { resource_id: R, filters: [{ n: 1 }] }), 409, filtersError(["filters must be either a dict or null."]));
    fails(await admin("datastore_records_delete", { resource_id: R, filters: [{ n: 1 }] }), 409, filtersError(["Must be a dict"]));
    // A bad filter, or one that says nothing, deletes nothing.
    for (const filters of [{ $or: [] }, { $and: [{}] }]) {
      fails(await admin("datastore_records_delete", { resource_id: R, filters }), 409, filtersError([expect.stringMatching(/^invalid value "\$/)]));
      fails(await admin("datastore_delete", { resource_id: R, filters }), 409, filtersError([expect.stringMatching(/^invalid value "\$/)]));
    }
    fails(await admin("datastore_records_delete", { resource_id: R, filters: { n: { gte: "x" } } }), 409, { query: [expect.any(String)] });
    fails(await admin("datastore_records_delete", { resource_id: R, filters: { n: 2, nope: { gt: 1 } } }), 409, filtersError(["Unknown field: nope"]));
    expect((await search({ resource_id: R })).total).toBe(4);
  });
});
