import { describe, expect, it } from "vitest";
import { cellBounds, chooseCellSize, coarser, formatSize, roundEdge, zoomFilters } from "./grid";
import { contains, fitExtent, robustRange, showsUs } from "./extent";

describe("chooseCellSize", () => {
  it("covers the wider side in at most 150 cells, in round sizes", () => {
    // the US with Alaska and Hawaii: 1° cells
    expect(chooseCellSize({ latMin: 18, latMax: 65, lonMin: -160, lonMax: -66 })).toBe(1);
    expect(chooseCellSize({ latMin: -85, latMax: 85, lonMin: -180, lonMax: 180 })).toBe(5);
    // a city
    expect(chooseCellSize({ latMin: 47.5, latMax: 47.75, lonMin: -122.45, lonMax: -122.2 })).toBe(0.002);
    expect(chooseCellSize({ latMin: 0, latMax: 0.00001, lonMin: 0, lonMax: 0.00001 })).toBe(0.0001);
  });

  it("steps to coarser sizes and stops at the last", () => {
    expect(coarser(1)).toBe(2);
    expect(coarser(0.05)).toBe(0.1);
    expect(coarser(10)).toBeNull();
  });

  it("gives cells round edges", () => {
    expect(roundEdge(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(cellBounds(40.1 + 0.2, -74, 0.1)).toEqual({ latMin: 40.3, latMax: 40.4, lonMin: -74, lonMax: -73.9 });
    expect(formatSize(1)).toBe("1°");
    expect(formatSize(0.05)).toBe("0.05°");
  });

  it("zooms into a cell with two range chips, keeping the other filters", () => {
    const filters = zoomFilters({ state: "CA", latitude: { gte: 0 } }, { lat: "latitude", lon: "longitude" }, cellBounds(34, -118, 1));
    expect(filters).toEqual({ state: "CA", latitude: { gte: 34, lte: 35 }, longitude: { gte: -118, lte: -117 } });
  });
});

describe("extent", () => {
  it("leaves out a few far-off values, weighted by rows, and keeps near ones", () => {
    const core = Array.from({ length: 1000 }, (_, i) => ({ value: i / 10, weight: 1 }));
    expect(robustRange([...core, { value: 500, weight: 1 }, { value: -500, weight: 1 }])).toEqual([0, 99.9]);
    // stragglers a small gap apart stay, up to the first wide gap
    expect(robustRange([...core, { value: 110, weight: 1 }, { value: 125, weight: 1 }, { value: 400, weight: 1 }])).toEqual([0, 125]);
    // with few rows, every one shows
    expect(robustRange([{ value: 1, weight: 1 }, { value: 100, weight: 1 }])).toEqual([1, 100]);
    // a heavy cell far off stays
    expect(robustRange([{ value: 1, weight: 10 }, { value: 100, weight: 10 }])).toEqual([1, 100]);
    // tail 0: everything
    expect(robustRange([...core, { value: 500, weight: 1 }], 0)).toEqual([0, 500]);
    expect(robustRange([])).toBeNull();
  });

  it("leaves out places far off on one axis from the other axis too", () => {
    const us = Array.from({ length: 400 }, (_, i) => ({ lat: 25 + (i % 40), lon: -125 + (i % 60) }));
    const guam = [{ lat: 13.4, lon: 144.8 }, { lat: 15.1, lon: 145.7 }];
    const e = fitExtent([...us, ...guam])!;
    expect(e.lonMax).toBeLessThan(-60);
    expect(e.latMin).toBeGreaterThan(20);
    expect(fitExtent([...us, ...guam], 0)!.lonMax).toBeGreaterThan(145);
  });

  it("fits places with padding, never empty, within Mercator's reach", () => {
    const e = fitExtent([{ lat: 45, lon: -122 }])!;
    expect(e.latMax - e.latMin).toBeGreaterThan(0);
    expect(contains(e, { lat: 45, lon: -122 })).toBe(true);
    expect(contains({ latMin: 50, latMax: 60, lonMin: -185, lonMax: -170 }, { lat: 52, lon: 178 })).toBe(true);
    const world = fitExtent([{ lat: -89, lon: -180 }, { lat: 89, lon: 180 }])!;
    expect(world).toEqual({ latMin: -85, latMax: 85, lonMin: -180, lonMax: 180 });
    expect(fitExtent([])).toBeNull();
  });

  it("knows when a map is of the US", () => {
    expect(showsUs({ latMin: 18, latMax: 71, lonMin: -170, lonMax: -64 })).toBe(true);
    expect(showsUs({ latMin: 11, latMax: 73.6, lonMin: -180, lonMax: -60 })).toBe(true);
    expect(showsUs({ latMin: 47.5, latMax: 47.75, lonMin: -122.45, lonMax: -122.2 })).toBe(true);
    expect(showsUs({ latMin: 35, latMax: 60, lonMin: -10, lonMax: 30 })).toBe(false);
    expect(showsUs({ latMin: -85, latMax: 85, lonMin: -180, lonMax: 180 })).toBe(false);
  });
});
