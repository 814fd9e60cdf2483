// datastore_search's `sample` extension through the real handler: about n rows spread through the
// whole match in `_id` order (its beginning, middle and end, with and without filters), the exact
// total, the same rows for the same request (and on every engine: the rule's own picks), and
// 409 on `sample` for a bad value or a parameter it cannot go with.
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshDb } from "../test/api";
import { admin, invalid, ok, search } from "../test/contract";
import { extentPicks, thin } from "../datastore/search-sample";

let R: string;
/** The version before the rows were deleted. */
let before: number;
const ROWS = 3000;
/** Rows 1001–1100 are deleted: a gap in the `_id`s. */
const GONE = Array.from({ length: 100 }, (_, k) => 1001 + k);

beforeAll(async () => {
  freshDb();
  const records = Array.from({ length: ROWS }, (_, k) => {
    const i = k + 1;
    return { i, half: i % 2 ? "odd" : "even", zone: i <= 600 ? "early" : i > 2400 ? "late" : "mid" };
  });
  const fields = [
    { id: "i", type: "int4" },
    { id: "half", type: "text" },
    { id: "zone", type: "text" },
  ];
  R = ok(await admin("datastore_create", { resource: { name: "spread" }, fields, records })).resource_id;
  before = ok(await admin("datastore_info", { resource_id: R })).meta.version;
  ok(await admin("datastore_delete", { resource_id: R, filters: { i: GONE } }));
});

/** The matching rows' `_id`s, in order. */
async function match(filters?: Record<string, unknown>): Promise<number[]> {
  const r = await search({ resource_id: R, fields: ["_id"], limit: ROWS, ...(filters ? { filters } : {}) });
  return r.records.map((x: { _id: number }) => x._id);
}

/** The sample is in the match, in `_id` order, and spread through it: each tenth of the match
 *  holds about a tenth of the sample, the first and last twentieth some of it. */
function expectSpread(sample: number[], all: number[]): void {
  const at = sample.map((id) => all.indexOf(id));
  expect(at.every((p) => p >= 0)).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  expect(new Set(at).size).toBe(at.length);
  const tenth = all.length / 10;
  for (let d = 0; d < 10; d++) {
    const inside = at.filter((p) => p >= d * tenth && p < (d + 1) * tenth).length;
    expect(inside, `tenth ${d}`).toBeGreaterThanOrEqual(sample.length / 20);
    expect(inside, `tenth ${d}`).toBeLessThanOrEqual((sample.length * 3) / 20);
  }
  expect(at[0]).toBeLessThan(all.length / 20);
  expect(at[at.length - 1]).toBeGreaterThan(all.length - all.length / 20);
}

