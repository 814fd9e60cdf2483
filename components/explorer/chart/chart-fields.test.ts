import { describe, expect, it } from "vitest";
import type { DatastoreField } from "@/lib/api-client";
import { DEFAULT_VIEW, type ChartSettings } from "@/lib/view-state";
import { defaultPeriod, fieldLabel, needsHint, parseTime, resolveChart, xChoices } from "./chart-fields";

const FLIGHTS: DatastoreField[] = [
  { id: "date", type: "timestamp", info: { label: "Departure" } },
  { id: "delay", type: "int4", info: { label: "Delay (min)" } },
  { id: "distance", type: "int4" },
  { id: "origin", type: "text" },
  { id: "destination", type: "text" },
];
const MOVIES: DatastoreField[] = [
  { id: "Title", type: "text" },
  { id: "US Gross", type: "int8" },
  { id: "Release Date", type: "date" },
  { id: "MPAA Rating", type: "text" },
  { id: "Tags", type: "_text" },
];

const settings = (s: Partial<ChartSettings>): ChartSettings => ({ ...DEFAULT_VIEW.chart, ...s });

describe("the fields each chart draws", () => {
  it("bar groups any scalar field; line needs a date; scatter numbers; histogram numbers or dates", () => {
    expect(xChoices("bar", MOVIES).map((f) => f.id)).toEqual(["Title", "US Gross", "Release Date", "MPAA Rating"]);
    expect(xChoices("line", MOVIES).map((f) => f.id)).toEqual(["Release Date"]);
    expect(xChoices("scatter", FLIGHTS).map((f) => f.id)).toEqual(["delay", "distance"]);
    expect(xChoices("histogram", FLIGHTS).map((f) => f.id)).toEqual(["date", "delay", "distance"]);
  });

  it("labels a field by its data dictionary label, else its id", () => {
    expect(fieldLabel(FLIGHTS, "date")).toBe("Departure");
    expect(fieldLabel(FLIGHTS, "origin")).toBe("origin");
  });
});

describe("defaults", () => {
  it("bar: the first text field with a few values, else the one with the fewest, else the first", () => {
    const distinct = new Map([
      ["Title", 3201],
      ["MPAA Rating", 7],
    ]);
    expect(resolveChart(settings({ type: "bar" }), MOVIES, { distinct }).x).toBe("MPAA Rating");
    expect(resolveChart(settings({ type: "bar" }), MOVIES).x).toBe("Title");
    const many = new Map([
      ["origin", 220],
      ["destination", 180],
    ]);
    expect(resolveChart(settings({ type: "bar" }), FLIGHTS, { distinct: many }).x).toBe("destination");
    // one value is no chart: skipped while another field has more
    expect(resolveChart(settings({ type: "bar" }), FLIGHTS, { distinct: new Map([["origin", 1], ["destination", 300]]) }).x).toBe("destination");
  });

  it("line: the first date field, and a period that suits its range", () => {
    const chart = resolveChart(settings({ type: "line" }), FLIGHTS, { range: { min: "2001-01-01T00:47:00", max: "2001-03-31T22:27:00" } });
    expect(chart).toEqual({ type: "line", x: "date", y: null, agg: "count", period: "week" });
    expect(resolveChart(settings({ type: "line", period: "month" }), FLIGHTS).period).toBe("month");
  });

  it("picks periods from a dozen to about 150 points", () => {
    expect(defaultPeriod("2020-01-01", "2020-01-31")).toBe("day");
    expect(defaultPeriod("2001-01-01T00:47:00", "2001-03-31T22:27:00")).toBe("week");
    expect(defaultPeriod("2012-01-01", "2015-12-31")).toBe("month");
    expect(defaultPeriod("1980-01-01", "2010-12-31")).toBe("quarter");
    expect(defaultPeriod("1915-01-01", "2010-12-31")).toBe("year");
    expect(defaultPeriod(null, null)).toBe("month");
  });

  it("scatter: two different number fields; histogram: the first number or date", () => {
    expect(resolveChart(settings({ type: "scatter" }), FLIGHTS)).toMatchObject({ x: "delay", y: "distance" });
    expect(resolveChart(settings({ type: "scatter", x: "distance" }), FLIGHTS)).toMatchObject({ x: "distance", y: "delay" });
    expect(resolveChart(settings({ type: "histogram" }), FLIGHTS).x).toBe("date");
  });

  it("a sum or an average reads the first number field; without one, only the count", () => {
    expect(resolveChart(settings({ type: "bar", x: "origin", agg: "sum" }), FLIGHTS)).toMatchObject({ y: "delay", agg: "sum" });
    const textOnly: DatastoreField[] = [{ id: "name", type: "text" }];
    expect(resolveChart(settings({ type: "bar", agg: "avg" }), textOnly)).toMatchObject({ x: "name", y: null, agg: "count" });
  });

  it("a setting the fields cannot take falls back to the default", () => {
    expect(resolveChart(settings({ type: "line", x: "origin", period: "year" }), FLIGHTS).x).toBe("date");
    expect(resolveChart(settings({ type: "bar", x: "nope" }), FLIGHTS).x).toBe("origin");
    expect(resolveChart(settings({ type: "bar", x: "origin", agg: "sum", y: "origin" }), FLIGHTS).y).toBe("delay");
    expect(resolveChart(settings({ type: "line" }), MOVIES.slice(0, 2)).x).toBeNull();
  });

  it("waits for a hint only where a default needs one", () => {
    expect(needsHint(settings({ type: "bar" }), FLIGHTS)).toBe("distinct");
    expect(needsHint(settings({ type: "bar", x: "origin" }), FLIGHTS)).toBeNull();
    expect(needsHint(settings({ type: "bar" }), [{ id: "name", type: "text" }])).toBeNull();
    expect(needsHint(settings({ type: "line" }), FLIGHTS)).toBe("range");
    expect(needsHint(settings({ type: "line", period: "day" }), FLIGHTS)).toBeNull();
    expect(needsHint(settings({ type: "line" }), [{ id: "name", type: "text" }])).toBeNull();
    expect(needsHint(settings({ type: "scatter" }), FLIGHTS)).toBeNull();
  });

  it("reads API dates and zone-less timestamps as UTC", () => {
    expect(parseTime("2001-03-01")?.toISOString()).toBe("2001-03-01T00:00:00.000Z");
    expect(parseTime("2001-03-01T10:30:00")?.toISOString()).toBe("2001-03-01T10:30:00.000Z");
    expect(parseTime("2001-03-01T10:30:00+02:00")?.toISOString()).toBe("2001-03-01T08:30:00.000Z");
    expect(parseTime("soon")).toBeNull();
    expect(parseTime(null)).toBeNull();
  });
});
