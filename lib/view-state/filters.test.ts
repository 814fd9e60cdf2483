import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chipForField,
  chipsFromFilters,
  coerceFilters,
  describeChip,
  filtersFromChips,
  parseViewState,
  searchCurl,
  searchGetUrl,
  searchPostBody,
  serializeViewState,
  toSearchRequest,
  withChip,
  withoutChip,
  DEFAULT_VIEW,
  type Chip,
  type Filters,
} from "./index";

// one filters object per chip kind, with the chip and the words it reads as
const KINDS: { filters: Filters; chip: Chip; text: string }[] = [
  { filters: { origin: ["SEA", "PDX"] }, chip: { kind: "is", field: "origin", values: ["SEA", "PDX"] }, text: "origin: SEA or PDX" },
  { filters: { delay: 0 }, chip: { kind: "is", field: "delay", values: [0] }, text: "delay: 0" },
  { filters: { delay: { gte: 60, lte: 120 } }, chip: { kind: "range", field: "delay", from: 60, to: 120 }, text: "delay: 60 to 120" },
  { filters: { delay: { gte: 60 } }, chip: { kind: "range", field: "delay", from: 60, to: null }, text: "delay: from 60" },
  {
    filters: { date: { gte: "2001-03-01", lte: "2001-03-31T23:59:59" } },
    chip: { kind: "range", field: "date", from: "2001-03-01", to: "2001-03-31T23:59:59" },
    text: "date: 2001-03-01 to 2001-03-31",
  },
  { filters: { delay: { lte: 120 } }, chip: { kind: "range", field: "delay", from: null, to: 120 }, text: "delay: up to 120" },
  { filters: { date: { gte: "2001-03-01" } }, chip: { kind: "range", field: "date", from: "2001-03-01", to: null }, text: "date: from 2001-03-01" },
  { filters: { state: { x_not_in: ["CA", "OR"] } }, chip: { kind: "not", field: "state", values: ["CA", "OR"] }, text: "state: not CA or OR" },
  { filters: { county: { x_empty: true } }, chip: { kind: "empty", field: "county", empty: true }, text: "county: is empty" },
  { filters: { county: { x_empty: false } }, chip: { kind: "empty", field: "county", empty: false }, text: "county: is not empty" },
  {
    filters: { year: [2005, { gte: 2010 }] },
    chip: { kind: "other", key: "year", field: "year", value: [2005, { gte: 2010 }] },
    text: 'year: [2005,{"gte":2010}]',
  },
  { filters: { delay: { gt: 5 } }, chip: { kind: "other", key: "delay", field: "delay", value: { gt: 5 } }, text: 'delay: {"gt":5}' },
  {
    filters: { $or: [{ origin: "SEA" }, { delay: { gte: 60 } }] },
    chip: { kind: "other", key: "$or", field: null, value: [{ origin: "SEA" }, { delay: { gte: 60 } }] },
    text: '{"$or":[{"origin":"SEA"},{"delay":{"gte":60}}]}',
  },
  { filters: { $$price: { lte: 3 } }, chip: { kind: "range", field: "$price", from: null, to: 3 }, text: "$price: up to 3" },
];

describe("chips", () => {
  for (const { filters, chip, text } of KINDS) {
    it(`${text}: filters -> chip -> filters, and its words`, () => {
      const chips = chipsFromFilters(filters);
      expect(chips).toEqual([chip]);
      expect(describeChip(chips[0])).toBe(text);
      expect(filtersFromChips(chips)).toEqual(filters);
      expect(coerceFilters(JSON.parse(JSON.stringify(filters)))).toEqual(filters);
    });
  }

  it("reads the scalar forms the API also takes", () => {
    expect(chipsFromFilters({ state: { x_not_in: "CA" } })).toEqual([{ kind: "not", field: "state", values: ["CA"] }]);
    expect(describeChip({ kind: "is", field: "note", values: ["", null] })).toBe('note: "" or null');
  });

  it("several chips, each replaced in place and removed by its key", () => {
    let f = filtersFromChips(KINDS.slice(0, 9).map((k) => k.chip));
    expect(Object.keys(f)).toEqual(["origin", "delay", "date", "state", "county"]);
    expect(f.delay).toEqual({ lte: 120 }); // the last chip of a field wins
    f = withChip(f, { kind: "range", field: "delay", from: 60, to: null });
    expect(Object.keys(f)).toEqual(["origin", "delay", "date", "state", "county"]);
    expect(chipForField(f, "delay")).toEqual({ kind: "range", field: "delay", from: 60, to: null });
    expect(chipForField(f, "nope")).toBeUndefined();
    expect(withoutChip(f, "state")).not.toHaveProperty("state");
  });

  it("a chip that says nothing removes its key", () => {
    const f: Filters = { origin: "SEA", delay: { gte: 1 } };
    expect(withChip(f, { kind: "range", field: "delay", from: null, to: null })).toEqual({ origin: "SEA" });
    expect(withChip(f, { kind: "is", field: "origin", values: [] })).toEqual({ delay: { gte: 1 } });
    expect(withChip(f, { kind: "not", field: "origin", values: [] })).toEqual({ delay: { gte: 1 } });
  });
});

