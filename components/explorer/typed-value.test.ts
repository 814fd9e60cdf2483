import { describe, expect, it } from "vitest";
import { parseTypedValue } from "./typed-value";

describe("parseTypedValue", () => {
  it("converts by field type", () => {
    expect(parseTypedValue(" 42 ", "delay", "int4")).toEqual({ ok: true, value: 42 });
    expect(parseTypedValue("4.5", "x", "float8")).toEqual({ ok: true, value: 4.5 });
    expect(parseTypedValue("yes", "x", "bool")).toEqual({ ok: true, value: true });
    expect(parseTypedValue(" SEA", "origin", "text")).toEqual({ ok: true, value: "SEA" });
  });
  it("explains a value the field can't hold", () => {
    const r = parseTypedValue("4.5", "delay", "int4");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain("whole number");
    expect(parseTypedValue("", "x", "text").ok).toBe(false);
  });
});
