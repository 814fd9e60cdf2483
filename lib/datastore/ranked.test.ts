// What every engine's best-first pages share: which searches are best-first, the kept lists
// (least recently used out, bounded by ids held) and the positions a page reads.
import { describe, expect, it } from "vitest";
import type { SearchQuery } from "./engine";
import { RankedLists, pagePositions, sharedRank, type RankedList } from "./ranked";

const query = (over: Partial<SearchQuery>): SearchQuery => ({
  filters: [],
  fts: [],
  columns: ["_id", "rank"],
  sort: [{ field: "rank", desc: true, nullsFirst: true }],
  distinct: false,
  limit: 10,
  offset: 0,
  includeTotal: true,
  ...over,
});

describe("sharedRank", () => {
  const ranks = new Map([
    ["rank", "R"],
    ["rank a", "R"],
    ["rank b", "S"],
  ]);

  it("is the rank expression the sort and every rank column share", () => {
    expect(sharedRank(ranks, query({}))).toBe("R");
    expect(sharedRank(ranks, query({ columns: ["rank a"], sort: [{ field: "rank", desc: true, nullsFirst: true }, { field: "rank a", desc: true, nullsFirst: true }] }))).toBe("R");
  });

  it("is null when sorted by something else, both ways, by another rank, or distinct", () => {
    expect(sharedRank(ranks, query({ sort: [{ field: "_id", desc: false, nullsFirst: false }] }))).toBeNull();
    expect(sharedRank(ranks, query({ sort: [] }))).toBeNull();
    expect(sharedRank(ranks, query({ sort: [{ field: "rank", desc: true, nullsFirst: true }, { field: "rank a", desc: false, nullsFirst: false }] }))).toBeNull();
    expect(sharedRank(ranks, query({ columns: ["rank b"] }))).toBeNull();
    expect(sharedRank(ranks, query({ distinct: true }))).toBeNull();
  });
});

describe("RankedLists", () => {
  const list = (n: number): RankedList => ({ ids: new Float64Array(n), ranks: new Float64Array(n) });

  it("keeps lists, the least recently used out first past a million ids", () => {
    const lists = new RankedLists<RankedList>();
    const a = lists.keep("a", list(400_000));
    lists.keep("b", list(400_000));
    expect(lists.get("a")).toBe(a); // a is now the most recently used
    lists.keep("c", list(400_000));
    expect(lists.has("b")).toBe(false);
    expect(lists.has("a")).toBe(true);
    expect(lists.has("c")).toBe(true);
  });

  it("does not keep a list too long to, nor a second one under a key", () => {
    const lists = new RankedLists<RankedList>();
    lists.keep("big", list(1_000_001));
    expect(lists.has("big")).toBe(false);
    const first = lists.keep("k", list(3));
    lists.keep("k", list(3));
    expect(lists.get("k")).toBe(first);
  });
});

describe("pagePositions", () => {
  it("reads from the best end ranked descending, from the worst ascending", () => {
    expect(pagePositions(10, { sort: [{ field: "rank", desc: true, nullsFirst: true }], offset: 2, limit: 3 })).toEqual([2, 3, 4]);
    expect(pagePositions(10, { sort: [{ field: "rank", desc: false, nullsFirst: false }], offset: 2, limit: 3 })).toEqual([7, 6, 5]);
  });

  it("stops at the list's end; a negative limit reads all", () => {
    expect(pagePositions(4, { sort: [{ field: "rank", desc: true, nullsFirst: true }], offset: 3, limit: 10 })).toEqual([3]);
    expect(pagePositions(4, { sort: [{ field: "rank", desc: true, nullsFirst: true }], offset: 9, limit: 10 })).toEqual([]);
    expect(pagePositions(3, { sort: [{ field: "rank", desc: true, nullsFirst: true }], offset: 0, limit: -1 })).toEqual([0, 1, 2]);
  });
});
