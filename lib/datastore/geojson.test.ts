// A row as a Feature: the whole Feature stringified as one object, or, when a property's key
// would not keep its place in an object, written key by key; the same JSON either way.
import { describe, expect, it } from "vitest";
import type { ColumnInfo } from "./formats";
import { featureJson } from "./geojson";

describe("featureJson", () => {
  const cols: ColumnInfo[] = [
    { id: "_id", type: "int" },
    { id: "lat", type: "float8" },
    { id: "name", type: "text" },
    { id: "lon", type: "numeric" },
  ];

  it("a Point from lat and lon (numbers or numeric text), the other columns as properties; no coordinates, no geometry", () => {
    const feature = featureJson({ lat: 1, lon: 3 }, cols);
    expect(feature([1, 59.91, "Oslo", "10.75"])).toBe('{"type":"Feature","geometry":{"type":"Point","coordinates":[10.75,59.91]},"properties":{"_id":1,"name":"Oslo"}}');
    expect(JSON.parse(feature([2, null, "Nowhere", 1])).geometry).toBeNull();
    expect(JSON.parse(feature([3, "north", "Bad", 1])).geometry).toBeNull();
  });

  it("a property named like an array index keeps its place (written key by key)", () => {
    const odd = [...cols, { id: "7", type: "int4" } as ColumnInfo];
    const text = featureJson({ lat: 1, lon: 3 }, odd)([1, 59.91, "Oslo", 10.75, 7]);
    expect(text).toBe('{"type":"Feature","geometry":{"type":"Point","coordinates":[10.75,59.91]},"properties":{"_id":1,"name":"Oslo","7":7}}');
  });

  it("a geometry field's GeoJSON (an object or its text) as the geometry, left out of the properties", () => {
    const shapes: ColumnInfo[] = [
      { id: "label", type: "text" },
      { id: "geometry", type: "text" },
    ];
    const feature = featureJson({ geometry: 1 }, shapes);
    expect(JSON.parse(feature(["a", '{"type":"LineString","coordinates":[[0,0],[1,1]]}']))).toEqual({ type: "Feature", geometry: { type: "LineString", coordinates: [[0, 0], [1, 1]] }, properties: { label: "a" } });
    expect(JSON.parse(feature(["b", "not json {"])).geometry).toBeNull();
  });
});
