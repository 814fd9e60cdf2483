// Unit tests for the search parameter stages (contract §6.1, §6.4): parameter validation
// without a table, then binding names, sort clauses and rank columns to a resource.
import { describe, expect, it } from "vitest";
import type { Resource } from "./engine";
import { DatastoreError, ErrorBag } from "./errors";
import { bindSearch, parseSearchParams, type SearchParams } from "./search-query";
import type { Params } from "./validate";

const resource: Resource = {
  id: "r1",
  name: "books",
  description: "",
  private: false,
  urlType: "datastore",
  active: true,
  fields: [
    { id: "title", type: "text", info: { label: "Title" } },
    { id: "author", type: "text" },
    { id: "year", type: "int4" },
    { id: "rating with %", type: "numeric" },
    { id: 'say "hi"', type: "text" },
    { id: "tags", type: "_text" },
  ],
  primaryKey: [],
  indexes: [],
  aliases: [],
  rowCount: 0,
  created: "",
  modified: "",
};

function parse(params: Params): SearchParams {
  const bag = new ErrorBag();
  const p = parseSearchParams(params, bag);
  bag.throwIfAny();
  return p;
}

function errorsOf(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (e) {
    if (e instanceof DatastoreError) return e.details;
    throw e;
  }
  throw new Error("expected a DatastoreError");
}

const bind = (params: Params) => bindSearch(resource, parse(params));
const sortOf = (sort: unknown) => bind({ sort }).query.sort;

describe("parseSearchParams defaults", () => {
  it("fills CKAN's defaults", () => {
    expect(parse({})).toEqual({ plain: true, distinct: false, includeTotal: true, includeNextPage: false, limit: 100, offset: 0 });
  });

  it('treats null and "" as "use the default"', () => {
    expect(parse({ limit: null, offset: "", include_total: null, plain: "" })).toMatchObject({
      limit: 100,
      offset: 0,
      includeTotal: true,
      plain: true,
    });
  });

  it("converts GET strings", () => {
    expect(parse({ limit: "10", offset: "5", include_total: "false", distinct: "YES", plain: "f" })).toMatchObject({
      limit: 10,
      offset: 5,
      includeTotal: false,
      distinct: true,
      plain: false,
    });
  });

  it("treats any unrecognised boolean word as false", () => {
    expect(parse({ include_total: "nope", distinct: "nope" })).toMatchObject({ includeTotal: false, distinct: false });
  });

  it("clamps limit at 32000, and clamps huge integers too", () => {
    expect(parse({ limit: 50000 }).limit).toBe(32000);
    expect(parse({ limit: "99999999999999999999" }).limit).toBe(32000);
    expect(parse({ limit: 1e20 }).limit).toBe(32000);
    expect(parse({ limit: 0 }).limit).toBe(0);
  });

  it("parses filters and q from JSON strings", () => {
    expect(parse({ filters: '{"year": 1869}' }).filters).toEqual({ year: 1869 });
    expect(parse({ q: '{"author": "tolstoy"}' }).q).toEqual({ author: "tolstoy" });
    expect(parse({ q: "{not json" }).q).toBe("{not json");
    expect(parse({ q: "[1]" }).q).toBe("[1]");
  });

  it("splits fields and sort strings on commas", () => {
    expect(parse({ fields: "title, year" }).fields).toEqual(["title", "year"]);
    expect(parse({ sort: 'title desc, "a,b" asc' }).sort).toEqual(["title desc", '"a,b" asc']);
    expect(parse({ sort: ["year", "title desc"] }).sort).toEqual(["year", "title desc"]);
  });
});

describe("parseSearchParams validation messages", () => {
  it.each<[Params, Record<string, unknown>]>([
    [{ limit: "abc" }, { limit: ["Invalid integer"] }],
    [{ limit: 1.5 }, { limit: ["Invalid integer"] }],
    [{ limit: -1 }, { limit: ["Must be a natural number"] }],
    [{ limit: true }, { limit: ["Invalid integer"] }],
    [{ offset: "x" }, { offset: ["Invalid integer"] }],
    [{ offset: -1 }, { offset: ['invalid value "-1"'] }],
    [{ filters: "{nope" }, { filters: ["Cannot parse JSON"] }],
    [{ filters: 5 }, { filters: ["Cannot parse JSON"] }],
    [{ filters: true }, { filters: ["Cannot parse JSON"] }],
    [{ q: 5 }, { q: ["invalid value 5"] }],
    [{ q: ["a", "b"] }, { q: ['invalid value ["a","b"]'] }],
    [{ fields: 5 }, { fields: ["invalid value 5"] }],
    [{ fields: [{ id: "x" }] }, { __junk: ['invalid value [{"id":"x"}]'] }],
    [{ sort: 5 }, { sort: ["invalid value 5"] }],
    [{ sort: [5] }, { sort: ["invalid value [5]"] }],
    [{ language: "klingon" }, { language: ['text search configuration "klingon" does not exist'] }],
    [{ total_estimation_threshold: "x" }, { total_estimation_threshold: ["Invalid integer"] }],
  ])("%j → %j", (params, details) => {
    expect(errorsOf(() => parse(params))).toEqual(details);
  });

  it("collects several errors at once", () => {
    expect(Object.keys(errorsOf(() => parse({ limit: "x", offset: "y", filters: "{" })))).toEqual(["offset", "limit", "filters"]);
  });
});

