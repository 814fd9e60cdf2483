import { describe, expect, it } from "vitest";
import { translator } from "@/lib/i18n";
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
  it("explains it in the reader's language", () => {
    const fr = translator("fr", "fr-FR");
    const r = parseTypedValue("4.5", "delay", "int4", fr);
    expect(!r.ok && r.message).toMatch(/^« 4\.5 » ne convient pas : delay contient des valeurs de type nombre entier/);
    expect(parseTypedValue(" ", "x", "text", fr)).toEqual({ ok: false, message: "Saisissez d’abord une valeur." });
    expect(parseTypedValue("maybe", "open", "bool", translator("de", "de-DE"))).toEqual({ ok: false, message: "open enthält true oder false." });
  });
});
