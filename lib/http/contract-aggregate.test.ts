// datastore_aggregate (our extension, docs/api.md "Actions"): the whole envelope through
// the real handler, its parameters, and its errors in CKAN's order (409, then 404, then 403,
// then 409 for fields).
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, createBooks, denied, fails, invalid, notFound, ok, token } from "../test/contract";

const ACTION = "datastore_aggregate";
let R: string;
let PRIVATE: string;
let READ: string;
let DAYS: string;
let PLACES: string;

beforeAll(async () => {
  freshDb();
  R = await createBooks({ aliases: "aggregate_books" });
  PRIVATE = await createBooks({}, true);
  READ = await token("read");
  DAYS = ok(
    await admin("datastore_create", {
      resource: { name: "days" },
      fields: [{ id: "d", type: "date" }],
      records: ["2023-12-31", "2024-01-01", "2024-02-29", "2024-03-01", "2024-03-31", "2024-04-01", null].map((d) => ({ d })),
    }),
  ).resource_id;
  PLACES = ok(
    await admin("datastore_create", {
      resource: { name: "places" },
      fields: [
        { id: "latitude", type: "float8" },
        { id: "longitude", type: "float8" },
      ],
      records: [
        [51.5, -0.12],
        [51.45, -0.2],
        [48.85, 2.35],
        [40.7, -74.0],
        [null, 10],
      ].map(([latitude, longitude]) => ({ latitude, longitude })),
    }),
  ).resource_id;
});

const aggregate = async (params: Record<string, unknown>, opts = {}) => ok(await call(ACTION, params, opts), ACTION);
const group = (key: unknown[], count: number, _id: number, value: unknown = count) => ({ key, count, value, _id });
const keys = (out: { groups: { key: unknown[] }[] }) => out.groups.map((g) => g.key);

