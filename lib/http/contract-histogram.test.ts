// datastore_histogram (our extension, docs/api.md "Actions"): the whole envelope through the real
// handler, its parameters, and its errors in value counts' order (409, then 404, then 403).
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, createBooks, denied, fails, invalid, notFound, ok, token } from "../test/contract";

const ACTION = "datastore_histogram";
let R: string;
let PRIVATE: string;
let READ: string;

beforeAll(async () => {
  freshDb();
  R = await createBooks({ aliases: "histogram_books" });
  PRIVATE = await createBooks({}, true);
  READ = await token("read");
});

const histogram = async (params: Record<string, unknown>, opts = {}) => ok(await call(ACTION, params, opts), ACTION);
/** Bins of `width` from `from`, counting `counts` in order. */
const bins = (from: number, width: number, counts: number[]) => counts.map((count, i) => ({ from: from + i * width, to: from + (i + 1) * width, count }));

describe("datastore_histogram", () => {
  it("answers the spread of an integer field in round bins, empty values left out", async () => {
    expect(await histogram({ resource_id: R, field: "year" })).toEqual({
      resource_id: R,
      field: "year",
      min: 1869,
      max: 2001,
      // 1869, 1877, 1952, 1967, 2001 in bins of 10 years from 1860
      bins: bins(1860, 10, [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1]),
      partial: false,
    });
  });

  it("bins real numbers with the last bin closed, and takes bins, by GET too", async () => {
    const out = await histogram({ id: "histogram_books", field: "rating", bins: "5" }, { method: "GET" });
    expect(out).toEqual({ resource_id: R, field: "rating", min: 3.9, max: 10, bins: bins(2, 2, [1, 2, 0, 2]), partial: false });
    expect((await histogram({ resource_id: R, field: "rating", bins: 1 })).bins).toEqual([{ from: 3.9, to: 10, count: 5 }]);
    expect((await histogram({ resource_id: R, field: "_id", bins: 100 })).bins).toEqual(bins(1, 1, [1, 1, 1, 1, 1, 1]));
  });

  it("counts a value on a decimal bin's edge once, in the bin it starts (summary and histogram alike)", async () => {
    // 0.1 … 1.0 and their negatives: binary floating point puts 0.3 / 0.1 at 2.9999999999999996.
    const xs = Array.from({ length: 10 }, (_, i) => Number(((i + 1) / 10).toFixed(1)));
    for (const type of ["float8", "numeric"]) {
      const id = ok(await admin("datastore_create", { resource: { name: `edges ${type}` }, fields: [{ id: "x", type }], records: [...xs, ...xs.map((x) => -x)].map((x) => ({ x })) })).resource_id;
      const out = await histogram({ resource_id: id, field: "x", bins: 20 });
      expect(out.bins.map((b: { from: number }) => b.from)).toEqual(Array.from({ length: 20 }, (_, i) => Number((-1 + i / 10).toFixed(1))));
      // -1.0 … -0.1 and 0.1 … 0.9 each start a bin; 1.0, the max, falls in the last one.
      expect(out.bins.map((b: { count: number }) => b.count), type).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
      const summary = ok(await call("datastore_summary", { resource_id: id, bins: 20 }), "datastore_summary");
      expect(summary.fields[0].bins).toEqual(out.bins);
    }
  });

  it("bins timestamps and dates by calendar units and answers ISO text", async () => {
    const out = await histogram({ resource_id: R, field: "updated", bins: 20 });
    expect(out).toMatchObject({ min: "2001-01-01T00:00:00", max: "2021-06-15T08:30:00", partial: false });
    expect(out.bins).toHaveLength(11);
    expect(out.bins[0]).toEqual({ from: "2000-01-01T00:00:00", to: "2002-01-01T00:00:00", count: 1 });
    expect(out.bins.slice(-2)).toEqual([
      { from: "2018-01-01T00:00:00", to: "2020-01-01T00:00:00", count: 1 },
      { from: "2020-01-01T00:00:00", to: "2022-01-01T00:00:00", count: 3 },
    ]);
    const days = ok(
      await admin("datastore_create", {
        resource: { name: "days" },
        fields: [{ id: "d", type: "date" }],
        records: ["2024-02-27", "2024-02-29", "2024-03-01", "2024-03-01", null].map((d) => ({ d })),
      }),
    ).resource_id;
    expect(await histogram({ resource_id: days, field: "d" })).toEqual({
      resource_id: days,
      field: "d",
      min: "2024-02-27",
      max: "2024-03-01",
      bins: [
        { from: "2024-02-27", to: "2024-02-28", count: 1 },
        { from: "2024-02-28", to: "2024-02-29", count: 0 },
        { from: "2024-02-29", to: "2024-03-01", count: 1 },
        { from: "2024-03-01", to: "2024-03-02", count: 2 },
      ],
      partial: false,
    });
  });

  it("narrows to q and filters, as datastore_search does", async () => {
    const tolstoy = await histogram({ resource_id: R, field: "year", filters: { author: "Tolstoy" } });
    expect(tolstoy).toMatchObject({ min: 1869, max: 1877, bins: bins(1869, 1, [1, 0, 0, 0, 0, 0, 0, 0, 1]) });
    const classics = await histogram({ resource_id: R, field: "year", q: "classic", filters: JSON.stringify({ author: "Tolstoy" }), bins: "2" }, { method: "GET" });
    expect(classics).toMatchObject({ min: 1869, max: 1877, bins: bins(1860, 10, [1, 1]) });
  });

  it("answers no bins when nothing matches", async () => {
    expect(await histogram({ resource_id: R, field: "year", q: "nowhere" })).toEqual({ resource_id: R, field: "year", min: null, max: null, bins: [], partial: false });
  });

  it("answers 409 for missing or bad parameters before looking the resource up", async () => {
    invalid(await call(ACTION, {}), "resource_id", "field");
    for (const [bins, message] of [
      [0, "Must be between 1 and 100"],
      [101, "Must be between 1 and 100"],
      [-1, "Must be a natural number"],
      ["x", "Invalid integer"],
      [1.5, "Invalid integer"],
    ] as const) {
      fails(await call(ACTION, { resource_id: "nope", field: "year", bins }), 409, { bins: [message] }, ACTION);
    }
    invalid(await call(ACTION, { resource_id: "nope", field: "year", filters: "{" }), "filters");
  });

  it("answers 404 for an unknown resource", async () => {
    notFound(await call(ACTION, { resource_id: "nope", field: "year" }));
  });

  it("answers 409 on field for an unknown field or one it cannot bin", async () => {
    fails(await call(ACTION, { resource_id: R, field: "nope" }), 409, { field: ['invalid value "nope"'] }, ACTION);
    fails(await call(ACTION, { resource_id: R, field: "title" }), 409, { field: ['field "title" is text: a histogram needs a number, date or timestamp field'] }, ACTION);
    fails(await call(ACTION, { resource_id: R, field: "in_stock" }), 409, { field: ['field "in_stock" is bool: a histogram needs a number, date or timestamp field'] }, ACTION);
    invalid(await call(ACTION, { resource_id: R, field: "year", filters: { nope: 1 } }), "filters");
  });

  it("answers 403 for a private resource without a read token, before checking the field", async () => {
    denied(await call(ACTION, { resource_id: PRIVATE, field: "year" }));
    denied(await call(ACTION, { resource_id: PRIVATE, field: "nope" }));
    expect(await histogram({ resource_id: PRIVATE, field: "year", bins: 3 }, { token: READ })).toMatchObject({ resource_id: PRIVATE, min: 1869, max: 2001, partial: false });
  });
});
