import { describe, expect, it } from "vitest";
import type { SearchOutput, SearchQuery } from "./engine";
import { PageCache } from "./page-cache";

const query: SearchQuery = { filters: [], fts: [], columns: ["_id"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: true };
const page = (bytes: number, extra: Partial<SearchOutput> = {}): SearchOutput => ({ rows: [], records: new Uint8Array(bytes), total: 5, totalEstimated: false, ...extra });

describe("PageCache", () => {
  it("answers the same query at the same version only", () => {
    const cache = new PageCache(10_000);
    const answer = page(10);
    cache.keep("t1:1", query, answer);
    expect(cache.get("t1:1", query)).toBe(answer);
    expect(cache.get("t1:2", query)).toBeUndefined();
    expect(cache.get("t2:1", query)).toBeUndefined();
    expect(cache.get("t1:1", { ...query, offset: 10 })).toBeUndefined();
  });

  it("keeps neither estimated totals, nor rows not encoded, nor answers too big", () => {
    const cache = new PageCache(10_000);
    cache.keep("1", query, page(10, { totalEstimated: true }));
    cache.keep("2", query, { rows: [[1]], total: 1 });
    cache.keep("3", query, page(10_001));
    expect(["1", "2", "3"].map((v) => cache.get(v, query))).toEqual([undefined, undefined, undefined]);
    const off = new PageCache(0);
    off.keep("1", query, page(1));
    expect(off.get("1", query)).toBeUndefined();
  });

  it("lets the least recently used answers go past its size, keys and entries counted", () => {
    // Each entry: 1,000 bytes of records, its key, and 512 for the entry: three do not fit in 5,000.
    const cache = new PageCache(5_000);
    for (const v of ["1", "2", "3"]) cache.keep(v, query, page(1_000));
    expect(cache.get("1", query)).toBeUndefined(); // the oldest went
    expect(cache.get("2", query)).toBeDefined(); // used: now the newest
    cache.keep("4", query, page(1_000));
    expect(cache.get("3", query)).toBeUndefined();
    expect(cache.get("2", query)).toBeDefined();
    expect(cache.get("4", query)).toBeDefined();
    // Empty answers are not free: a long key alone can fill it.
    const long = { ...query, filters: [{ op: "eq" as const, field: "k", value: "x".repeat(3_000) }] };
    cache.keep("5", long, page(0));
    expect(cache.get("5", long)).toBeUndefined();
  });
});