describe("sort clauses", () => {
  it("defaults to asc with PostgreSQL's null placement (asc → last, desc → first)", () => {
    expect(sortOf("year")).toEqual([{ field: "year", desc: false, nullsFirst: false }]);
    expect(sortOf("year desc")).toEqual([{ field: "year", desc: true, nullsFirst: true }]);
    expect(sortOf("year asc")).toEqual([{ field: "year", desc: false, nullsFirst: false }]);
  });

  it("accepts explicit null placement, case-insensitively", () => {
    expect(sortOf("year DESC NULLS LAST")).toEqual([{ field: "year", desc: true, nullsFirst: false }]);
    expect(sortOf("year asc nulls first")).toEqual([{ field: "year", desc: false, nullsFirst: true }]);
    expect(sortOf("year Nulls First")).toEqual([{ field: "year", desc: false, nullsFirst: true }]);
  });

  it("accepts quoted names, with spaces, % and doubled quotes", () => {
    expect(sortOf('"author" asc')).toEqual([{ field: "author", desc: false, nullsFirst: false }]);
    expect(sortOf('"rating with %" desc')).toEqual([{ field: "rating with %", desc: true, nullsFirst: true }]);
    expect(sortOf('"say ""hi"""')).toEqual([{ field: 'say "hi"', desc: false, nullsFirst: false }]);
  });

  it("splits a comma string into clauses", () => {
    expect(sortOf("author, year desc")).toEqual([
      { field: "author", desc: false, nullsFirst: false },
      { field: "year", desc: true, nullsFirst: true },
    ]);
  });

  it("sorts by _id asc without sort, by rank desc with q", () => {
    expect(bind({}).query.sort).toEqual([{ field: "_id", desc: false, nullsFirst: false }]);
    expect(bind({ q: "tolstoy" }).query.sort).toEqual([{ field: "rank", desc: true, nullsFirst: false }]);
    expect(bind({ q: { author: "tolstoy" } }).query.sort).toEqual([{ field: "rank author", desc: true, nullsFirst: false }]);
  });

  it.each(["nope", "year sideways", '"year', "year desc nulls", "year; drop table x", "rank", "_full_text"])(
    "rejects %j",
    (clause) => {
      expect(errorsOf(() => sortOf(clause))).toEqual({ sort: [`invalid value "${clause}"`] });
    },
  );

  it("allows rank only with q", () => {
    expect(bind({ q: "x1", sort: "rank" }).query.sort).toEqual([{ field: "rank", desc: false, nullsFirst: false }]);
  });
});

describe("bindSearch", () => {
  it("lists _id, the fields, then rank columns", () => {
    expect(bind({ q: "x1" }).columns.map((c) => c.id)).toEqual(["_id", "title", "author", "year", "rating with %", 'say "hi"', "tags", "rank"]);
    expect(bind({ q: { author: "a1", title: "b1" } }).columns.map((c) => c.id).slice(-2)).toEqual(["rank author", "rank title"]);
  });

  it("reports types and info", () => {
    expect(bind({ fields: ["_id", "title", "year"] }).columns).toEqual([
      { id: "_id", type: "int" },
      { id: "title", type: "text", info: { label: "Title" } },
      { id: "year", type: "int4" },
    ]);
  });

  it("restricts and orders fields", () => {
    expect(bind({ fields: "year,title" }).query.columns).toEqual(["year", "title"]);
  });

  it("parses filters into one ANDed tree: a list is any of (CKAN 2.12, array columns too)", () => {
    expect(bind({ filters: { year: [1, 2], tags: [["a", "b"]], author: "x" } }).query.filters).toEqual([
      {
        op: "and",
        of: [
          { op: "in", field: "year", values: [1, 2] },
          { op: "in", field: "tags", values: [["a", "b"]] },
          { op: "eq", field: "author", value: "x" },
        ],
      },
    ]);
  });

  it("asks the engine for the page's last _id only for include_next_page in _id order", () => {
    expect(bind({ include_next_page: true })).toMatchObject({ nextPage: "gt", query: { lastId: true } });
    expect(bind({ include_next_page: true, sort: "_id desc" })).toMatchObject({ nextPage: "lt", query: { lastId: true } });
    expect(bind({ include_next_page: true, sort: "year" }).nextPage).toBeUndefined();
    expect(bind({ include_next_page: true, sort: "_id, year" }).nextPage).toBeUndefined();
    expect(bind({ include_next_page: true, q: "x1" }).nextPage).toBeUndefined();
    expect(bind({ include_next_page: true, q: "x1", sort: "_id" }).nextPage).toBe("gt");
    expect(bind({ include_next_page: true, distinct: true, sort: "_id" }).nextPage).toBeUndefined();
    expect(bind({}).query.lastId).toBe(false);
  });

  it.each<[Params, Record<string, unknown>]>([
    [{ fields: ["nope"] }, { fields: ['invalid value "nope"'] }],
    [{ fields: ["rank"] }, { fields: ['invalid value "rank"'] }],
    [{ filters: { nope: 1 } }, { filters: ["Unknown field: nope"] }],
    [{ filters: { nope: 1, year: { gt: 1 }, $$x: 2 } }, { filters: ["Unknown field: nope", "Unknown field: $x"] }],
    [{ filters: "[1]" }, { filters: ["Filters must be defined as a dict or a list of dicts"] }],
    [{ q: { nope: "x" } }, { q: ['invalid value {"nope":"x"}'] }],
    [{ q: { title: 5 } }, { q: ['invalid value {"title":5}'] }],
    [{ q: "tolstoy &", plain: false }, { query: ["Invalid query"] }],
  ])("%j → %j", (params, details) => {
    expect(errorsOf(() => bind(params))).toEqual(details);
  });
});

describe("empty lists", () => {
  it("treats empty fields as all fields", () => {
    expect(parse({ fields: [] }).fields).toBeUndefined();
    expect(parse({ fields: " , " }).fields).toBeUndefined();
    const every = ["_id", ...resource.fields.map((f) => f.id)];
    expect(bind({ fields: [] }).query.columns).toEqual(every);
    expect(bind({ fields: " , " }).query.columns).toEqual(every);
  });
});
