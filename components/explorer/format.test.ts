import { describe, expect, it } from "vitest";
import { translator } from "@/lib/i18n";
import {
  describeType,
  displayFields,
  fieldNotes,
  formatCount,
  formatDate,
  formatFieldValue,
  formatNumber,
  formatTimestamp,
  formatValue,
  groupsDigits,
  matchResources,
  matchStatus,
  totalRecords,
  totalText,
  truncate,
  typeInWords,
  valueText,
} from "./format";

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
    expect(totalRecords(1, false)).toBe("1 record");
    expect(totalRecords(1, true)).toBe("about 1 record");
    expect(totalRecords(13110, true)).toBe("about 13,100 records");
  });
  it("words the match count beside the search box", () => {
    expect(matchStatus(3000000, false, false, 3000000)).toBe("3,000,000 records");
    expect(matchStatus(12711, false, true, 3000000)).toBe("12,711 of 3,000,000 records match");
    expect(matchStatus(130046, true, true, 3000000)).toBe("About 130,000 of 3,000,000 records match");
    expect(matchStatus(130046, true, true, undefined)).toBe("About 130,000 records match");
    expect(matchStatus(1, false, true, undefined)).toBe("1 record match");
    expect(matchStatus(130046, true, true, 3000000, translator("fr", "fr-FR"))).toBe("Correspondances : environ 130\u202f000 sur 3\u202f000\u202f000 d’enregistrements");
    expect(matchStatus(12711, false, false, undefined, translator("de", "de-DE"))).toBe("12.711 Datensätze");
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
  it("says every type in a few plain words", () => {
    expect(["int", "int4", "int8"].map((type) => typeInWords(type))).toEqual(["whole number", "whole number", "whole number"]);
    expect(["float8", "numeric"].map((type) => typeInWords(type))).toEqual(["number", "number"]);
    expect(typeInWords("date")).toBe("date");
    expect(typeInWords("timestamp")).toBe("date and time");
    expect(typeInWords("time")).toBe("time");
    expect(typeInWords("text")).toBe("text");
    expect(typeInWords("bool")).toBe("yes/no");
    expect(typeInWords("json")).toBe("JSON");
    expect(typeInWords("_text")).toBe("list of text");
    expect(typeInWords("_int4")).toBe("list of whole numbers");
    expect(typeInWords("_bool")).toBe("list of yes/no values");
    expect(typeInWords("someothertype")).toBe("text");
  });
  it("adds how to type a value where the words don't say it", () => {
    expect(describeType("int4")).toBe("whole number");
    expect(describeType("date")).toBe("date (YYYY-MM-DD)");
    expect(describeType("timestamp")).toBe("date and time (YYYY-MM-DDTHH:MM:SS)");
    expect(describeType("bool")).toBe("yes/no (true or false)");
  });
  it("reads the data dictionary's notes", () => {
    expect(fieldNotes({ id: "a", type: "text", info: { notes: " Why. " } })).toBe("Why.");
    expect(fieldNotes({ id: "a", type: "text", info: { notes: "" } })).toBeNull();
    expect(fieldNotes({ id: "a", type: "text", info: { notes: 3 } })).toBeNull();
    expect(fieldNotes({ id: "a", type: "text" })).toBeNull();
  });
  it("writes numbers in the reader's locale, every digit kept", () => {
    expect(formatNumber(12345, "en-US")).toBe("12,345");
    expect(formatNumber(6000, "en-US")).toBe("6,000");
    expect(formatNumber(2001, "en-US", false)).toBe("2001");
    expect(formatNumber(12345.5, "de-DE", false)).toBe("12345,5");
    expect(formatNumber(-1234567.891, "en-US")).toBe("-1,234,567.891");
    expect(formatNumber(47.449889, "en-US")).toBe("47.449889");
    expect(formatNumber(12345.5, "de-DE")).toBe("12.345,5");
    expect(formatNumber(0.1, "fr-FR")).toBe("0,1");
    expect(formatNumber(1e21, "en-US")).toBe("1e+21");
    expect(formatNumber("12.50", "en-US")).toBe("12.50");
  });
  it("writes dates and timestamps in the reader's locale, as stored (no time zone shift)", () => {
    expect(formatDate("2012-01-31", "en-US")).toBe("Jan 31, 2012");
    expect(formatDate("2012-01-31", "de-DE")).toBe("31.01.2012");
    expect(formatDate("0099-03-01", "en-US")).toBe("Mar 1, 99");
    expect(formatDate("2012-02-30", "en-US")).toBeNull();
    expect(formatDate("2012-13-01", "en-US")).toBeNull();
    expect(formatDate("soon", "en-US")).toBeNull();
    expect(formatTimestamp("2001-01-13T14:56:00", "en-US")).toBe("Jan 13, 2001, 2:56 PM");
    expect(formatTimestamp("2001-01-13T00:00:05", "en-US")).toBe("Jan 13, 2001, 12:00:05 AM");
    expect(formatTimestamp("2001-01-13T14:56:00", "de-DE")).toBe("13.01.2001, 14:56");
    expect(formatTimestamp("2001-01-13 14:56", "en-GB")).toBe("13 Jan 2001, 14:56");
  });
  it("groups the digits of amounts, not of years and codes", () => {
    expect(groupsDigits({ id: "Worldwide Gross", type: "int8" })).toBe(true);
    expect(groupsDigits({ id: "Release Year", type: "int4" })).toBe(false);
    expect(groupsDigits({ id: "yr", type: "int4" })).toBe(false);
    expect(groupsDigits({ id: "zip_code", type: "int4" })).toBe(false);
    expect(groupsDigits({ id: "n", type: "int4", info: { label: "Year of birth" } })).toBe(false);
    expect(groupsDigits({ id: "paid", type: "int4" })).toBe(true);
    expect(formatFieldValue(2001, { id: "year", type: "int4" }, "en-US")).toBe("2001");
    expect(formatFieldValue(12001, { id: "_id", type: "int" }, "en-US")).toBeNull();
    expect(formatFieldValue(12001, { id: "votes", type: "int4" }, "en-US")).toBe("12,001");
  });
  it("formats a value by its field's type, or leaves it as stored", () => {
    expect(formatValue(12345, "int4", "en-US")).toBe("12,345");
    expect(formatValue("12345.25", "numeric", "en-US")).toBe("12,345.25");
    expect(formatValue("123456789012345678", "numeric", "en-US")).toBeNull();
    expect(formatValue("2012-01-31", "date", "en-US")).toBe("Jan 31, 2012");
    expect(formatValue("2001-01-13T14:56:00", "timestamp", "en-US")).toBe("Jan 13, 2001, 2:56 PM");
    expect(formatValue("12345", "text", "en-US")).toBeNull();
    expect(formatValue(true, "bool", "en-US")).toBeNull();
    expect(formatValue(null, "int4", "en-US")).toBeNull();
    expect(formatValue("not a date", "date", "en-US")).toBeNull();
  });
});
