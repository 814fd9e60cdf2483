// The rule both engines learn indexes by (index-learning-rule.ts), without an engine: which
// fields a read could use, and the count and size budget.
import { describe, expect, it } from "vitest";
import type { LearnedIndex, Resource, SearchQuery } from "./engine";
import { budgetRefusal, countRefusal, usedFields } from "./index-learning-rule";

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: false };

describe("which fields a read could use an index for", () => {
  const r = {
    fields: [
      { id: "n", type: "int4" },
      { id: "word", type: "text" },
      { id: "tags", type: "_text" },
      { id: "doc", type: "json" },
    ],
  } as Resource;

  it("takes ANDed comparisons and the first sort key", () => {
    const q: SearchQuery = {
      ...base,
      filters: [{ op: "and", of: [{ op: "gte", field: "n", value: 3 }] }, { op: "in", field: "word", values: ["a", "b"] }],
      sort: [{ field: "tags", desc: false, nullsFirst: false }, { field: "n", desc: false, nullsFirst: false }],
    };
    expect(usedFields(r, q, true)).toEqual(["n", "word"]); // sorting on an array goes through a function
    expect(usedFields(r, { ...base, sort: [{ field: "word", desc: true, nullsFirst: true }] }, true)).toEqual(["word"]);
    expect(usedFields(r, { ...base, sort: [{ field: "word", desc: true, nullsFirst: true }] }, false)).toEqual([]);
  });

  it("leaves out OR groups, exclusions, emptiness, ranges over arrays, _id and rank columns", () => {
    const q: SearchQuery = {
      ...base,
      filters: [
        { op: "or", of: [{ op: "eq", field: "n", value: 1 }, { op: "eq", field: "word", value: "x" }] },
        { op: "not_in", field: "word", values: ["x"] },
        { op: "empty", field: "n", empty: true },
        { op: "gt", field: "tags", value: ["a"] },
        { op: "eq", field: "doc", value: { a: 1 } },
        { op: "gt", field: "_id", value: 10 },
      ],
      sort: [{ field: "rank", desc: true, nullsFirst: false }],
    };
    expect(usedFields(r, q, true)).toEqual(["doc"]);
  });
});

describe("the budget of learned indexes", () => {
  const ix = (bytes: number): LearnedIndex => ({ fields: ["x"], created: "2026-01-01T00:00:00", reads: 3, buildMs: 1, bytes });
  const r = (learned: LearnedIndex[], active = true) => ({ active, columns: new Map([["n", { column: "c1" }], ["m", { column: "c2" }]]), learnedIndexes: learned });
  const limits = { maxIndexes: 2, maxSizePercent: 50 };

  it("refuses a gone resource or field, a field some index starts with, and past the most learned indexes", () => {
    expect(countRefusal(undefined, "n", new Set(), limits)).toBe("the resource is gone");
    expect(countRefusal(r([], false), "n", new Set(), limits)).toBe("the resource is gone");
    expect(countRefusal(r([]), "gone", new Set(), limits)).toBe("the field is gone");
    expect(countRefusal(r([]), "n", new Set(["c1"]), limits)).toBe("an index already starts with the field");
    expect(countRefusal(r([ix(1), ix(1)]), "n", new Set(["c2"]), limits)).toBe("the resource has 2 learned indexes, the most allowed");
    expect(countRefusal(r([ix(1)]), "n", new Set(["c2"]), limits)).toBeNull();
  });

  it("counts the learned indexes' sizes so far with the new one's against a share of the table", () => {
    expect(budgetRefusal(r([ix(200_000)]), "n", 300_000, 1_000_000, limits)).toBeNull(); // exactly 50%
    expect(budgetRefusal(r([ix(200_000)]), "n", 300_001, 1_000_000, limits)).toBe(
      'an index on "n" (about 0.3 MB) would take learned indexes to 0.5 MB, over 50% of the table (0.5 MB)',
    );
  });
});
