import { describe, expect, it } from "vitest";
import type { DatastoreField, GroupedResult } from "@/lib/api-client";
import { DEFAULT_VIEW, chipsFromFilters, type PivotSettings, type ViewState } from "@/lib/view-state";
import { cellFilters, keyChip, nextPeriod } from "./pivot-chips";
import { resolvePivot } from "./pivot-fields";
import { CELL_LIMIT, COLUMN_LIMIT, ROW_LIMIT, pivotApi, pivotCalls, shownCellsCall } from "./pivot-request";

const fields: DatastoreField[] = [
  { id: "date", type: "timestamp" },
  { id: "day", type: "date" },
  { id: "delay", type: "int4" },
  { id: "lat", type: "float8" },
  { id: "origin", type: "text" },
  { id: "tags", type: "_text" },
  { id: "doc", type: "json" },
  { id: "a:month", type: "text" },
];

const view: ViewState = { ...DEFAULT_VIEW, resource_id: "f", q: "sea", filters: { delay: { gte: 0 } }, tab: "pivot" };

describe("resolvePivot", () => {
  it("fills in the Rows field, a date's period, and keeps what fits", () => {
    expect(resolvePivot(DEFAULT_VIEW.pivot, fields)).toEqual({ rows: [{ field: "origin" }], columns: null, measure: { fn: "count", field: null } });
    const p = resolvePivot(
      {
        rows: [{ field: "date" }, { field: "delay", bin: 15 }],
        columns: { field: "origin", period: "week" },
        measure: { fn: "avg", field: "delay" },
      },
      fields,
    );
    expect(p).toEqual({
      rows: [{ field: "date", period: "month" }, { field: "delay", bin: 15 }],
      columns: { field: "origin" },
      measure: { fn: "avg", field: "delay" },
    });
  });

  it("drops fields that do not group or measure, and a field used twice", () => {
    const p = resolvePivot(
      { rows: [{ field: "tags" }, { field: "doc" }], columns: { field: "nope" }, measure: { fn: "sum", field: "origin" } },
      fields,
    );
    expect(p).toEqual({ rows: [{ field: "origin" }], columns: null, measure: { fn: "count", field: null } });
    expect(resolvePivot({ rows: [{ field: "lat", bin: 2 }], columns: { field: "lat" }, measure: { fn: "max", field: "lat" } }, fields)).toEqual({
      rows: [{ field: "lat", bin: 2 }],
      columns: null,
      measure: { fn: "max", field: "lat" },
    });
    // a text field takes no bin; a field named like a key with a period is found whole
    expect(resolvePivot({ rows: [{ field: "origin", bin: 5 }, { field: "a", period: "month" }], columns: null, measure: DEFAULT_VIEW.pivot.measure }, fields)?.rows).toEqual([
      { field: "origin" },
      { field: "a:month" },
    ]);
    expect(resolvePivot(DEFAULT_VIEW.pivot, [{ id: "doc", type: "json" }])).toBeNull();
  });
});

describe("pivotCalls", () => {
  it("asks for the cells with totals, the rows alone and the columns alone", () => {
    const pivot: PivotSettings = { rows: [{ field: "origin" }], columns: { field: "date", period: "month" }, measure: { fn: "avg", field: "delay" } };
    const calls = pivotCalls(view, pivot);
    const match = { resource_id: "f", q: "sea:*", plain: false, filters: { delay: { gte: 0 } } };
    expect(calls.cells).toEqual({
      ...match,
      group_by: ["origin", { field: "date", period: "month" }],
      metrics: [{ fn: "avg", field: "delay" }],
      limit: CELL_LIMIT,
      totals: true,
    });
    // a plain key: the rows with the most matching rows
    expect(calls.rows).toEqual({
      ...match,
      group_by: ["origin"],
      metrics: [{ fn: "avg", field: "delay" }, { fn: "count" }],
      order_by: "count desc",
      limit: ROW_LIMIT,
    });
    // every key by a period: the first periods, in order
    expect(calls.columns).toEqual({ ...match, group_by: [{ field: "date", period: "month" }], metrics: [{ fn: "avg", field: "delay" }], limit: COLUMN_LIMIT });
    expect(pivotApi(calls).call).toEqual({ action: "datastore_aggregate", body: calls.cells });
  });

  it("without Columns, asks once: the rows and their total", () => {
    const calls = pivotCalls({ ...view, q: "", filters: {} }, { rows: [{ field: "origin" }, { field: "delay", bin: 10 }], columns: null, measure: { fn: "count", field: null } });
    expect(calls).toEqual({
      cells: { resource_id: "f", group_by: ["origin", { field: "delay", bin: 10 }], metrics: [{ fn: "count" }], order_by: "count desc", limit: ROW_LIMIT, totals: true },
      rows: null,
      columns: null,
    });
  });
});