describe("datastore_aggregate", () => {
  it("puts a value on a decimal bin's edge in that bin, though binary floating point falls short of it", async () => {
    // 0.29 × 100 is 28.999999999999996 and -163.8 × 100 is -16380.000000000002
    const id = ok(
      await admin("datastore_create", {
        resource: { name: "edges" },
        fields: [{ id: "x", type: "float8" }],
        records: [0.29, -163.8, 0.3, 0.57].map((x) => ({ x })),
      }),
    ).resource_id;
    const bins = async (bin: number) => keys(await aggregate({ resource_id: id, group_by: "x", bin })).map(([k]) => k);
    expect(await bins(0.01)).toEqual([-163.8, 0.29, 0.3, 0.57]);
    expect(await bins(0.05)).toEqual([-163.8, 0.25, 0.3, 0.55]);
  });

  it("counts rows per value, largest first, then by key", async () => {
    expect(await aggregate({ resource_id: R, group_by: "author" })).toEqual({
      resource_id: R,
      group_by: ["author"],
      period: null,
      bin: null,
      metric: "count",
      field: null,
      total: 6,
      rows: 6,
      partial: false,
      groups: [group(["Tolstoy"], 2, 1), group(["Anonymous"], 1, 5), group(["Gabriel García Márquez"], 1, 3), group(["Hemingway"], 1, 4), group(["O'Brien"], 1, 6)],
      others: { groups: 0, count: 0 },
    });
  });

  it("groups NULL and empty text together as the null key", async () => {
    const out = await aggregate({ resource_id: R, group_by: ["note"] });
    expect(out.groups[0]).toEqual(group([null], 2, 4));
    expect(out.groups).toHaveLength(5);
  });

  it("answers `limit` groups and the rest in `others`, by GET too, numbers as text", async () => {
    const out = await aggregate({ id: "aggregate_books", group_by: "year", bin: "10", limit: "3" }, { method: "GET" });
    expect(out).toMatchObject({ resource_id: R, group_by: ["year"], bin: 10, total: 6, rows: 6, partial: false });
    // bins in key order: 1860, 1870, 1950 | 1960, 2000, null
    expect(out.groups).toEqual([group([1860], 1, 1), group([1870], 1, 2), group([1950], 1, 4)]);
    expect(out.others).toEqual({ groups: 3, count: 3 });
    const top = await aggregate({ resource_id: R, group_by: "author", limit: 1 });
    expect(top).toMatchObject({ groups: [group(["Tolstoy"], 2, 1)], others: { groups: 4, count: 4 } });
  });

  it("computes sum, avg, min and max of a number field per group, ordered by the value", async () => {
    const metric = async (m: string) => (await aggregate({ resource_id: R, group_by: "in_stock", metric: m, field: "rating" })).groups;
    // in_stock true: 4.5, (null), 10; false: 4.2, 9.99; null: 3.9
    expect(await metric("sum")).toEqual([group([true], 3, 1, 14.5), group([false], 2, 2, expect.closeTo(14.19, 10)), group([null], 1, 4, 3.9)]);
    expect(await metric("avg")).toEqual([group([true], 3, 1, 7.25), group([false], 2, 2, expect.closeTo(7.095, 10)), group([null], 1, 4, 3.9)]);
    expect(await metric("min")).toEqual([group([true], 3, 1, 4.5), group([false], 2, 2, 4.2), group([null], 1, 4, 3.9)]);
    expect(await metric("max")).toEqual([group([true], 3, 1, 10), group([false], 2, 2, 9.99), group([null], 1, 4, 3.9)]);
    const out = await aggregate({ resource_id: R, group_by: "author", metric: "max", field: "year" });
    expect(out).toMatchObject({ metric: "max", field: "year" });
    // Anonymous has no year: its value is null, after every number
    expect(out.groups.at(-1)).toEqual(group(["Anonymous"], 1, 5, null));
    // count reads no field: one sent along is left unread
    expect(await aggregate({ resource_id: R, group_by: "in_stock", metric: "count", field: "title" })).toMatchObject({ metric: "count", field: null });
  });

  it("groups timestamps by period start in the stored shape, weeks from Monday, in time order", async () => {
    const year = await aggregate({ resource_id: R, group_by: "updated", period: "year" });
    expect(year).toMatchObject({ period: "year", total: 6, rows: 6, partial: false });
    expect(year.groups).toEqual([
      group(["2001-01-01T00:00:00"], 1, 6),
      group(["2019-01-01T00:00:00"], 1, 5),
      group(["2020-01-01T00:00:00"], 2, 1),
      group(["2021-01-01T00:00:00"], 1, 4),
      group([null], 1, 3),
    ]);
    // 2019-12-31 (Tue), 2020-01-01 (Wed) and 2020-01-03 (Fri) share the week from Monday 2019-12-30
    expect((await aggregate({ resource_id: R, group_by: "updated", period: "week" })).groups).toEqual([
      group(["2001-01-01T00:00:00"], 1, 6),
      group(["2019-12-30T00:00:00"], 3, 1),
      group(["2021-06-14T00:00:00"], 1, 4),
      group([null], 1, 3),
    ]);
    expect(keys(await aggregate({ resource_id: R, group_by: "updated", period: "day" }))).toEqual([
      ...["2001-01-01", "2019-12-31", "2020-01-01", "2020-01-03", "2021-06-15"].map((d) => [`${d}T00:00:00`]),
      [null],
    ]);
  });

  it("groups dates by day, week, month, quarter and year", async () => {
    const periods = async (period: string) => (await aggregate({ resource_id: DAYS, group_by: "d", period })).groups.map((g: { key: unknown[]; count: number }) => [g.key[0], g.count]);
    expect(await periods("day")).toEqual([["2023-12-31", 1], ["2024-01-01", 1], ["2024-02-29", 1], ["2024-03-01", 1], ["2024-03-31", 1], ["2024-04-01", 1], [null, 1]]);
    expect(await periods("week")).toEqual([["2023-12-25", 1], ["2024-01-01", 1], ["2024-02-26", 2], ["2024-03-25", 1], ["2024-04-01", 1], [null, 1]]);
    expect(await periods("month")).toEqual([["2023-12-01", 1], ["2024-01-01", 1], ["2024-02-01", 1], ["2024-03-01", 2], ["2024-04-01", 1], [null, 1]]);
    expect(await periods("quarter")).toEqual([["2023-10-01", 1], ["2024-01-01", 4], ["2024-04-01", 1], [null, 1]]);
    expect(await periods("year")).toEqual([["2023-01-01", 1], ["2024-01-01", 5], [null, 1]]);
  });

  it("groups by two fields: a latitude/longitude grid by bin, by list or comma string", async () => {
    const grid = await aggregate({ resource_id: PLACES, group_by: ["latitude", "longitude"], bin: 1 });
    expect(grid).toMatchObject({ group_by: ["latitude", "longitude"], bin: 1, total: 5, rows: 5, partial: false, others: { groups: 0, count: 0 } });
    expect(grid.groups).toEqual([group([40, -74], 1, 4), group([48, 2], 1, 3), group([51, -1], 2, 1), group([null, 10], 1, 5)]);
    const fine = await aggregate({ resource_id: PLACES, group_by: "latitude,longitude", bin: 0.1 }, { method: "GET" });
    expect(keys(fine)).toEqual([
      [40.7, -74],
      [48.8, 2.3],
      [51.4, -0.2],
      [51.5, -0.2],
      [null, 10],
    ]);
    const mixed = await aggregate({ resource_id: R, group_by: ["author", "in_stock"] }, { method: "GET" });
    expect(mixed.groups[0]).toEqual(group(["Anonymous", false], 1, 5));
    expect(mixed.groups).toHaveLength(6);
  });

  it("narrows to q and filters, as datastore_search does", async () => {
    const out = await aggregate({ resource_id: R, group_by: "author", q: "classic", filters: JSON.stringify({ in_stock: true }) }, { method: "GET" });
    expect(out).toMatchObject({ total: 1, rows: 1, groups: [group(["Tolstoy"], 1, 1)] });
  });

  it("answers no groups when nothing matches", async () => {
    expect(await aggregate({ resource_id: R, group_by: "author", q: "nowhere", metric: "avg", field: "year" })).toEqual({
      resource_id: R,
      group_by: ["author"],
      period: null,
      bin: null,
      metric: "avg",
      field: "year",
      total: 0,
      rows: 0,
      partial: false,
      groups: [],
      others: { groups: 0, count: 0 },
    });
  });

  it("second form: several measures, an order, a page and totals over every matching row", async () => {
    const out = await aggregate({
      resource_id: R,
      group_by: ["author"],
      metrics: [{ fn: "count" }, { fn: "avg", field: "rating" }, { fn: "max", field: "updated", name: "latest" }, { fn: "count_distinct", field: "title" }],
      order_by: "count desc, author",
      limit: 2,
      totals: true,
    });
    expect(out).toEqual({
      resource_id: R,
      group_by: [{ field: "author" }],
      metrics: [
        { name: "count", fn: "count" },
        { name: "avg_rating", fn: "avg", field: "rating" },
        { name: "latest", fn: "max", field: "updated" },
        { name: "count_distinct_title", fn: "count_distinct", field: "title" },
      ],
      total: 6,
      rows: 6,
      partial: false,
      groups: [
        { key: ["Tolstoy"], values: { count: 2, avg_rating: expect.closeTo(4.35, 9), latest: "2020-01-03T00:00:00", count_distinct_title: 2 } },
        { key: ["Anonymous"], values: { count: 1, avg_rating: expect.closeTo(9.99, 9), latest: "2019-12-31T00:00:00", count_distinct_title: 1 } },
      ],
      others: { groups: 3, count: 3 },
      totals: { count: 6, values: { count: 6, avg_rating: expect.closeTo(32.59 / 5, 9), latest: "2021-06-15T08:30:00", count_distinct_title: 6 } },
    });
    // A page further on, by key.
    const page = await aggregate({ resource_id: R, group_by: "author", order_by: ["author asc"], offset: 1, limit: 2 });
    expect(keys(page)).toEqual([["Gabriel García Márquez"], ["Hemingway"]]);
    expect(page.others).toEqual({ groups: 2, count: 3 });
  });

  it("second form: having over measures and keys, in the filters syntax; three keys with their own period and bin", async () => {
    expect(keys(await aggregate({ resource_id: R, group_by: "author", having: { count: { gt: 1 } } }))).toEqual([["Tolstoy"]]);
    const either = await aggregate({ resource_id: R, group_by: "author", having: JSON.stringify({ $or: [{ author: "Hemingway" }, { count: 2 }] }) });
    expect(keys(either)).toEqual([["Tolstoy"], ["Hemingway"]]);
    expect(either.total).toBe(6);
    const three = await aggregate({
      resource_id: R,
      group_by: [{ field: "updated", period: "year" }, "in_stock", { field: "rating", bin: 5 }],
      metrics: [{ fn: "sum", field: "year" }],
      order_by: "updated",
    });
    expect(three.group_by).toEqual([{ field: "updated", period: "year" }, { field: "in_stock" }, { field: "rating", bin: 5 }]);
    expect(three.groups.map((g: { key: unknown[] }) => g.key)).toEqual([
      ["2001-01-01T00:00:00", true, 10],
      ["2019-01-01T00:00:00", false, 5],
      ["2020-01-01T00:00:00", false, 0],
      ["2020-01-01T00:00:00", true, 0],
      ["2021-01-01T00:00:00", null, 0],
      [null, true, null],
    ]);
    expect(three.groups[0].values).toEqual({ sum_year: 2001 });
    expect(three.groups[1].values).toEqual({ sum_year: null });
  });

  it("answers again from memory until a write, and then includes the write", async () => {
    const id = ok(await admin("datastore_create", { resource: { name: "kept" }, fields: [{ id: "k", type: "text" }], records: [{ k: "a" }, { k: "b" }], primary_key: "k" })).resource_id;
    const ask = { resource_id: id, group_by: "k", metrics: [{ fn: "count" }], totals: true };
    const first = await aggregate(ask);
    expect(first.totals).toEqual({ count: 2, values: { count: 2 } });
    expect(await aggregate(ask)).toEqual(first);
    ok(await admin("datastore_upsert", { resource_id: id, records: [{ k: "c" }], method: "upsert" }));
    expect((await aggregate(ask)).totals).toEqual({ count: 3, values: { count: 3 } });
    // A budget that the exact answer fits in leaves it exact.
    expect(await aggregate({ ...ask, budget_ms: 60_000 })).toMatchObject({ partial: false, total: 3 });
  });

  it("second form: answers 409 naming the parameter", async () => {
    const bad = async (params: Record<string, unknown>, key: string) => invalid(await call(ACTION, { resource_id: R, group_by: "author", ...params }), key);
    await bad({ metrics: [{ fn: "median", field: "rating" }] }, "metrics");
    await bad({ metrics: [{ fn: "sum", field: "title" }] }, "metrics");
    await bad({ metrics: [{ fn: "count_distinct", field: "meta" }] }, "metrics");
    await bad({ metrics: [{ fn: "count" }, { fn: "count" }] }, "metrics");
    await bad({ metrics: "[not json" }, "metrics");
    await bad({ having: { nope: 1 } }, "having");
    await bad({ having: { count: { between: 1 } } }, "having");
    await bad({ order_by: "title desc" }, "order_by");
    await bad({ group_by: [{ field: "title", period: "month" }] }, "group_by");
    await bad({ group_by: [{ field: "updated", bin: 2 }] }, "group_by");
    await bad({ group_by: ["author", "year", "rating", "title"] }, "group_by");
    await bad({ budget_ms: 0 }, "budget_ms");
    await bad({ offset: -1 }, "offset");
    const weird = [{}, [], [[]], [null], [{}], 5, -1, 0, true, null, "", " ", "1e400", "NaN", { a: [1] }, ["x", 1], [{ fn: "count", field: 1 }], "{", "[{"];
    for (const key of ["group_by", "metrics", "having", "order_by", "totals", "offset", "budget_ms"]) {
      for (const value of weird) {
        const res = await call(ACTION, { resource_id: R, group_by: "year", metrics: [{ fn: "count" }], [key]: value });
        expect([200, 409], `${key}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toContain(res.status);
        if (res.status === 409) expect(res.body.error.__type).toBe("Validation Error");
      }
    }
  });

  it("answers 409 for missing or bad parameters before looking the resource up", async () => {
    invalid(await call(ACTION, {}), "resource_id", "group_by");
    const bad = async (params: Record<string, unknown>, details: Record<string, unknown>) =>
      fails(await call(ACTION, { resource_id: "nope", group_by: "year", ...params }), 409, details, ACTION);
    for (const [limit, message] of [
      [0, "Must be between 1 and 10000"],
      [10_001, "Must be between 1 and 10000"],
      [-1, "Must be a natural number"],
      ["x", "Invalid integer"],
      [1.5, "Invalid integer"],
    ] as const) {
      await bad({ limit }, { limit: [message] });
    }
    await bad({ period: "decade" }, { period: ["Must be one of day, week, month, quarter, year"] });
    await bad({ bin: 0 }, { bin: ["Must be a positive number"] });
    await bad({ bin: "wide" }, { bin: ["Must be a positive number"] });
    await bad({ metric: "median" }, { metric: ["Must be one of count, sum, avg, min, max"] });
    await bad({ metric: "sum" }, { field: ["Missing value"] });
    await bad({ group_by: ["a", "b", "c", "d"] }, { group_by: ["Must be one to 3 field ids"] });
    invalid(await call(ACTION, { resource_id: "nope", group_by: "year", filters: "{" }), "filters");
  });

  it("answers 404 for an unknown resource", async () => {
    notFound(await call(ACTION, { resource_id: "nope", group_by: "year" }));
  });

  it("answers 409 for fields the resource does not have or cannot group or sum so", async () => {
    const bad = async (params: Record<string, unknown>, details: Record<string, unknown>) => fails(await call(ACTION, { resource_id: R, ...params }), 409, details, ACTION);
    await bad({ group_by: "nope" }, { group_by: ['field "nope" does not exist'] });
    await bad({ group_by: ["author", "nope"] }, { group_by: ['field "nope" does not exist'] });
    await bad({ group_by: "title", period: "month" }, { period: ['a period needs a date or timestamp field: "title" is text'] });
    await bad({ group_by: ["year", "rating"], period: "month" }, { period: ['a period needs a date or timestamp field: "year" is int4, "rating" is numeric'] });
    await bad({ group_by: "title", bin: 5 }, { bin: ['a bin needs a number field: "title" is text'] });
    await bad({ group_by: "updated", bin: 5 }, { bin: ['a bin needs a number field: "updated" is timestamp'] });
    await bad({ group_by: "author", metric: "sum", field: "title" }, { field: ['field "title" is text: sum needs a number field'] });
    await bad({ group_by: "author", metric: "avg", field: "nope" }, { field: ['field "nope" does not exist'] });
    invalid(await call(ACTION, { resource_id: R, group_by: "author", filters: { nope: 1 } }), "filters");
  });

  it("never answers 500, whatever the parameters hold", async () => {
    const weird = [{}, [], [[]], [null], [{}], 5, -1, 0, true, null, "", " ", "1e400", "NaN", { a: [1] }, ["x", 1]];
    for (const key of ["group_by", "period", "bin", "metric", "field", "limit"]) {
      for (const value of weird) {
        for (const metric of ["count", "sum"]) {
          const res = await call(ACTION, { resource_id: R, group_by: "year", field: "rating", metric, [key]: value });
          expect([200, 409], `${key}=${JSON.stringify(value)} (${metric}): ${JSON.stringify(res.body)}`).toContain(res.status);
          if (res.status === 409) expect(res.body.error.__type).toBe("Validation Error");
        }
      }
    }
  });

  it("answers 403 for a private resource without a read token, before checking its fields", async () => {
    denied(await call(ACTION, { resource_id: PRIVATE, group_by: "author" }));
    denied(await call(ACTION, { resource_id: PRIVATE, group_by: "nope" }));
    expect(await aggregate({ resource_id: PRIVATE, group_by: "author", limit: 1 }, { token: READ })).toMatchObject({
      resource_id: PRIVATE,
      groups: [group(["Tolstoy"], 2, 1)],
      others: { groups: 4, count: 4 },
      partial: false,
    });
  });
});
