import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  CHART_AGGS,
  CHART_TYPES,
  DEFAULT_VIEW,
  PERIODS,
  TABS,
  chipsFromFilters,
  describeChip,
  dumpPath,
  formatSort,
  parseSort,
  parseViewState,
  searchCurl,
  searchGetUrl,
  serializeViewState,
  toPrefixQuery,
  toSearchRequest,
  TOTAL_ESTIMATION_THRESHOLD,
  updateView,
  withChip,
  withoutChip,
  type ViewState,
} from "./index";

describe("parseViewState", () => {
  it("reads the API's parameter names", () => {
    const v = parseViewState(
      'resource_id=flights-20k&q=port&filters={"origin":["SEA","PDX"]}&limit=25&offset=50&sort=delay desc&fields=_id,origin,delay',
    );
    expect(v).toEqual({
      resource_id: "flights-20k",
      as_of: null,
      q: "port",
      filters: { origin: ["SEA", "PDX"] },
      limit: 25,
      offset: 50,
      sort: "delay desc",
      fields: ["_id", "origin", "delay"],
      tab: "table",
      record: null,
      chart: DEFAULT_VIEW.chart,
      map: DEFAULT_VIEW.map,
      pivot: DEFAULT_VIEW.pivot,
    });
  });

  it("reads the tab, the record and the chart's and map's settings", () => {
    const v = parseViewState("resource_id=f&view=chart&chart=line&x=date&y=delay&agg=avg&period=month&lat=la&lon=lo&record=42");
    expect(v.tab).toBe("chart");
    expect(v.record).toBe(42);
    expect(v.chart).toEqual({ type: "line", x: "date", y: "delay", agg: "avg", period: "month" });
    expect(v.map).toEqual({ lat: "la", lon: "lo" });
    const bad = parseViewState("view=pie&chart=pie&agg=median&period=decade&record=-1&x=%20");
    expect([bad.tab, bad.record, bad.chart, bad.map]).toEqual([DEFAULT_VIEW.tab, null, DEFAULT_VIEW.chart, DEFAULT_VIEW.map]);
  });

  it("degrades a bad URL to defaults instead of throwing", () => {
    const v = parseViewState("filters={nope&limit=-3&offset=x&fields=&sort=%20");
    expect(v).toEqual(DEFAULT_VIEW);
    expect(parseViewState("filters=[1,2]").filters).toEqual({});
    expect(parseViewState('filters={"a":{"gt":1},"b":[],"c":[1,{"x":1}],"d":true}').filters).toEqual({ a: { gt: 1 }, d: true });
    expect(parseViewState('filters={"__proto__":{"x":1},"_id":3,"_hidden":1}').filters).toEqual({ _id: 3 });
    expect(parseViewState("limit=0").limit).toBe(100);
    expect(parseViewState("limit=99999").limit).toBe(32000);
    expect(parseViewState("limit=1e3").limit).toBe(100);
  });

  it("accepts repeated fields", () => {
    expect(parseViewState("fields=a&fields=b,c").fields).toEqual(["a", "b,c"]);
  });

  it("never throws on arbitrary query strings", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const v = parseViewState(s);
        expect(v.limit).toBeGreaterThan(0);
        expect(v.offset).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe("serializeViewState", () => {
  it("omits defaults", () => {
    expect(serializeViewState(DEFAULT_VIEW).toString()).toBe("");
    expect(serializeViewState({ ...DEFAULT_VIEW, resource_id: "x" }).toString()).toBe("resource_id=x");
  });

  it("round-trips any view", () => {
    const name = fc.string({ minLength: 1 }).filter((s) => s.trim() === s);
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const view = fc.record({
      resource_id: fc.option(fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s.length > 0), { nil: null }),
      as_of: fc.option(
        fc.oneof(
          fc.nat(),
          fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2999-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        { nil: null },
      ),
      q: fc.string(),
      filters: fc.dictionary(
        // "_x" is never a field; "$x" is an operator ("$$x" names the field "$x")
        fc.string({ minLength: 1 }).filter((k) => !k.startsWith("_") && !k.startsWith("$")),
        fc.oneof(scalar, fc.array(scalar, { minLength: 2, maxLength: 4 })),
      ),
      limit: fc.integer({ min: 1, max: 32000 }),
      offset: fc.nat(),
      sort: fc.constantFrom("", "delay desc", '"my field" desc, origin'),
      fields: fc.option(fc.uniqueArray(fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s.length > 0 && !s.includes(",")), { minLength: 1 }), { nil: null }),
      tab: fc.constantFrom(...TABS),
      record: fc.option(fc.nat(), { nil: null }),
      chart: fc.record({
        type: fc.constantFrom(...CHART_TYPES),
        x: fc.option(name, { nil: null }),
        y: fc.option(name, { nil: null }),
        agg: fc.constantFrom(...CHART_AGGS),
        period: fc.option(fc.constantFrom(...PERIODS), { nil: null }),
      }),
      map: fc.record({ lat: fc.option(name, { nil: null }), lon: fc.option(name, { nil: null }) }),
      pivot: pivotArbitrary(name),
    });
    fc.assert(
      fc.property(view, (v: ViewState) => {
        expect(parseViewState(serializeViewState(v).toString())).toEqual(v);
      }),
    );
  });
});

/** A pivot of distinct fields; ids without a colon (a colon's reading is tested in pivot.test.ts). */
function pivotArbitrary(name: fc.Arbitrary<string>) {
  const plain = name.filter((s) => !s.includes(":"));
  const key = (field: string) =>
    fc.oneof(
      fc.constant({ field }),
      fc.constantFrom(...PERIODS).map((period) => ({ field, period })),
      fc.constantFrom(1, 15, 0.5, 1000).map((bin) => ({ field, bin })),
    );
  return fc.record({
    fields: fc.uniqueArray(plain, { minLength: 3, maxLength: 3 }),
    rowCount: fc.integer({ min: 0, max: 2 }),
    withColumns: fc.boolean(),
    measure: fc.oneof(
      fc.constant({ fn: "count" as const, field: null }),
      fc.record({ fn: fc.constantFrom("sum" as const, "avg" as const, "min" as const, "max" as const), field: plain }),
    ),
  }).chain(({ fields, rowCount, withColumns, measure }) =>
    fc.record({
      rows: fc.tuple(...fields.slice(0, rowCount).map(key)),
      columns: withColumns ? key(fields[2]) : fc.constant(null),
      measure: fc.constant(measure),
    }),
  );
}

describe("updateView", () => {
  const view: ViewState = { ...DEFAULT_VIEW, resource_id: "r", offset: 200 };
  it("goes back to the first page when the match changes", () => {
    expect(updateView(view, { q: "x" }).offset).toBe(0);
    expect(updateView(view, { filters: {} }).offset).toBe(0);
    expect(updateView(view, { limit: 10 }).offset).toBe(0);
    expect(updateView(view, { sort: "a" }).offset).toBe(0);
    expect(updateView(view, { as_of: 3 }).offset).toBe(0);
  });
  it("keeps the page otherwise", () => {
    expect(updateView(view, { fields: ["a"] }).offset).toBe(200);
    expect(updateView(view, { offset: 300 }).offset).toBe(300);
    expect(updateView({ ...view, as_of: 3 }, { as_of: 3 }).offset).toBe(200);
  });
});

describe("search text", () => {
  it("matches every word and the last as a prefix", () => {
    expect(toPrefixQuery("")).toBe("");
    expect(toPrefixQuery("  ")).toBe("");
    expect(toPrefixQuery("portl")).toBe("portl:*");
    expect(toPrefixQuery("Seattle  port")).toBe("Seattle & port:*");
    expect(toPrefixQuery("O'Hare & (x) !y:*")).toBe("O & Hare & x & y:*");
    expect(toPrefixQuery("Márquez 2001-01")).toBe("Márquez & 2001 & 01:*");
  });
});

describe("sort", () => {
  it("parses CKAN sort strings", () => {
    expect(parseSort("delay desc, origin")).toEqual([
      { field: "delay", desc: true },
      { field: "origin", desc: false },
    ]);
    expect(parseSort('"a, b" DESC nulls last,c asc')).toEqual([
      { field: "a, b", desc: true },
      { field: "c", desc: false },
    ]);
    expect(parseSort("")).toEqual([]);
  });
  it("quotes names that need it", () => {
    expect(formatSort([{ field: "my field", desc: true }])).toBe('"my field" desc');
  });
});

describe("chips", () => {
  it("build exactly the filters object", () => {
    let f = withChip({}, { kind: "is", field: "origin", values: ["SEA", "PDX"] });
    f = withChip(f, { kind: "is", field: "delay", values: [0] });
    expect(f).toEqual({ origin: ["SEA", "PDX"], delay: 0 });
    expect(chipsFromFilters(f).map(describeChip)).toEqual(["origin: SEA or PDX", "delay: 0"]);
    f = withChip(f, { kind: "is", field: "origin", values: ["SEA"] });
    expect(Object.keys(f)).toEqual(["origin", "delay"]);
    expect(withoutChip(f, "origin")).toEqual({ delay: 0 });
  });
});

describe("requests", () => {
  const view: ViewState = {
    ...DEFAULT_VIEW,
    resource_id: "flights-20k",
    q: "sea",
    filters: { origin: ["SEA", "PDX"] },
    limit: 25,
    offset: 25,
    sort: "delay desc",
    fields: ["_id", "delay"],
  };
  it("search request uses the prefix query", () => {
    expect(toSearchRequest(view)).toEqual({
      resource_id: "flights-20k",
      q: "sea:*",
      plain: false,
      filters: { origin: ["SEA", "PDX"] },
      sort: "delay desc",
      fields: ["_id", "delay"],
      limit: 25,
      offset: 25,
      total_estimation_threshold: TOTAL_ESTIMATION_THRESHOLD,
    });
    expect(TOTAL_ESTIMATION_THRESHOLD).toBe(100_000);
  });
  it("GET url carries the same parameters", () => {
    const url = new URL(searchGetUrl("http://h:1", toSearchRequest(view)));
    expect(url.pathname).toBe("/api/action/datastore_search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      resource_id: "flights-20k",
      q: "sea:*",
      plain: "false",
      filters: '{"origin":["SEA","PDX"]}',
      sort: "delay desc",
      fields: "_id,delay",
      limit: "25",
      offset: "25",
      total_estimation_threshold: "100000",
    });
  });
  it("curl has a token placeholder and shell-safe quoting", () => {
    const curl = searchCurl("http://h:1", { ...toSearchRequest(view), q: "it's" });
    expect(curl).toContain("Authorization: YOUR-API-TOKEN");
    expect(curl).toContain(`'\\''`);
  });
  it("dump covers all rows of the view", () => {
    const url = new URL(dumpPath(view, "csv"), "http://h");
    expect(url.pathname).toBe("/datastore/dump/flights-20k");
    expect(url.searchParams.get("format")).toBe("csv");
    expect(url.searchParams.get("limit")).toBeNull();
    expect(url.searchParams.get("offset")).toBeNull();
    expect(url.searchParams.get("q")).toBe("sea:*");
    expect(url.searchParams.get("filters")).toBe('{"origin":["SEA","PDX"]}');
    expect(url.searchParams.has("total_estimation_threshold")).toBe(false);
  });
});
