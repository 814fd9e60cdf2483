import { describe, expect, it } from "vitest";
import { translator } from "@/lib/i18n";
import { barRange, boundToInput, compareBounds, inputType, parseBound, rangeKind } from "./range-kind";

describe("rangeKind", () => {
  it("numbers, dates and timestamps take a range; text does not", () => {
    expect(["int", "int4", "int8", "float8", "numeric", "date", "timestamp", "text", "bool", "_text"].map(rangeKind)).toEqual([
      "integer", "integer", "integer", "number", "number", "date", "timestamp", null, null, null,
    ]);
    expect(inputType("timestamp")).toBe("date");
    expect(inputType("date")).toBe("date");
    expect(inputType("integer")).toBe("number");
  });
});

describe("bounds", () => {
  it("a chip's bound as an input value", () => {
    expect(boundToInput(60, "integer")).toBe("60");
    expect(boundToInput("abc", "number")).toBe("");
    expect(boundToInput("2001-03-01T10:00:00", "date")).toBe("2001-03-01");
    expect(boundToInput("2001-03-01", "timestamp")).toBe("2001-03-01");
    expect(boundToInput("2001-03-31T23:59:59", "timestamp")).toBe("2001-03-31");
    expect(boundToInput(null, "date")).toBe("");
  });

  it("an input value as a bound", () => {
    expect(parseBound(" 60 ", "integer", "From", "delay", "int4")).toEqual({ ok: true, value: 60 });
    expect(parseBound("", "integer", "From", "delay", "int4")).toEqual({ ok: true, value: null });
    const bad = parseBound("6.5", "integer", "To", "delay", "int4");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/^To: .*whole number/);
    expect(parseBound("2001-03-01", "date", "From", "d", "date")).toEqual({ ok: true, value: "2001-03-01" });
    expect(parseBound("2001-03-01", "timestamp", "From", "d", "timestamp")).toEqual({ ok: true, value: "2001-03-01" });
    expect(parseBound("2001-03-31", "timestamp", "To", "d", "timestamp")).toEqual({ ok: true, value: "2001-03-31T23:59:59" });
    expect(parseBound("2001-03", "date", "From", "d", "date")).toEqual({ ok: false, message: "From is not a complete date." });
  });

  it("says what is wrong with a bound in the reader's language", () => {
    const fr = translator("fr", "fr-FR");
    expect(parseBound("2001-03", "date", "From", "d", "date", fr)).toEqual({ ok: false, message: "De : la date n’est pas complète." });
    const bad = parseBound("6.5", "integer", "To", "delay", "int4", fr);
    expect(!bad.ok && bad.message).toMatch(/^À : « 6\.5 » ne convient pas : delay/);
    expect(parseBound("x", "date", "To", "d", "date", translator("de", "de-DE"))).toEqual({ ok: false, message: "Bis: Das Datum ist unvollständig." });
  });

  it("compares bounds of one kind", () => {
    expect(compareBounds(9, 10, "integer")).toBe(-1);
    expect(compareBounds("10", 9, "number")).toBe(1);
    expect(compareBounds("2001-03-01", "2001-03-01T23:59:59", "timestamp")).toBe(-1);
    expect(compareBounds("2001-03-02", "2001-03-01", "date")).toBe(1);
  });
});

describe("barRange: the inclusive From/To that keep a bar's rows", () => {
  it("whole numbers stop one before the next bar", () => {
    expect(barRange({ from: 60, to: 70 }, false, "integer")).toEqual({ from: "60", to: "69" });
    expect(barRange({ from: 60, to: 70 }, true, "integer")).toEqual({ from: "60", to: "70" });
    expect(barRange({ from: 0.5, to: 2.5 }, false, "integer")).toEqual({ from: "1", to: "2" });
    expect(barRange({ from: 0.25, to: 0.5 }, false, "integer")).toBeNull();
  });
  it("other numbers keep the bar's edges", () => {
    expect(barRange({ from: 0.5, to: 1 }, false, "number")).toEqual({ from: "0.5", to: "1" });
  });
  it("dates and timestamps stop the day before the next bar", () => {
    expect(barRange({ from: "2001-01-01", to: "2001-02-01" }, false, "date")).toEqual({ from: "2001-01-01", to: "2001-01-31" });
    expect(barRange({ from: "2001-12-01", to: "2001-12-31" }, true, "date")).toEqual({ from: "2001-12-01", to: "2001-12-31" });
    expect(barRange({ from: "2001-01-01T00:00:00", to: "2001-01-08T00:00:00" }, false, "timestamp")).toEqual({
      from: "2001-01-01",
      to: "2001-01-07",
    });
    expect(barRange({ from: "2001-03-01T06:30:00", to: "2001-03-31T23:00:00" }, true, "timestamp")).toEqual({
      from: "2001-03-01",
      to: "2001-03-31",
    });
  });
});