describe("coerceFilters", () => {
  it("keeps every shape the API takes", () => {
    const input = {
      a: { gte: 1, lte: 2, eq: [1, 2] },
      b: [1, { gt: "x" }],
      c: { x_not_in: "CA", x_empty: false },
      $and: [{ a: 1 }, { $or: [{ b: 2 }, { c: { x_empty: true } }] }],
      $$d: "x",
    };
    expect(coerceFilters(input)).toEqual(input);
  });

  it("reads a top-level list as the $or group it means", () => {
    expect(coerceFilters([{ a: 1 }, { b: { gte: 2 } }])).toEqual({ $or: [{ a: 1 }, { b: { gte: 2 } }] });
    expect(coerceFilters([])).toEqual({});
    expect(coerceFilters([{ a: 1 }, 3])).toEqual({});
  });

  it("drops, whole, what the API can't take", () => {
    expect(
      coerceFilters({
        unknownOp: { between: [1, 2] },
        emptyOps: {},
        emptyList: [],
        badEmpty: { x_empty: "yes" },
        badNotIn: { x_not_in: [] },
        nested: { gte: { lte: 1 } },
        $xor: [{ a: 1 }],
        badGroup: [{ a: 1 }],
        $or: [{ a: 1 }, { b: { nope: 1 } }], // one bad member drops the group, not the member
        _hidden: 1,
        ok: true,
      }),
    ).toEqual({ ok: true });
    // as JSON.parse reads a URL: "__proto__" is an own key there, and stays out
    const out = coerceFilters(JSON.parse('{"__proto__":{"polluted":true},"$$__proto__":{"x_empty":true},"a":1}'));
    expect(out).toEqual({ $$__proto__: { x_empty: true }, a: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("bounds the depth of groups", () => {
    let deep: Filters = { a: 1 };
    for (let i = 0; i < 12; i++) deep = { $and: [deep, { b: i }] };
    expect(coerceFilters(deep)).toEqual({});
    let shallow: Filters = { a: 1 };
    for (let i = 0; i < 5; i++) shallow = { $and: [shallow, { b: i }] };
    expect(coerceFilters(shallow)).toEqual(shallow);
  });

  it("never throws, and what it keeps is kept again", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const once = coerceFilters(v);
        // Compared as the JSON text the URL carries: JSON has no -0, so {"a": -0} comes back as 0.
        const text = JSON.stringify(once);
        expect(JSON.stringify(coerceFilters(JSON.parse(text)))).toBe(text);
        chipsFromFilters(once).forEach(describeChip);
      }),
    );
  });
});

describe("the URL and the API carry the filters JSON", () => {
  const view = { ...DEFAULT_VIEW, resource_id: "flights-20k", filters: { delay: { gte: 60, lte: 120 } } };

  it("round-trips every chip kind through the URL", () => {
    for (const { filters } of KINDS) {
      const v = { ...view, filters };
      expect(parseViewState(serializeViewState(v).toString())).toEqual(v);
    }
    const url = `filters=${encodeURIComponent('{"delay":{"gte":60,"lte":120}}')}`;
    expect(parseViewState(url).filters).toEqual({ delay: { gte: 60, lte: 120 } });
    expect(serializeViewState(view).get("filters")).toBe('{"delay":{"gte":60,"lte":120}}');
  });

  it("the API panel's GET URL, POST body and curl hold the range", () => {
    const req = toSearchRequest(view);
    const get = searchGetUrl("http://h:1", req);
    expect(get).toContain("filters=%7B%22delay%22%3A%7B%22gte%22%3A60%2C%22lte%22%3A120%7D%7D");
    expect(JSON.parse(new URL(get).searchParams.get("filters")!)).toEqual({ delay: { gte: 60, lte: 120 } });
    expect(JSON.parse(searchPostBody(req)).filters).toEqual({ delay: { gte: 60, lte: 120 } });
    expect(searchCurl("http://h:1", req)).toContain(`"filters":{"delay":{"gte":60,"lte":120}}`);
  });
});
