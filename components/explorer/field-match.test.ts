import { describe, expect, it } from "vitest";
import { fieldLabel, matchFields } from "./field-match";

const fields = [
  { id: "_id", type: "int" },
  { id: "date", type: "timestamp", info: { label: "Departure" } },
  { id: "delay", type: "int4", info: { label: "Delay (min)" } },
  { id: "origin", type: "text" },
  { id: "destination", type: "text" },
  { id: "Origin airport", type: "text" },
];
const ids = (term: string) => matchFields(fields, term).map((f) => f.id);

describe("matchFields", () => {
  it("keeps every field, in order, for an empty term", () => {
    expect(ids("  ")).toEqual(fields.map((f) => f.id));
  });
  it("matches the id and the label, case-insensitive", () => {
    expect(ids("DEPART")).toEqual(["date"]);
    expect(ids("min")).toEqual(["delay"]);
    expect(ids("zz")).toEqual([]);
  });
  it("puts an exact match first, then the names that start with the term", () => {
    expect(ids("origin")).toEqual(["origin", "Origin airport"]);
    expect(ids("d")).toEqual(["date", "delay", "destination", "_id"]);
    expect(ids("de")).toEqual(["date", "delay", "destination"]);
  });
});

describe("fieldLabel", () => {
  it("is the label when it says more than the id", () => {
    expect(fieldLabel(fields[1])).toBe("Departure");
    expect(fieldLabel({ id: "x", type: "text", info: { label: "x" } })).toBeNull();
    expect(fieldLabel({ id: "x", type: "text", info: { label: 3 } })).toBeNull();
    expect(fieldLabel({ id: "x", type: "text" })).toBeNull();
  });
});
