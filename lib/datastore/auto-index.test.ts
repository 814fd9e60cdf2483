import { describe, expect, it } from "vitest";
import { AUTO_INDEX_MIN_ROWS, autoIndexes } from "./auto-index";

const fields = [
  { id: "origin", type: "text" as const },
  { id: "origin_name", type: "text" as const },
  { id: "city", type: "text" as const },
  { id: "state", type: "text" as const },
  { id: "note", type: "text" as const },
  { id: "delay", type: "int4" as const },
];
const stats = [
  { id: "origin", distinct: 300, avgLength: 3 },
  { id: "origin_name", distinct: 310, avgLength: 27 },
  { id: "city", distinct: 290, avgLength: 9 },
  { id: "state", distinct: 50, avgLength: 2 },
  { id: "note", distinct: 9_800, avgLength: 12 },
  { id: "delay", distinct: 400, avgLength: 2 },
];

describe("auto-index rule", () => {
  it("picks nothing while indexes are learned from use (DATASTORE_ADAPTIVE_INDEXES)", () => {
    expect(autoIndexes(fields, stats, 3_000_000, true)).toEqual([]);
  });
  it("is on when learning is off", () => {
    process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
    try {
      expect(autoIndexes(fields, stats, 3_000_000)).toEqual(["state", "origin", "city"]);
    } finally {
      delete process.env.DATASTORE_ADAPTIVE_INDEXES;
    }
    expect(autoIndexes(fields, stats, 3_000_000)).toEqual([]);
  });
  it("indexes short, repeating text fields, shortest first, at most three", () => {
    expect(autoIndexes(fields, stats, 3_000_000, false)).toEqual(["state", "origin", "city"]);
  });
  it("leaves long or nearly unique text and non-text fields alone", () => {
    // Only one field qualifies, so every other one is left out by the rule, not by the cap of
    // three; each sits just past one limit and would otherwise sort first.
    const f = [
      { id: "code", type: "text" as const },
      { id: "long_name", type: "text" as const },
      { id: "nearly_unique", type: "text" as const },
      { id: "constant", type: "text" as const },
      { id: "count", type: "int4" as const },
    ];
    const s = [
      { id: "code", distinct: 1_000, avgLength: 24 },
      { id: "long_name", distinct: 5, avgLength: 25 },
      { id: "nearly_unique", distinct: 1_001, avgLength: 1 },
      { id: "constant", distinct: 1, avgLength: 1 },
      { id: "count", distinct: 5, avgLength: 1 },
    ];
    expect(autoIndexes(f, s, 3_000_000, false)).toEqual(["code"]);
  });
  it("does nothing for small tables, where a scan is already fast", () => {
    expect(autoIndexes(fields, stats, AUTO_INDEX_MIN_ROWS - 1, false)).toEqual([]);
    expect(autoIndexes(fields, stats, AUTO_INDEX_MIN_ROWS, false)).toEqual(["state", "origin", "city"]);
  });
});
