// The sample's rule (search-sample.ts) without an engine: which ids it picks, when it reads the
// match's own ids instead, and how it keeps to n rows.
import { describe, expect, it } from "vitest";
import { extentPicks, MAX_PICKS, thin } from "./search-sample";

describe("extentPicks", () => {
  it("picks as many ids over the table's extent as make about n matches, one in each stretch", () => {
    const all = extentPicks(1, 3_000_000, 3_000_000, 2000) as number[];
    expect(all).toHaveLength(2000);
    all.forEach((id, i) => expect(Math.floor((id - 1) / 1500)).toBe(i));
    // A match of a tenth of the table: ten times the picks, about n of them matching.
    expect(extentPicks(1, 3_000_000, 300_000, 2000)).toHaveLength(20_000);
    // The same question, the same ids.
    expect(extentPicks(1, 3_000_000, 300_000, 2000)).toEqual(extentPicks(1, 3_000_000, 300_000, 2000));
  });

  it("reads the match's own ids when it is small, or too sparse for MAX_PICKS ids", () => {
    expect(extentPicks(1, 20_000, 8000, 2000)).toBe("positions");
    expect(extentPicks(1, 20_000, 8001, 2000)).toHaveLength(5000);
    const sparse = (2000 * 3_000_000) / MAX_PICKS;
    expect(extentPicks(1, 3_000_000, sparse, 2000)).toHaveLength(MAX_PICKS);
    expect(extentPicks(1, 3_000_000, sparse - 1, 2000)).toBe("positions");
  });
});

describe("thin", () => {
  it("keeps at most n rows, evenly apart, first included", () => {
    const rows = Array.from({ length: 10 }, (_, i) => i);
    expect(thin(rows, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(thin(rows, 10)).toBe(rows);
    expect(thin(rows, 3)).toEqual([0, 3, 6]);
  });
});
