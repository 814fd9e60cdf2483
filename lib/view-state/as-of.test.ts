import { describe, expect, it } from "vitest";
import {
  DEFAULT_VIEW,
  dumpPath,
  fromLocalInput,
  parseAsOf,
  parseViewState,
  searchGetUrl,
  serializeViewState,
  tabShowsPast,
  takesAsOf,
  toLocalInput,
  toMatchRequest,
  toSearchRequest,
  viewForResource,
} from "./index";

describe("as_of in the URL", () => {
  it("reads a version or an ISO 8601 time", () => {
    expect(parseViewState("resource_id=r&as_of=12").as_of).toBe(12);
    expect(parseViewState("resource_id=r&as_of=0").as_of).toBe(0);
    expect(parseViewState("as_of=2026-11-27T10:15:00Z").as_of).toBe("2026-11-27T10:15:00Z");
    expect(parseViewState("as_of=2026-11-27").as_of).toBe("2026-11-27");
    expect(parseViewState("as_of=2026-11-27T10:15:30.250%2B01:00").as_of).toBe("2026-11-27T10:15:30.250+01:00");
    expect(parseViewState("as_of=%202026-11-27T10:15%20").as_of).toBe("2026-11-27T10:15");
  });

  it("degrades anything else to none, without throwing", () => {
    for (const bad of ["", "x", "-3", "1.5", "1e3", "99999999999999999999", "2026-02-30", "2026-13-01", "2026-11-27T25:00", "2026-11-27T10:61", "27/11/2026", "2026-11-27T10:00Zjunk", "[1]"]) {
      expect(parseViewState(`resource_id=r&as_of=${encodeURIComponent(bad)}`).as_of, bad).toBeNull();
    }
    expect(parseAsOf(null)).toBeNull();
    expect(parseViewState("as_of=1&as_of=2").as_of).toBe(1);
  });

  it("writes it right after the resource, and not at all when absent", () => {
    expect(serializeViewState({ ...DEFAULT_VIEW, resource_id: "r", as_of: 7, q: "x" }).toString()).toBe("resource_id=r&as_of=7&q=x");
    expect(serializeViewState({ ...DEFAULT_VIEW, resource_id: "r", as_of: "2026-11-27T10:15:00Z" }).toString()).toBe(
      "resource_id=r&as_of=2026-11-27T10%3A15%3A00Z",
    );
    expect(serializeViewState({ ...DEFAULT_VIEW, resource_id: "r" }).has("as_of")).toBe(false);
  });

  it("a fresh view of a resource shows the current data", () => {
    expect(viewForResource("r").as_of).toBeNull();
  });
});

describe("as_of in requests", () => {
  const past = { ...DEFAULT_VIEW, resource_id: "r", as_of: 4, q: "sea" };

  it("goes into the search, the match, its GET url and the dump", () => {
    expect(toSearchRequest(past).as_of).toBe(4);
    expect(toMatchRequest(past)).toEqual({ resource_id: "r", as_of: 4, q: "sea:*", plain: false });
    expect(new URL(searchGetUrl("http://h", toSearchRequest(past))).searchParams.get("as_of")).toBe("4");
    expect(new URL(dumpPath({ ...past, as_of: "2026-11-27T10:00:00Z" }, "csv"), "http://h").searchParams.get("as_of")).toBe("2026-11-27T10:00:00Z");
  });

  it("is left out for the current data", () => {
    const now = { ...past, as_of: null };
    expect("as_of" in toSearchRequest(now)).toBe(false);
    expect(new URL(dumpPath(now, "csv"), "http://h").searchParams.has("as_of")).toBe(false);
    expect("as_of" in toMatchRequest({ resource_id: "r", q: "", filters: {} })).toBe(false);
  });

  it("is taken by search; an action not listed reads the current data", () => {
    expect(takesAsOf("datastore_search")).toBe(true);
    expect(takesAsOf("datastore_upsert")).toBe(false);
    expect(tabShowsPast("table")).toBe(true);
    // datastore_aggregate and datastore_summary read the current data only
    for (const tab of ["summary", "chart", "map", "pivot"] as const) expect(tabShowsPast(tab), tab).toBe(false);
  });
});

describe("the date and time picker's value", () => {
  it("round-trips a time through local time, to the second", () => {
    const iso = "2026-11-27T10:15:30Z";
    const local = toLocalInput(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe(iso);
    expect(new Date(fromLocalInput("2026-11-27T10:15")!).getTime()).toBe(new Date(2026, 10, 27, 10, 15).getTime());
  });

  it("gives null for what is not a time", () => {
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("2026-02-30T10:00")).toBeNull();
    expect(fromLocalInput("yesterday")).toBeNull();
    expect(toLocalInput("not a time")).toBe("");
  });
});
