// Contract §6.1/§6.6 through the real handler: `total` is exact unless the client sends
// `total_estimation_threshold`, and then estimated only when an exact count overruns its
// budget and the estimate is at least the threshold (CKAN 2.11's rule).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { ADMIN, call, createResource, freshDb, isPostgres } from "../test/api";
import { bulkInsert } from "../test/bulk-insert";
import { fails, ok, search } from "../test/contract";

// As in lib/datastore/sqlite/count.test.ts: k = 0 matches 25,000 of 120,000 rows, and SQLite's
// estimate from the first 100,000 rows says 30,000. PostgreSQL estimates from its planner's
// statistics: there the estimate is read once, and the rules are checked around it.
const EXACT = 25_000;
let ESTIMATE = 30_000;
let R: string;

beforeAll(async () => {
  freshDb();
  R = await createResource({ fields: [{ id: "k", type: "int4" }] });
  const { engine } = await getDatastore();
  await bulkInsert(engine, R, Array.from({ length: 120_000 }, (_, i) => ({ k: i < 100_000 ? i % 4 : 1 })));
  // Every count that may scan overruns a budget of 0 ms, as a slow one would.
  process.env.DATASTORE_COUNT_BUDGET_MS = "0";
  if (isPostgres) {
    const r = await search({ resource_id: R, filters: { k: 0 }, limit: 0, total_estimation_threshold: 0 });
    expect(r.total_was_estimated).toBe(true);
    expect(Number.isInteger(r.total) && r.total >= 0).toBe(true);
    ESTIMATE = r.total;
  }
});

afterAll(() => {
  delete process.env.DATASTORE_COUNT_BUDGET_MS;
});

const totals = (r: Record<string, unknown>) => ({
  total_estimation_threshold: r.total_estimation_threshold,
  total: r.total,
  total_was_estimated: r.total_was_estimated,
});

describe("datastore_search totals", () => {
  it("are exact without total_estimation_threshold, even past the count budget", async () => {
    const r = await search({ resource_id: R, filters: { k: 0 }, limit: 1 });
    expect(totals(r)).toEqual({ total_estimation_threshold: null, total: EXACT, total_was_estimated: false });
    const nulled = await search({ resource_id: R, filters: { k: 0 }, limit: 1, total_estimation_threshold: null });
    expect(totals(nulled)).toEqual({ total_estimation_threshold: null, total: EXACT, total_was_estimated: false });
  });

  it("are estimated past the budget when the estimate reaches the threshold", async () => {
    expect(await search({ resource_id: R, filters: { k: 0 }, limit: 1, total_estimation_threshold: 0 })).toEqual({
      include_total: true,
      resource_id: R,
      records_format: "objects",
      limit: 1,
      total_estimation_threshold: 0,
      filters: { k: 0 },
      fields: [{ id: "_id", type: "int" }, { id: "k", type: "int4" }],
      records: [{ _id: 1, k: 0 }],
      _links: { start: "/api/action/datastore_search", next: "/api/action/datastore_search?offset=1" },
      total: ESTIMATE,
      total_was_estimated: true,
      include_next_page: false,
    });
    for (const threshold of [0, EXACT + 1, ESTIMATE].filter((t) => t <= ESTIMATE)) {
      const r = await search({ resource_id: R, filters: { k: 0 }, limit: 1, total_estimation_threshold: threshold });
      expect(totals(r)).toEqual({ total_estimation_threshold: threshold, total: ESTIMATE, total_was_estimated: true });
    }
  });

  it("are exact when the estimate is below the threshold", async () => {
    const r = await search({ resource_id: R, filters: { k: 0 }, limit: 1, total_estimation_threshold: ESTIMATE + 1 });
    expect(totals(r)).toEqual({ total_estimation_threshold: ESTIMATE + 1, total: EXACT, total_was_estimated: false });
  });

  it("take the threshold from a GET query string, echoed as an integer", async () => {
    const threshold = Math.min(100, ESTIMATE);
    const res = await call("datastore_search", { resource_id: R, filters: { k: 0 }, limit: 0, total_estimation_threshold: String(threshold) }, { method: "GET", token: ADMIN });
    expect(totals(ok(res, "datastore_search"))).toEqual({ total_estimation_threshold: threshold, total: ESTIMATE, total_was_estimated: true });
  });

  it("stay exact where counting is cheap: no filter counts from the catalog", async () => {
    const r = await search({ resource_id: R, limit: 0, total_estimation_threshold: 0 });
    expect(totals(r)).toEqual({ total_estimation_threshold: 0, total: 120_000, total_was_estimated: false });
  });

  it("are left out with include_total false, threshold or not", async () => {
    const r = await search({ resource_id: R, filters: { k: 0 }, limit: 1, include_total: false, total_estimation_threshold: 0 });
    expect(r).not.toHaveProperty("total");
    expect(r).not.toHaveProperty("total_was_estimated");
  });

  it("refuse a negative threshold", async () => {
    const res = await call("datastore_search", { resource_id: R, total_estimation_threshold: -1 });
    fails(res, 409, { total_estimation_threshold: ["Must be a natural number"] }, "datastore_search");
  });
});
