import { describe, expect, it } from "vitest";
import type { DatastoreField } from "@/lib/api-client";
import { DEFAULT_VIEW, type ChartSettings, type ViewState } from "@/lib/view-state";
import { chartRequest, distinctRequest, rangeRequest, withValues } from "./chart-request";

const FIELDS: DatastoreField[] = [
  { id: "date", type: "timestamp" },
  { id: "delay", type: "int4" },
  { id: "distance", type: "int4" },
  { id: "origin", type: "text" },
  { id: "destination", type: "text" },
];

function view(chart: Partial<ChartSettings>, rest: Partial<ViewState> = {}): ViewState {
  return { ...DEFAULT_VIEW, resource_id: "flights-20k", tab: "chart", chart: { ...DEFAULT_VIEW.chart, ...chart }, ...rest };
}

describe("the request behind a chart", () => {
  it("bar: datastore_aggregate grouped by x, the top 30, with the view's search and filters", () => {
    const v = view({ type: "bar", x: "origin" }, { q: "sea", filters: { destination: ["LAX"] } });
    expect(chartRequest(v, FIELDS)).toEqual({
      action: "datastore_aggregate",
      body: { resource_id: "flights-20k", q: "sea:*", plain: false, filters: { destination: ["LAX"] }, group_by: "origin", metric: "count", limit: 30 },
    });
  });

  it("a sum or an average names its field", () => {
    expect(chartRequest(view({ type: "bar", x: "origin", agg: "avg", y: "delay" }), FIELDS)?.body).toEqual({
      resource_id: "flights-20k",
      group_by: "origin",
      metric: "avg",
      field: "delay",
      limit: 30,
    });
  });

  it("line: grouped by the date field per period, the default period from the range", () => {
    expect(chartRequest(view({ type: "line", period: "month" }), FIELDS)?.body).toEqual({
      resource_id: "flights-20k",
      group_by: "date",
      period: "month",
      metric: "count",
      limit: 5000,
    });
    const range = { min: "2001-01-01T00:47:00", max: "2001-03-31T22:27:00" };
    expect(chartRequest(view({ type: "line" }), FIELDS, { range })?.body).toMatchObject({ period: "week" });
  });

  it("scatter: a sample of 2,000 rows with both numbers, spread through the match, _id to open them", () => {
    expect(chartRequest(view({ type: "scatter", x: "distance", y: "delay" }, { filters: { origin: "SEA" } }), FIELDS)).toEqual({
      action: "datastore_search",
      body: {
        resource_id: "flights-20k",
        filters: { origin: "SEA", distance: { x_empty: false }, delay: { x_empty: false } },
        fields: ["_id", "distance", "delay"],
        sample: 2000,
        include_total: true,
      },
    });
  });

  it("histogram: datastore_histogram of the field, the same request a line's range reads", () => {
    const v = view({ type: "histogram", x: "delay" });
    expect(chartRequest(v, FIELDS)).toEqual({ action: "datastore_histogram", body: { resource_id: "flights-20k", field: "delay", bins: 30 } });
    expect(rangeRequest(v, "delay")).toEqual(chartRequest(v, FIELDS)?.body);
  });

  it("no request without a resource or a field to draw", () => {
    expect(chartRequest({ ...view({ type: "bar" }), resource_id: null }, FIELDS)).toBeNull();
    expect(chartRequest(view({ type: "line" }), [{ id: "name", type: "text" }])).toBeNull();
    // one number field: nothing to plot it against
    expect(chartRequest(view({ type: "scatter" }), [{ id: "n", type: "int4" }, { id: "name", type: "text" }])).toBeNull();
    // the same field twice, when asked for, is read once
    expect(chartRequest(view({ type: "scatter", x: "delay", y: "delay" }), FIELDS)?.body).toMatchObject({ fields: ["_id", "delay"] });
  });

  it("the bar's default reads the text fields' values over the whole resource", () => {
    expect(distinctRequest("flights-20k", FIELDS)).toEqual({ resource_id: "flights-20k", fields: ["origin", "destination"], top: 1, bins: 1, budget_ms: 500 });
  });
});

describe("withValues: the view's filters AND these fields not empty", () => {
  it("adds keys beside the view's, escaping $ names", () => {
    expect(withValues({ origin: "SEA" }, ["delay", "$x"])).toEqual({ origin: "SEA", delay: { x_empty: false }, $$x: { x_empty: false } });
  });

  it("ANDs as a group when the view already filters one of the fields", () => {
    const filters = { delay: { gte: 60 }, $or: [{ origin: "SEA" }, { origin: "PDX" }] };
    expect(withValues(filters, ["delay", "distance"])).toEqual({
      $and: [filters, { delay: { x_empty: false }, distance: { x_empty: false } }],
    });
  });
});
