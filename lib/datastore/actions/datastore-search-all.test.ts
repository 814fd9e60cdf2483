// datastore_search_all's ranges of `_id` for a table searched in parts: together they hold every
// id, the last one open (ids past the row count after deletes), about as many rows each.
import { describe, expect, it } from "vitest";
import { idRanges } from "./datastore-search-all";

describe("idRanges", () => {
  it("covers every id once, in two ranges of about as many rows", () => {
    expect(idRanges(10)).toEqual([{ lt: 6 }, { gte: 6 }]);
    expect(idRanges(3_000_001)).toEqual([{ lt: 1_500_002 }, { gte: 1_500_002 }]);
    const inRange = (id: number) => idRanges(7).filter((r) => (r.gte === undefined || id >= r.gte) && (r.lt === undefined || id < r.lt)).length;
    for (const id of [1, 4, 5, 7, 8, 1_000_000]) expect(inRange(id)).toBe(1);
  });
});
