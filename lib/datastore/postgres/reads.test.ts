// The reads on PostgreSQL answer as the SQLite engine answers (the reference): the same records
// in both, the same searches, value counts, histograms, summaries and aggregates.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { toSpec as old } from "../aggregate-test-support";
import { SUMMARY_LIMITS } from "../summary-plan";
import type { AggregateSpec, DatastoreEngine, Field, Resource, SearchQuery, SortClause } from "../engine";
import { parsePlain, parseTsQuery } from "../full-text";
import { openEngine } from "../open";
import { aggregate } from "./aggregate";
import { histogram } from "./histogram";
import { RankedLists } from "./ranked";
import { makeResource, testDb, type TestDb } from "./reads-test-support";
import type { PgResource, Queryable } from "./resource";
import { search } from "./search";
import { summary } from "./summary";
import { valueCounts } from "./value-counts";

const FIELDS: Field[] = [
  { id: "name", type: "text" },
  { id: "n", type: "int4" },
  { id: "x", type: "float8" },
  { id: "num", type: "numeric" },
  { id: "ok", type: "bool" },
  { id: "day", type: "date" },
  { id: "at", type: "timestamp" },
  { id: "tags", type: "_text" },
  { id: "doc", type: "json" },
];

const WORDS = ["alpha", "beta", "Gamma", "delta dog", "running dogs", "", "émile", "zeta"];

