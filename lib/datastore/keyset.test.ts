// The keyset walk: each page's query seeks past the last `_id` of the one before, the offset
// applies to the first page only, and the walk stops at the limit or a short page.
import { describe, expect, it } from "vitest";
import type { SearchQuery } from "./engine";
import { keysetPages } from "./keyset";

const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  filters: [{ op: "eq", field: "a", value: 1 }],
  fts: [],
  columns: ["_id"],
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit: -1,
  offset: 5,
  includeTotal: true,
  ...over,
});

describe("keysetPages", () => {
  it("seeks past each page's last _id, with the offset on the first page only", () => {
    const pages = keysetPages(query(), 10);
    const first = pages.next().value!;
    expect(first).toMatchObject({ limit: 10, offset: 5, lastId: true, includeTotal: false, filters: [{ op: "eq", field: "a", value: 1 }] });
    const second = pages.next({ rows: 10, lastId: 42 }).value!;
    expect(second).toMatchObject({ limit: 10, offset: 0 });
    expect(second.filters).toEqual([
      { op: "eq", field: "a", value: 1 },
      { op: "gt", field: "_id", value: 42 },
    ]);
    // a short page is the last
    expect(pages.next({ rows: 3, lastId: 60 }).done).toBe(true);
  });

  it("walks down in descending order, and stops at the limit", () => {
    const pages = keysetPages(query({ sort: [{ field: "_id", desc: true, nullsFirst: true }], limit: 15, offset: 0 }), 10);
    expect(pages.next().value!.limit).toBe(10);
    const second = pages.next({ rows: 10, lastId: 90 }).value!;
    expect(second.limit).toBe(5);
    expect(second.filters.at(-1)).toEqual({ op: "lt", field: "_id", value: 90 });
    expect(pages.next({ rows: 5, lastId: 80 }).done).toBe(true);
  });

  it("stops when a page has no last _id", () => {
    const pages = keysetPages(query(), 10);
    pages.next();
    expect(pages.next({ rows: 10 }).done).toBe(true);
  });
});
