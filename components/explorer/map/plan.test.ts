import { describe, expect, it } from "vitest";
import type { AggregateResult } from "@/lib/api-client";
import { cellsLayer, mergeCells, planFrom, POINTS_BOUND } from "./plan";

function grid(groups: [unknown, unknown, number, number][], extra: Partial<AggregateResult> = {}): AggregateResult {
  const rows = groups.reduce((n, g) => n + g[2], 0);
  return {
    resource_id: "r",
    group_by: ["lat", "lon"],
    period: null,
    bin: 1,
    metric: "count",
    field: null,
    total: rows,
    rows,
    partial: false,
    groups: groups.map(([lat, lon, count, id]) => ({ key: [lat, lon], count, value: count, _id: id })),
    others: { groups: 0, count: 0 },
    ...extra,
  };
}

/** A grid of the US with Alaska: 1° cells from 25 to 65 N, 170 to 67 W, `per` rows each. */
function us(per: number) {
  const groups: [number, number, number, number][] = [];
  let id = 1;
  for (let lat = 25; lat < 65; lat++) for (let lon = -170; lon < -67; lon++) groups.push([lat, lon, per, (id += per)]);
  return groups;
}

describe("planFrom", () => {
  it("reads few rows as points", () => {
    expect(planFrom(grid([[47, -123, POINTS_BOUND, 1]]))).toEqual({ kind: "points" });
  });

  it("keeps the first grid when 1° cells suit the extent", () => {
    const plan = planFrom(grid(us(10)));
    expect(plan.kind).toBe("cells");
    if (plan.kind === "cells") expect(plan.layer).toMatchObject({ size: 1, rows: 40 * 103 * 10, missing: 0 });
  });

  it("merges 1° cells for a world map, exactly", () => {
    const world: [number, number, number, number][] = [];
    let id = 1;
    for (let lat = -60; lat < 70; lat += 3) for (let lon = -180; lon < 180; lon += 3) world.push([lat, lon, 7, id++]);
    const plan = planFrom(grid(world));
    expect(plan.kind).toBe("cells");
    if (plan.kind !== "cells") return;
    expect(plan.layer.size).toBe(5);
    expect(plan.layer.cells.reduce((n, c) => n + c.count, 0)).toBe(world.length * 7);
    expect(plan.layer.cells.every((c) => c.lat % 5 === 0 && c.lon % 5 === 0)).toBe(true);
  });

  it("reads a finer grid for a smaller area, and a coarser one when the first was cut", () => {
    // the contiguous US: 0.5° cells
    expect(planFrom(grid(us(10).filter(([lat, lon]) => lat < 49 && lon >= -124)))).toEqual({ kind: "grid", size: 0.5 });
    // a city, in one or two 1° cells
    expect(planFrom(grid([[47, -123, 40_000, 1], [47, -122, 2_000, 2]]))).toEqual({ kind: "grid", size: 0.02 });
    expect(planFrom(grid([[47, -123, 40_000, 1]]))).toEqual({ kind: "grid", size: 0.01 });
    expect(planFrom(grid(us(10), { others: { groups: 300, count: 3000 } }))).toEqual({ kind: "grid", size: 2 });
  });
});

describe("cells", () => {
  it("counts empty and impossible coordinates aside", () => {
    const layer = cellsLayer(grid([[null, -122, 5, 1], [47, null, 1, 2], [91, 10, 2, 3], [10, 200, 3, 4], [90, 180, 1, 5], [-90, -180, 1, 6]]), 1);
    expect(layer).toMatchObject({ missing: 6, invalid: 5 });
    expect(layer.cells.map((c) => [c.lat, c.lon])).toEqual([[90, 180], [-90, -180]]);
  });

  it("merges into whole multiples: counts add up, the first _id stays", () => {
    const layer = cellsLayer(grid([[47, -123, 3, 30], [48, -122, 2, 10], [45, -121, 1, 5], [-1, -1, 4, 7]]), 1);
    expect(mergeCells(layer, 2).cells).toEqual([
      { lat: -2, lon: -2, count: 4, id: 7 },
      { lat: 44, lon: -122, count: 1, id: 5 },
      { lat: 46, lon: -124, count: 3, id: 30 },
      { lat: 48, lon: -122, count: 2, id: 10 },
    ]);
    expect(mergeCells(layer, 5).cells).toEqual([
      { lat: -5, lon: -5, count: 4, id: 7 },
      { lat: 45, lon: -125, count: 6, id: 5 },
    ]);
  });
});
