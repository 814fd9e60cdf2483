import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { openEngine } from "../open";
import type { SqliteEngine } from "./engine";

// 120,000 rows: k cycles 0–3 over the first 100,000 (the estimate's sample), then is 1 for the
// last 20,000. So k = 0 matches 25,000 rows, and the sample scales that up to 30,000: an
// estimate and an exact count tell themselves apart.
const ROWS = 120_000;
const SAMPLE = 100_000;
const EXACT = 25_000;
const ESTIMATE = 30_000;

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "k"], sort: [], distinct: false, limit: 5, offset: 0, includeTotal: true };
const kIs0: SearchQuery = { ...base, filters: [{ op: "eq", field: "k", value: 0 }] };

describe("totals: exact unless the client sets total_estimation_threshold", () => {
  let engine: SqliteEngine;
  const total = async (id: string, query: SearchQuery) => {
    const out = await engine.search((await engine.getResource(id))!, query);
    return { total: out.total, estimated: out.totalEstimated };
  };

  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "count-")), "count.db");
    engine = (await openEngine({ file, readWorkers: 0 })) as SqliteEngine;
    await engine.createResource({ id: "big", name: "big", description: "", private: false }, [{ id: "k", type: "int4" }]);
    await engine.write("big", Array.from({ length: ROWS }, (_, i) => ({ k: i < SAMPLE ? i % 4 : 1 })), "insert");
    await engine.createResource({ id: "small", name: "small", description: "", private: false }, [{ id: "k", type: "int4" }]);
    await engine.write("small", Array.from({ length: 1000 }, (_, i) => ({ k: i % 4 })), "insert");
    // A budget of 0 ms: every count that may scan overruns it, as a slow one would.
    process.env.DATASTORE_COUNT_BUDGET_MS = "0";
  });

  afterEach(() => {
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
  });

  afterAll(async () => {
    delete process.env.DATASTORE_COUNT_BUDGET_MS;
    await engine.close();
  });

  it("counts exactly without a threshold, however long the count takes", async () => {
    expect(await total("big", kIs0)).toEqual({ total: EXACT, estimated: false });
  });

  it("estimates past the budget when the estimate reaches the threshold", async () => {
    expect(await total("big", { ...kIs0, totalEstimationThreshold: 0 })).toEqual({ total: ESTIMATE, estimated: true });
    // CKAN's rule is estimate >= threshold, and it looks at the estimate, not at the exact count.
    expect(await total("big", { ...kIs0, totalEstimationThreshold: ESTIMATE })).toEqual({ total: ESTIMATE, estimated: true });
    expect(await total("big", { ...kIs0, totalEstimationThreshold: EXACT + 1 })).toEqual({ total: ESTIMATE, estimated: true });
  });

  it("finishes the exact count when the estimate is below the threshold", async () => {
    expect(await total("big", { ...kIs0, totalEstimationThreshold: ESTIMATE + 1 })).toEqual({ total: EXACT, estimated: false });
    expect(await total("big", { ...kIs0, totalEstimationThreshold: 1_000_000 })).toEqual({ total: EXACT, estimated: false });
  });

  it("counts exactly within the budget even with a threshold", async () => {
    process.env.DATASTORE_COUNT_BUDGET_MS = "60000";
    try {
      expect(await total("big", { ...kIs0, totalEstimationThreshold: 0 })).toEqual({ total: EXACT, estimated: false });
    } finally {
      process.env.DATASTORE_COUNT_BUDGET_MS = "0";
    }
  });

  it("keeps the cheap exact counts (the catalog's row count) with a threshold", async () => {
    expect(await total("big", { ...base, totalEstimationThreshold: 0 })).toEqual({ total: ROWS, estimated: false });
  });

  it("counts a table no bigger than the sample exactly: the sample would be all of it", async () => {
    expect(await total("small", { ...kIs0, totalEstimationThreshold: 0 })).toEqual({ total: 250, estimated: false });
  });

  it("answers 409 past the query time limit rather than guessing, without a threshold", async () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "1";
    // The page is quick (the first rows match); counting 120,000 rows is not.
    const err = await engine.search((await engine.getResource("big"))!, { ...kIs0, filters: [{ op: "in", field: "k", values: [0, 2] }] }).catch((e) => e);
    expect(err).toBeInstanceOf(DatastoreError);
    expect(Object.keys((err as DatastoreError).details)).toEqual(["query"]);
  });

  // Last: it writes to "big".
  it("keeps an exact count for the resource's version, until a write", async () => {
    expect(await total("big", kIs0)).toEqual({ total: EXACT, estimated: false });
    await engine.write("big", [{ k: 0 }], "insert");
    expect(await total("big", kIs0)).toEqual({ total: EXACT + 1, estimated: false });
    await engine.deleteRows("big", [{ op: "eq", field: "_id", value: ROWS + 1 }]);
    expect(await total("big", kIs0)).toEqual({ total: EXACT, estimated: false });
  });
});