function answer(keys: unknown[][], others = 0): GroupedResult {
  return {
    resource_id: "f",
    group_by: [],
    metrics: [],
    total: 1,
    groups: keys.map((key) => ({ key, values: { count: 1 } })),
    others: { groups: others, count: others },
    partial: false,
  };
}

describe("shownCellsCall", () => {
  const pivot: PivotSettings = {
    rows: [{ field: "origin" }, { field: "delay", bin: 15 }],
    columns: { field: "date", period: "month" },
    measure: { fn: "count", field: null },
  };
  const calls = pivotCalls(view, pivot);

  it("asks again for the cells of the shown keys when the cells were cut and rows or columns left out", () => {
    const rows = answer([["SEA", 0], ["PDX", 15], [null, -15]], 40);
    const columns = answer([["2001-03-01T00:00:00"], ["2001-01-01T00:00:00"]], 2);
    const again = shownCellsCall(calls, pivot, answer([], 5), rows, columns);
    expect(again).toEqual({
      ...calls.cells,
      totals: undefined,
      filters: {
        $and: [
          { delay: { gte: 0 } },
          { $or: [{ origin: ["SEA", "PDX"] }, { origin: { x_empty: true } }] },
          { delay: { gte: -15, lt: 30 } },
          { date: { gte: "2001-01-01T00:00:00", lt: "2001-04-01T00:00:00" } },
        ],
      },
    });
    expect(again).not.toHaveProperty("totals");
    // only the columns left out: the rows are not narrowed
    const cols = shownCellsCall(calls, pivot, answer([], 5), answer([["SEA", 0]]), columns)!;
    expect((cols.filters as { $and: unknown[] }).$and).toHaveLength(2);
  });

  it("asks nothing more when the cells were all read, or nothing was left out", () => {
    expect(shownCellsCall(calls, pivot, answer([], 0), answer([], 40), answer([], 2))).toBeNull();
    expect(shownCellsCall(calls, pivot, answer([], 5), answer([["SEA", 0]]), answer([["2001-01-01T00:00:00"]]))).toBeNull();
  });
});

describe("a cell's chips", () => {
  it("narrow to its value, its period's days, its bin or its empty values", () => {
    expect(keyChip({ field: "origin" }, "SEA", fields)).toEqual({ kind: "is", field: "origin", values: ["SEA"] });
    expect(keyChip({ field: "origin" }, null, fields)).toEqual({ kind: "empty", field: "origin", empty: true });
    expect(keyChip({ field: "date", period: "month" }, "2001-02-01T00:00:00", fields)).toEqual({
      kind: "range",
      field: "date",
      from: "2001-02-01",
      to: "2001-02-28T23:59:59",
    });
    expect(keyChip({ field: "day", period: "quarter" }, "2001-10-01", fields)).toEqual({ kind: "range", field: "day", from: "2001-10-01", to: "2001-12-31" });
    expect(keyChip({ field: "delay", bin: 15 }, -15, fields)).toEqual({ kind: "range", field: "delay", from: -15, to: -1 });
    expect(keyChip({ field: "lat", bin: 0.1 }, 0.2, fields)).toEqual({ kind: "range", field: "lat", from: 0.2, to: 0.3 });
  });

  it("replace the field's chip and keep the others", () => {
    const filters = cellFilters(
      { origin: ["SEA", "PDX"], delay: { gte: 0 } },
      [
        { key: { field: "origin" }, value: "SEA" },
        { key: { field: "date", period: "year" }, value: "2001-01-01T00:00:00" },
      ],
      fields,
    );
    expect(filters).toEqual({ origin: "SEA", delay: { gte: 0 }, date: { gte: "2001-01-01", lte: "2001-12-31T23:59:59" } });
    expect(chipsFromFilters(filters).map((c) => c.kind)).toEqual(["is", "range", "range"]);
  });

  it("know where the next period starts", () => {
    expect(nextPeriod("2001-01-29", "week")).toBe("2001-02-05");
    expect(nextPeriod("2001-12-01T00:00:00", "month")).toBe("2002-01-01T00:00:00");
    expect(nextPeriod("2000-02-28", "day")).toBe("2000-02-29");
    expect(nextPeriod("x", "year")).toBeNull();
  });
});
