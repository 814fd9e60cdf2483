import { describe, expect, it } from "vitest";
import { parseViewState, serializeViewState } from "./codec";
import { fieldsNamed, withoutFields } from "./view-fields";

const VIEW = parseViewState(
  "resource_id=r&filters=" +
    encodeURIComponent(JSON.stringify({ a: 1, $$b: 2, $or: [{ c: 1 }, { d: { gte: 1 } }] })) +
    "&sort=e+desc%2C+a&fields=a%2Cf&view=chart&x=g&y=a&lat=h&lon=i&rows=j%2Cd%3Ayear&columns=a&measure=sum%3Ak",
);

describe("fieldsNamed", () => {
  it("every field a view names, with the parameter naming it", () => {
    expect(fieldsNamed(VIEW)).toEqual([
      { key: "filters", field: "a" },
      { key: "filters", field: "$b" },
      { key: "filters", field: "c" },
      { key: "filters", field: "d" },
      { key: "sort", field: "e" },
      { key: "sort", field: "a" },
      { key: "fields", field: "a" },
      { key: "fields", field: "f" },
      { key: "x", field: "g" },
      { key: "y", field: "a" },
      { key: "lat", field: "h" },
      { key: "lon", field: "i" },
      { key: "rows", field: "j" },
      { key: "rows", field: "d" },
      { key: "columns", field: "a" },
      { key: "measure", field: "k" },
    ]);
  });
});

describe("withoutFields", () => {
  it("leaves out every mention of the fields gone, and keeps the rest as it was", () => {
    const out = withoutFields(VIEW, new Set(["a", "d", "h"]));
    expect(out.filters).toEqual({ $$b: 2, $or: [{ c: 1 }] });
    expect(out.sort).toBe("e desc");
    expect(out.fields).toEqual(["f"]);
    expect([out.chart.x, out.chart.y, out.map.lat, out.map.lon]).toEqual(["g", null, null, "i"]);
    expect(out.pivot).toEqual({ rows: [{ field: "j" }], columns: null, measure: { fn: "sum", field: "k" } });
    expect(withoutFields(VIEW, new Set(["k"])).pivot.measure).toEqual({ fn: "count", field: null });
    expect(serializeViewState(withoutFields(VIEW, new Set()))).toEqual(serializeViewState(VIEW));
  });

  it("a view left with no columns shows them all; a group left empty goes", () => {
    const out = withoutFields(VIEW, new Set(["a", "f", "c", "d"]));
    expect(out.fields).toBeNull();
    expect(out.filters).toEqual({ $$b: 2 });
  });
});
