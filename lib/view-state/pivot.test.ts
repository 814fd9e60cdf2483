import { describe, expect, it } from "vitest";
import {
  DEFAULT_PIVOT,
  DEFAULT_VIEW,
  formatPivotKey,
  parseMeasure,
  parsePivotKey,
  parseViewState,
  serializeViewState,
  type PivotSettings,
} from "./index";

describe("the pivot in the URL", () => {
  it("reads rows, columns and the measure", () => {
    const v = parseViewState("resource_id=f&view=pivot&rows=origin,date:month&columns=distance:500&measure=avg:delay");
    expect(v.tab).toBe("pivot");
    expect(v.pivot).toEqual({
      rows: [{ field: "origin" }, { field: "date", period: "month" }],
      columns: { field: "distance", bin: 500 },
      measure: { fn: "avg", field: "delay" },
    });
  });

  it("round-trips through the canonical URL", () => {
    const pivots: PivotSettings[] = [
      DEFAULT_PIVOT,
      { rows: [{ field: "origin" }], columns: null, measure: { fn: "count", field: null } },
      { rows: [{ field: "lat", bin: 0.5 }, { field: "date", period: "week" }], columns: { field: "origin" }, measure: { fn: "max", field: "delay" } },
      // ids with commas and colons travel as repeated keys
      { rows: [{ field: "a,b" }], columns: { field: "c,d", period: "year" }, measure: { fn: "sum", field: "x:y" } },
      { rows: [{ field: "a,b" }, { field: "e" }], columns: null, measure: { fn: "min", field: "n" } },
    ];
    for (const pivot of pivots) {
      const url = serializeViewState({ ...DEFAULT_VIEW, resource_id: "f", tab: "pivot", pivot }).toString();
      expect(parseViewState(url).pivot).toEqual(pivot);
    }
  });

  it("leaves the defaults out of the URL", () => {
    expect(serializeViewState({ ...DEFAULT_VIEW, resource_id: "f" }).toString()).toBe("resource_id=f");
    const url = serializeViewState({ ...DEFAULT_VIEW, resource_id: "f", pivot: { ...DEFAULT_PIVOT, rows: [{ field: "origin" }] } });
    expect(url.toString()).toBe("resource_id=f&rows=origin");
  });

  it("degrades what it cannot read", () => {
    const v = parseViewState("rows=a,a,b,c&columns=a&measure=median:delay");
    // two row keys at most, no field twice, the columns not a row field
    expect(v.pivot).toEqual({ rows: [{ field: "a" }, { field: "b" }], columns: null, measure: DEFAULT_PIVOT.measure });
    expect(parseViewState("rows=,&columns=&measure=sum").pivot).toEqual(DEFAULT_PIVOT);
    expect(parseViewState("measure=sum:").pivot.measure).toEqual(DEFAULT_PIVOT.measure);
  });

  it("reads a key's period or bin from its last colon", () => {
    expect(parsePivotKey("date:quarter")).toEqual({ field: "date", period: "quarter" });
    expect(parsePivotKey("lat:0.25")).toEqual({ field: "lat", bin: 0.25 });
    expect(parsePivotKey("a:b:day")).toEqual({ field: "a:b", period: "day" });
    // not a period nor a positive width: all of it is the field
    expect(parsePivotKey("time:noon")).toEqual({ field: "time:noon" });
    expect(parsePivotKey("x:0")).toEqual({ field: "x:0" });
    expect(parsePivotKey("x:-5")).toEqual({ field: "x:-5" });
    expect(parsePivotKey(":month")).toEqual({ field: ":month" });
    expect(formatPivotKey({ field: "delay", bin: 15 })).toBe("delay:15");
  });

  it("reads a measure as fn:field, count alone", () => {
    expect(parseMeasure("count")).toEqual({ fn: "count", field: null });
    expect(parseMeasure("count:delay")).toEqual({ fn: "count", field: null });
    expect(parseMeasure("max:a:b")).toEqual({ fn: "max", field: "a:b" });
    expect(parseMeasure(null)).toEqual({ fn: "count", field: null });
  });
});
