import { describe, expect, it } from "vitest";
import { displayFields, formatCount, matchResources, matchStatus, totalPlural, totalText, truncate, valueText } from "./format";

describe("format", () => {
  it("formats counts with separators", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
  });
  it("shows an exact total whole, an estimated one as about three significant digits", () => {
    expect(totalText(13110, false)).toBe("13,110");
    expect(totalText(13110, true)).toBe("about 13,100");
    expect(totalText(13150, true)).toBe("about 13,200");
    expect(totalText(130046, true)).toBe("about 130,000");
    expect(totalText(2948513, true)).toBe("about 2,950,000");
    expect(totalText(99960, true)).toBe("about 100,000");
    expect(totalText(1000, true)).toBe("about 1,000");
    expect(totalText(987, true)).toBe("about 987");
    expect(totalText(0, true)).toBe("about 0");
    expect(totalPlural(1, false, "record")).toBe("1 record");
    expect(totalPlural(1, true, "record")).toBe("about 1 record");
    expect(totalPlural(13110, true, "record")).toBe("about 13,100 records");
  });
  it("words the match count beside the search box", () => {
    expect(matchStatus(3000000, false, false, 3000000)).toBe("3,000,000 records");
    expect(matchStatus(12711, false, true, 3000000)).toBe("12,711 of 3,000,000 records match");
    expect(matchStatus(130046, true, true, 3000000)).toBe("About 130,000 of 3,000,000 records match");
    expect(matchStatus(130046, true, true, undefined)).toBe("About 130,000 records match");
    expect(matchStatus(1, false, true, undefined)).toBe("1 record match");
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