/** 300 rows with repeats, NULLs and blanks in every field. */
const RECORDS: Record<string, unknown>[] = Array.from({ length: 300 }, (_, i) => ({
  name: i % 17 === 0 ? null : WORDS[i % WORDS.length],
  n: i % 13 === 0 ? null : (i * 7) % 23,
  x: i % 11 === 0 ? null : ((i * 37) % 101) / 4 - 10,
  num: i % 9 === 0 ? null : (i % 5) * 1.25,
  ok: i % 7 === 0 ? null : i % 3 === 0,
  day: i % 10 === 0 ? null : `20${10 + (i % 12)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
  at: i % 6 === 0 ? null : `2020-0${1 + (i % 9)}-1${i % 10}T${String(i % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00`,
  tags: i % 8 === 0 ? null : i % 8 === 1 ? [] : [WORDS[i % 3], WORDS[(i + 1) % 5]],
  doc: i % 4 === 0 ? null : { k: i % 3, v: [i % 2] },
}));

let db: TestDb;
let r: PgResource;
let sqlite: DatastoreEngine;
let sr: Resource;

beforeAll(async () => {
  db = await testDb();
  r = await makeResource(db.pool, FIELDS, RECORDS);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pg-reads-")), "reads.db");
  sqlite = await openEngine({ file, readWorkers: 0 });
  await sqlite.createResource({ id: "r", name: "r", description: "", private: false }, FIELDS);
  await sqlite.write("r", RECORDS, "insert");
  sr = (await sqlite.getResource("r"))!;
});
afterAll(async () => {
  await sqlite?.close();
  await db?.close();
});

/** Runs fn in a read-only transaction, as the read pool does. */
async function inTx<T>(fn: (c: Queryable) => Promise<T>): Promise<T> {
  const c: pg.PoolClient = await db.pool.connect();
  try {
    await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    return await fn(c);
  } finally {
    await c.query("COMMIT");
    c.release();
  }
}

const ALL = ["_id", ...FIELDS.map((f) => f.id)];
const base: SearchQuery = { filters: [], fts: [], columns: ALL, sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 100, offset: 0, includeTotal: true };
const by = (field: string, desc = false, nullsFirst = desc): SortClause => ({ field, desc, nullsFirst });

describe("search: the SQLite engine's page and total", () => {
  const cases: [string, Partial<SearchQuery>][] = [
    ["first page", {}],
    ["a deep page", { offset: 250 }],
    ["no total", { includeTotal: false, limit: 5 }],
    ["limit 0", { limit: 0 }],
    ["filtered", { filters: [{ op: "gt", field: "n", value: 10 }] }],
    ["filtered, a later page", { filters: [{ op: "empty", field: "tags", empty: false }], offset: 100, limit: 50 }],
    ["a few columns", { columns: ["day", "name"], limit: 20 }],
    ["lastId", { lastId: true, limit: 7 }],
    ["desc by _id", { sort: [by("_id", true)] }],
    ["encoded as objects", { encode: { format: "objects", columns: ALL.map((id) => ({ id, type: "text" })) }, limit: 10 }],
    ["encoded as csv", { encode: { format: "csv", columns: ALL.map((id) => ({ id, type: FIELDS.find((f) => f.id === id)?.type ?? "int" })) }, limit: 10 }],
    ["distinct", { columns: ["name"], distinct: true, sort: [by("name")] }],
    ["distinct of two, with total", { columns: ["ok", "n"], distinct: true, sort: [by("ok"), by("n", true)], limit: 30 }],
    ["distinct json", { columns: ["doc"], distinct: true, sort: [by("doc")] }],
    ["distinct, sorted by a column it leaves out", { columns: ["name"], distinct: true, sort: [by("name"), by("n", true)] }],
    ["total estimated only past the budget", { filters: [{ op: "lt", field: "x", value: 0 }], totalEstimationThreshold: 0 }],
  ];
  for (const f of FIELDS) {
    cases.push([`by ${f.id} asc, ties by _id`, { sort: [by(f.id), by("_id")] }]);
    cases.push([`by ${f.id} desc, ties by _id`, { sort: [by(f.id, true), by("_id")] }]);
    cases.push([`by ${f.id} asc nulls first`, { sort: [by(f.id, false, true), by("_id", true)] }]);
    cases.push([`by ${f.id} desc nulls last`, { sort: [by(f.id, true, false), by("_id")] }]);
  }
  for (const [name, patch] of cases) {
    it(name, async () => {
      const q = { ...base, ...patch };
      const want = await sqlite.search(sr, q);
      const got = await inTx((c) => search(c, r, q, config));
      expect(got.records && new TextDecoder().decode(got.records)).toEqual(want.records && new TextDecoder().decode(want.records));
      expect({ ...got, records: undefined }).toEqual({ ...want, records: undefined });
    });
  }

  it("full text: the same rows match, best rank first", async () => {
    for (const [text, plain] of [
      ["dog", true],
      ["alpha | gamma", false],
      ["!dog", false],
      ["run:*", false],
      ["the", true],
    ] as const) {
      const tree = plain ? parsePlain(text) : parseTsQuery(text);
      const q: SearchQuery = { ...base, columns: ["_id"], fts: [{ field: null, tree, rank: "rank" }], sort: [by("rank", true)], limit: 1000 };
      const want = await sqlite.search(sr, q);
      const got = await inTx((c) => search(c, r, q, config));
      expect(got.total, text).toBe(want.total);
      expect(got.rows.map((x) => x[0]).sort(), text).toEqual(want.rows.map((x) => x[0]).sort());
      // A negated search of one field leaves out rows where the field is NULL, as CKAN's
      // to_tsvector(field) does; SQLite's index keeps them.
      if (text.startsWith("!")) continue;
      const field: SearchQuery = { ...q, fts: [{ field: "name", tree, rank: "rank name" }], sort: [by("rank name", true)] };
      const wantField = await sqlite.search(sr, field);
      const gotField = await inTx((c) => search(c, r, field, config));
      expect(gotField.rows.map((x) => x[0]).sort(), text).toEqual(wantField.rows.map((x) => x[0]).sort());
    }
  });
});

describe("best-first pages from a kept ranked list", () => {
  it("give the pages the plain statement gives, ranks, ties and totals included", async () => {
    const lists = new RankedLists();
    for (const text of ["dog", "alpha | gamma | zeta", "run:* | 13"]) {
      const fts = [{ field: null, tree: parseTsQuery(text), rank: "rank" }];
      for (const desc of [true, false]) {
        for (const [offset, limit] of [
          [0, 10],
          [5, 50],
          [90, 100],
          [0, 1000],
          [500, 10],
        ]) {
          const q: SearchQuery = { ...base, columns: ["_id", "name", "rank"], fts, sort: [by("rank", desc)], offset, limit };
          const plain = await inTx((c) => search(c, r, q, config));
          expect(await inTx((c) => search(c, r, q, config, lists)), `${text} ${desc} ${offset}`).toEqual(plain);
        }
      }
    }
  });
});

describe("value counts, histogram, summary, aggregate: the SQLite engine's", () => {
  const narrow: SearchQuery = { ...base, filters: [{ op: "gte", field: "n", value: 5 }] };
  for (const f of FIELDS) {
    it(`value counts of ${f.id}`, async () => {
      for (const q of [base, narrow]) {
        expect(await inTx((c) => valueCounts(c, r, f.id, q, 5))).toEqual(await sqlite.valueCounts(sr, f.id, q, 5));
      }
    });
  }
  for (const id of ["n", "x", "num", "day", "at", "_id"]) {
    it(`histogram of ${id}`, async () => {
      for (const bins of [1, 7, 20]) {
        for (const q of [base, narrow]) expect(await inTx((c) => histogram(c, r, id, q, bins))).toEqual(await sqlite.histogram(sr, id, q, bins));
      }
    });
  }
  it("summary of every field", async () => {
    const options = { fields: FIELDS.map((f) => f.id), top: 3, bins: 6 };
    for (const q of [base, narrow]) expect(await inTx((c) => summary(c, r, q, options))).toEqual(await sqlite.summary(sr, q, options));
    // Read in chunks of 7 rows (a big table's 50,000), the same figures.
    for (const q of [base, narrow]) expect(await inTx((c) => summary(c, r, q, options, { ...SUMMARY_LIMITS, chunkRows: 7 }))).toEqual(await sqlite.summary(sr, q, options));
  });
  const specs: AggregateSpec[] = [
    old({ keys: [{ field: "name" }], metric: "count", field: null, limit: 5 }),
    old({ keys: [{ field: "ok" }], metric: "avg", field: "x", limit: 10 }),
    old({ keys: [{ field: "tags" }], metric: "sum", field: "num", limit: 10 }),
    old({ keys: [{ field: "doc" }], metric: "max", field: "n", limit: 10 }),
    old({ keys: [{ field: "day", period: "month" }], metric: "min", field: "x", limit: 200 }),
    old({ keys: [{ field: "at", period: "week" }], metric: "count", field: null, limit: 200 }),
    old({ keys: [{ field: "day", period: "quarter" }, { field: "ok" }], metric: "count", field: null, limit: 200 }),
    old({ keys: [{ field: "at", period: "year" }], metric: "sum", field: "n", limit: 10 }),
    old({ keys: [{ field: "at", period: "day" }], metric: "count", field: null, limit: 10 }),
    old({ keys: [{ field: "x", bin: 2.5 }], metric: "count", field: null, limit: 100 }),
    old({ keys: [{ field: "num", bin: 0.1 }, { field: "n", bin: 5 }], metric: "avg", field: "x", limit: 100 }),
    // The second form: three keys, several measures, a distinct count, dates' min and max,
    // having, an order, a page, totals.
    {
      keys: [{ field: "ok" }, { field: "day", period: "year" }, { field: "n", bin: 3 }],
      metrics: [
        { name: "count", fn: "count", field: null },
        { name: "sum_x", fn: "sum", field: "x" },
        { name: "names", fn: "count_distinct", field: "name" },
        { name: "first", fn: "min", field: "at" },
        { name: "last", fn: "max", field: "day" },
      ],
      having: { op: "gte", field: "count", value: 2 },
      order: [{ by: "names", desc: true }],
      limit: 7,
      offset: 2,
      totals: true,
      budgetMs: null,
    },
    { ...old({ keys: [{ field: "name" }, { field: "tags" }], metric: "count", field: null, limit: 50 }), metrics: [{ name: "d", fn: "count_distinct", field: "tags" }], totals: true },
  ];
  for (const spec of specs) {
    it(`aggregate ${JSON.stringify(spec.keys)} ${JSON.stringify(spec.metrics)}`, async () => {
      for (const q of [base, narrow]) expect(await inTx((c) => aggregate(c, r, q, spec))).toEqual(await sqlite.aggregate(sr, q, spec));
    });
  }
});
