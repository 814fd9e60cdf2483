import { describe, expect, it } from "vitest";
import { displayFields, formatCount, matchResources, truncate, valueText } from "./format";

describe("format", () => {
  it("formats counts with separators", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
  });
  it("renders values as one line", () => {
    expect(valueText(null)).toBe("");
    expect(valueText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(valueText(false)).toBe("false");
  });
  it("truncates long text", () => {
    expect(truncate("abcdef", 4)).toEqual({ text: "abc…", truncated: true });
    expect(truncate("abc", 4)).toEqual({ text: "abc", truncated: false });
  });
  it("hides rank columns unless asked for", () => {
    const result = [
      { id: "_id", type: "int" },
      { id: "name", type: "text" },
      { id: "rank", type: "float8" },
    ];
    expect(displayFields(result, undefined, null).map((f) => f.id)).toEqual(["_id", "name"]);
    expect(displayFields(result, [{ id: "name", type: "text" }], null).map((f) => f.id)).toEqual(["_id", "name"]);
    expect(displayFields(result, [{ id: "name", type: "text" }, { id: "rank", type: "int4" }], null)).toHaveLength(3);
    expect(displayFields(result, undefined, ["name", "rank"])).toHaveLength(3);
  });
  it("matches resources by any word, accents folded", () => {
    const rs = [
      { id: "1", name: "Flights 20k", aliases: ["flights-20k"], description: "Delays" },
      { id: "2", name: "Cafés", description: "Paris" },
    ];
    expect(matchResources(rs, "flights del").map((r) => r.id)).toEqual(["1"]);
    expect(matchResources(rs, "cafe").map((r) => r.id)).toEqual(["2"]);
    expect(matchResources(rs, "")).toHaveLength(2);
  });
});