describe("sample", () => {
  it("without a filter: about n rows from the whole table, the exact total, the rule's own picks", async () => {
    const r = await search({ resource_id: R, sample: 200 });
    const all = await match();
    expect(all).toHaveLength(ROWS - GONE.length);
    expect(r).toMatchObject({ sample: 200, limit: 200, total: all.length, total_was_estimated: false });
    const got = r.records.map((x: { _id: number }) => x._id);
    expect(got.length).toBeGreaterThanOrEqual(185);
    expect(got.length).toBeLessThanOrEqual(200);
    expectSpread(got, all);
    // Every engine answers the rule's picks (search-sample.ts) that match, no others.
    const picks = extentPicks(all[0], all[all.length - 1], all.length, 200);
    expect(Array.isArray(picks)).toBe(true);
    const matching = new Set(all);
    expect(got).toEqual(thin((picks as number[]).filter((id) => matching.has(id)), 200));
    expect(Object.keys(r.records[0])).toEqual(["_id", "i", "half", "zone"]);
  });

  it("under a filter matching rows all through the table: about n of them, spread", async () => {
    const filters = { half: "even" };
    const r = await search({ resource_id: R, filters, sample: 200, fields: ["_id", "half"] });
    const all = await match(filters);
    expect(r.total).toBe(all.length);
    expect(r.records.every((x: { half: string }) => x.half === "even")).toBe(true);
    const got = r.records.map((x: { _id: number }) => x._id);
    expect(got.length).toBeGreaterThanOrEqual(160);
    expect(got.length).toBeLessThanOrEqual(200);
    expectSpread(got, all);
  });

  it("under a filter matching one stretch of the table: rows from its beginning, middle and end", async () => {
    for (const [zone, n, least] of [
      ["early", 100, 80], // the pick over the table's extent: about n
      ["late", 200, 200], // a small match: a pick over its positions, exactly n rows
    ] as const) {
      const r = await search({ resource_id: R, filters: { zone }, sample: n, fields: ["_id"] });
      const all = await match({ zone });
      expect(r.total).toBe(600);
      const got = r.records.map((x: { _id: number }) => x._id);
      expect(got.length).toBeGreaterThanOrEqual(least);
      expect(got.length).toBeLessThanOrEqual(n);
      expectSpread(got, all);
    }
  });

  it("answers the same rows for the same request; all of a match no larger than n", async () => {
    const params = { resource_id: R, filters: { half: "odd" }, sample: 150, records_format: "lists" };
    const first = await search(params);
    expect(await search(params)).toEqual(first);
    expect(first.records[0]).toHaveLength(4);
    const whole = await search({ resource_id: R, filters: { zone: "late" }, sample: 600, fields: ["_id"] });
    expect(whole.records.map((x: { _id: number }) => x._id)).toEqual(await match({ zone: "late" }));
    // Clamped as limit is.
    const big = await search({ resource_id: R, sample: 999_999, fields: ["_id"] });
    expect(big).toMatchObject({ sample: 32000, limit: 32000, total: ROWS - GONE.length });
    expect(big.records).toHaveLength(ROWS - GONE.length);
    const none = await search({ resource_id: R, filters: { zone: "nowhere" }, sample: 10 });
    expect(none).toMatchObject({ total: 0, records: [] });
  });

  it("reads the rows of a past version with as_of, spread through that version's match", async () => {
    const r = await search({ resource_id: R, sample: 300, as_of: before, fields: ["_id"] });
    expect(r).toMatchObject({ total: ROWS, as_of: { version: before } });
    const got = r.records.map((x: { _id: number }) => x._id);
    expect(got.length).toBeGreaterThanOrEqual(280);
    expectSpread(got, Array.from({ length: ROWS }, (_, k) => k + 1));
    expect(got.some((id: number) => GONE.includes(id))).toBe(true);
  });

  it("takes sort by _id alone, and keeps include_total false", async () => {
    const a = await search({ resource_id: R, sample: 50, fields: ["_id"] });
    expect(await search({ resource_id: R, sample: "50", sort: "_id asc", fields: ["_id"] })).toMatchObject({ records: a.records });
    expect(await search({ resource_id: R, sample: 50, sort: ['"_id"'], fields: ["_id"] })).toMatchObject({ records: a.records });
    expect(await search({ resource_id: R, sample: 50, include_total: false, fields: ["_id"] })).not.toHaveProperty("total");
  });

  it("409 on sample for a bad value or a parameter it cannot go with", async () => {
    for (const sample of [0, -1, 1.5, "x", true, [1], { n: 1 }]) {
      invalid(await call("datastore_search", { resource_id: R, sample }), "sample");
    }
    for (const extra of [{ offset: 10 }, { limit: 10 }, { distinct: true }, { sort: "i desc" }, { sort: "_id desc" }, { sort: "_id, i" }, { include_next_page: true }]) {
      invalid(await call("datastore_search", { resource_id: R, sample: 10, ...extra }), "sample");
    }
    invalid(await call("datastore_search", { resource_id: "_table_metadata", sample: 10 }), "sample");
    // Over GET too.
    invalid(await call("datastore_search", { resource_id: R, sample: "-3" }, { method: "GET" }), "sample");
  });
});
