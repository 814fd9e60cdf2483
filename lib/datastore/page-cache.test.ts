import { describe, expect, it } from "vitest";
import type { SearchOutput, SearchQuery } from "./engine";
import { PageCache } from "./page-cache";

const query: SearchQuery = { filters: [], fts: [], columns: ["_id"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: true };
const page = (bytes: number, extra: Partial<SearchOutput> = {}): SearchOutput => ({ rows: [], records: new Uint8Array(bytes), total: 5, totalEstimated: false, ...extra });

describe("PageCache", () => {
  it("answers the same query at the same version only", () => {
    const cache = new PageCache(1000);
    const answer = page(10);
    cache.keep("r", 1, query, answer);
    expect(cache.get("r", 1, query)).toBe(answer);
    expect(cache.get("r", 2, query)).toBeUndefined();
    expect(cache.get("other", 1, query)).toBeUndefined();
    expect(cache.get("r", 1, { ...query, offset: 10 })).toBeUndefined();
  });

  it("keeps neither estimated totals, nor rows not encoded, nor answers too big", () => {
    const cache = new PageCache(1000);
    cache.keep("r", 1, query, page(10, { totalEstimated: true }));
    cache.keep("r", 2, query, { rows: [[1]], total: 1 });
    cache.keep("r", 3, query, page(1001));
    expect([1, 2, 3].map((v) => cache.get("r", v, query))).toEqual([undefined, undefined, undefined]);
    const off = new PageCache(0);
    off.keep("r", 1, query, page(1));
    expect(off.get("r", 1, query)).toBeUndefined();
  });

  it("lets the least recently used answers go past its size", () => {
    const cache = new PageCache(100);
    for (const v of [1, 2, 3]) cache.keep("r", v, query, page(40));
    expect(cache.get("r", 1, query)).toBeUndefined(); // 120 bytes: the oldest went
    expect(cache.get("r", 2, query)).toBeDefined(); // used: now the newest
    cache.keep("r", 4, query, page(40));
    expect(cache.get("r", 3, query)).toBeUndefined();
    expect(cache.get("r", 2, query)).toBeDefined();
    expect(cache.get("r", 4, query)).toBeDefined();
  });
});
