import { describe, expect, it } from "vitest";
import { autoIndexes } from "./auto-index";

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
  it("indexes short, repeating text fields, shortest first, at most three", () => {
    expect(autoIndexes(fields, stats, 3_000_000)).toEqual(["state", "origin", "city"]);
  });
  it("leaves long or nearly unique text and non-text fields alone", () => {
    const picked = autoIndexes(fields, stats, 3_000_000);
    expect(picked).not.toContain("origin_name");
    expect(picked).not.toContain("note");
    expect(picked).not.toContain("delay");
  });
  it("does nothing for small tables, where a scan is already fast", () => {
    expect(autoIndexes(fields, stats, 9_999)).toEqual([]);
  });
});
