import { describe, expect, it } from "vitest";
import { actionCurl, actionGetUrl, actionPostBody, searchCall, searchCurl, searchPostBody, toSearchRequest } from "./request";
import { DEFAULT_VIEW } from "./types";

const AGGREGATE = {
  action: "datastore_aggregate",
  body: {
    resource_id: "flights-20k",
    q: "SEA:*",
    plain: false,
    filters: { origin: ["SEA", "PDX"] },
    group_by: "date",
    period: "month",
    metric: "count",
    limit: 5000,
  },
};

describe("action calls as GET URL, POST body and curl", () => {
  it("puts a body's parameters in its order, filters as JSON, numbers and booleans as text", () => {
    const url = new URL(actionGetUrl("http://h:1", AGGREGATE));
    expect(url.pathname).toBe("/api/action/datastore_aggregate");
    expect([...url.searchParams.keys()]).toEqual(["resource_id", "q", "plain", "filters", "group_by", "period", "metric", "limit"]);
    expect(url.searchParams.get("plain")).toBe("false");
    expect(JSON.parse(url.searchParams.get("filters")!)).toEqual({ origin: ["SEA", "PDX"] });
    expect(url.searchParams.get("limit")).toBe("5000");
  });

  it("sends a list as repeated keys, fields as the comma list search takes, and leaves nulls out", () => {
    const url = new URL(actionGetUrl("http://h:1", { action: "x", body: { group_by: ["a", "b"], fields: ["_id", "b"], field: null } }));
    expect(url.searchParams.getAll("group_by")).toEqual(["a", "b"]);
    expect(url.searchParams.getAll("fields")).toEqual(["_id,b"]);
    expect(url.searchParams.has("field")).toBe(false);
    const commas = new URL(actionGetUrl("http://h:1", { action: "x", body: { fields: ["a,b", "c"] } }));
    expect(commas.searchParams.getAll("fields")).toEqual(["a,b", "c"]);
  });

  it("POST body and curl hold the body as JSON, posted to the action", () => {
    expect(JSON.parse(actionPostBody(AGGREGATE))).toEqual(AGGREGATE.body);
    const curl = actionCurl("http://h:1", { action: "datastore_aggregate", body: { resource_id: "it's" } });
    expect(curl).toContain("curl -X POST 'http://h:1/api/action/datastore_aggregate'");
    expect(curl).toContain("Authorization: YOUR-API-TOKEN");
    expect(curl).toContain(`-d '{"resource_id":"it'\\''s"}'`);
  });

  it("a search's call gives what the search helpers give", () => {
    const req = toSearchRequest({ ...DEFAULT_VIEW, resource_id: "r", q: "seattle", sort: "delay desc" });
    expect(actionPostBody(searchCall(req))).toBe(searchPostBody(req));
    expect(actionCurl("http://h:1", searchCall(req))).toBe(searchCurl("http://h:1", req));
    const url = new URL(actionGetUrl("http://h:1", searchCall(req)));
    expect(url.pathname).toBe("/api/action/datastore_search");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ resource_id: "r", sort: "delay desc", limit: "100", total_estimation_threshold: "100000" });
  });
});
