import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { oldOutput, toSpec, type OldGroup as AggregateGroup, type OldSpec as AggregateSpec } from "../aggregate-test-support";
import { exactOutput, flatGroups, mergeParts } from "../aggregate-groups";
import { column } from "../catalog-row";
import type { AggregateKey, AggregateMetric, AggregatePeriod, AggregateSpec as Spec, DatastoreEngine, Field, Resource, SearchQuery } from "../engine";
import { scaleCount } from "../sample-estimate";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { aggregate, BUDGET, pickedIds, sharedClaims, SpanClaims, type AggregateBudget } from "./aggregate";
import { mustGet, type Internal } from "./catalog";
import { openReader, type Conn } from "./connection";
import { judge } from "./read-cost";
import { toDatastoreError } from "./errors";
import { spreadSample } from "./spread-sample";
import { Where } from "./where";
import { summary } from "./summary";
import { bulkInsert } from "../../test/bulk-insert";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aggregate-")), "a.db");
const base: SearchQuery = { filters: [], fts: [], columns: ["_id"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: false };

const FIELDS: Field[] = [
  { id: "d", type: "date" },
  { id: "ts", type: "timestamp" },
  { id: "i", type: "int4" },
  { id: "f", type: "float8" },
  { id: "n", type: "numeric" },
  { id: "name", type: "text" },
  { id: "grp", type: "text" },
  { id: "lat", type: "float8" },
  { id: "lon", type: "float8" },
  { id: "tags", type: "_int4" },
  { id: "flag", type: "bool" },
  { id: "word", type: "text" },
];

const ROWS = 80;
const pad = (v: number, w = 2) => String(v).padStart(w, "0");
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** Values by row index k (the row's _id is k + 1), as search answers them. */
const VALUES: Record<string, (k: number) => unknown> = {
  d: (k) => (k % 5 === 0 ? null : iso(Date.UTC(2019, 10, 20) + k * 5 * 86_400_000).slice(0, 10)),
  ts: (k) => (k % 7 === 3 ? null : iso(Date.UTC(2020, 10, 15, 13, 45, 10) + k * (4 * 86_400 + 3_607) * 1000)),
  i: (k) => (k % 6 === 0 ? null : ((k * 7) % 23) - 11),
  f: (k) => (k % 9 === 0 ? null : [0.3, 0.1, 0.7, -0.05, 0.2999, 1.25][k % 6] + (k % 3)),
  n: (k) => (k * 37) % 101 / 4,
  name: (k) => ["alpha", "beta", "", null, "beta", "gamma"][k % 6],
  grp: (k) => (k % 4 === 0 ? "x" : "y"),
  lat: (k) => (k % 10 === 9 ? null : [39.8, 40.2, 40.65, 41.05, 41.45][k % 5]),
  lon: (k) => [-70.3, -70.9, -71.6][k % 3],
  tags: (k) => (k % 3 === 0 ? [] : k % 3 === 1 ? null : [k % 2]),
  flag: (k) => k % 2 === 0,
  word: (k) => (k % 3 === 0 ? "apple" : "pear"),
};
VALUES._id = (k) => k + 1;
const RECORDS = Array.from({ length: ROWS }, (_, k) => Object.fromEntries(FIELDS.map((f) => [f.id, VALUES[f.id](k)])));
const ALL = Array.from({ length: ROWS }, (_, k) => k);

// ------------------------------------------------------------------ the oracle, in plain JS

/** A period's start, computed with Date rather than SQL. */
function periodStart(value: string, period: AggregatePeriod): string {
  const [y, m] = [Number(value.slice(0, 4)), Number(value.slice(5, 7))];
  switch (period) {
    case "day":
      return value.slice(0, 10);
    case "week": {
      const t = new Date(`${value.slice(0, 10)}T00:00:00Z`);
      return new Date(t.getTime() - ((t.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    }
    case "month":
      return `${value.slice(0, 7)}-01`;
    case "quarter":
      return `${y}-${pad(Math.floor((m - 1) / 3) * 3 + 1)}-01`;
    case "year":
      return `${y}-01-01`;
  }
}

function keyOf(key: AggregateKey, k: number): unknown {
  const v = VALUES[key.field](k);
  if (v === null || v === "" || (Array.isArray(v) && v.length === 0)) return null;
  if (key.period) return periodStart(v as string, key.period) + (key.field === "ts" ? "T00:00:00" : "");
  // Decimal arithmetic on scaled integers: 0.3 is in the bin from 0.3 when the width is 0.1.
  if (key.bin !== undefined) return Number((Math.floor(Math.round((v as number) * 1e6) / Math.round(key.bin * 1e6)) * key.bin).toFixed(10));
  return v;
}

/** Keys of one field ascending, null last: numbers and booleans by value, the rest by text. */
function order(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" || typeof a === "boolean") return Number(a) - Number(b);
  const [x, y] = [a, b].map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Every group over rows `ks`, in the contract's order, all of them (no limit). */
function expected(spec: Omit<AggregateSpec, "limit">, ks: number[] = ALL): AggregateGroup[] {
  const groups = new Map<string, { key: unknown[]; ks: number[] }>();
  for (const k of ks) {
    const key = spec.keys.map((x) => keyOf(x, k));
    const id = JSON.stringify(key);
    if (!groups.has(id)) groups.set(id, { key, ks: [] });
    groups.get(id)!.ks.push(k);
  }
  const out = [...groups.values()].map(({ key, ks: rows }) => {
    const numbers = rows.map((k) => (spec.field ? VALUES[spec.field](k) : null)).filter((v): v is number => typeof v === "number");
    const value = {
      count: rows.length,
      sum: numbers.length ? numbers.reduce((a, b) => a + b, 0) : null,
      avg: numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null,
      min: numbers.length ? Math.min(...numbers) : null,
      max: numbers.length ? Math.max(...numbers) : null,
    }[spec.metric];
    return { key, count: rows.length, value, _id: Math.min(...rows) + 1 };
  });
  const byKey = (a: AggregateGroup, b: AggregateGroup) => a.key.map((v, i) => order(v, b.key[i])).find((d) => d !== 0) ?? 0;
  const keyOrder = spec.keys.every((x) => x.period || x.bin);
  return out.sort((a, b) => (keyOrder || a.value === b.value ? byKey(a, b) : a.value === null ? 1 : b.value === null ? -1 : b.value - a.value));
}

/** Sums and averages in another order differ in the last bits. */
function expectGroups(actual: AggregateGroup[], wanted: AggregateGroup[]): void {
  expect(actual.map((g) => ({ ...g, value: g.value === null ? null : Number(g.value.toPrecision(12)) }))).toEqual(
    wanted.map((g) => ({ ...g, value: g.value === null ? null : Number(g.value.toPrecision(12)) })),
  );
}

const spec = (keys: AggregateKey[], metric: AggregateMetric = "count", field: string | null = null, limit = 10_000): AggregateSpec => ({ keys, metric, field, limit });
/** The same, bounded by a time budget (budget_ms). */
const budgeted = (s: AggregateSpec): AggregateSpec => ({ ...s, budgetMs: 150 });
/** Groups counted in a sample of `sampled` rows, as answered: scaled to `population` rows, with their margins. */
const scaled = (groups: AggregateGroup[], sampled: number, population: number): AggregateGroup[] =>
  groups.map((g) => {
    const e = scaleCount(g.count, sampled, population);
    return { ...g, count: e.value, value: g.value === g.count ? e.value : g.value, estimate: { low: e.low, high: e.high } };
  });

// ------------------------------------------------------------------------------ the engine

describe.each([
  { name: "in process", readWorkers: 0 },
  { name: "on read workers", readWorkers: 2 },
])("aggregate $name", ({ readWorkers }) => {
  let engine: DatastoreEngine;
  let r: Resource;
  const run = async (s: AggregateSpec, query: Partial<SearchQuery> = {}) => oldOutput(await engine.aggregate(r, { ...base, ...query }, toSpec(s)));

  beforeAll(async () => {
    engine = await openEngine({ file: tempFile(), readWorkers });
    await engine.createResource({ id: "a", name: "a", description: "", private: false }, FIELDS);
    await engine.write("a", RECORDS, "insert");
    r = (await engine.getResource("a"))!;
  });
  afterAll(async () => {
    await engine.close();
  });

  it("counts per value, largest first, NULL and '' together as the null key, with the smallest _id", async () => {
    const out = await run(spec([{ field: "name" }]));
    expect(out).toEqual({
      total: ROWS,
      rows: ROWS,
      partial: false,
      groups: [
        { key: [null], count: 26, value: 26, _id: 3 },
        { key: ["beta"], count: 27, value: 27, _id: 2 },
        { key: ["alpha"], count: 14, value: 14, _id: 1 },
        { key: ["gamma"], count: 13, value: 13, _id: 6 },
      ].sort((a, b) => b.count - a.count),
      others: { groups: 0, count: 0 },
    });
    expectGroups(out.groups, expected(spec([{ field: "name" }])));
  });

  it.each(["count", "sum", "avg", "min", "max"] as AggregateMetric[])("computes %s per group, null where a group has no number", async (metric) => {
    for (const field of ["i", "f", "n", "_id"]) {
      const s = spec([{ field: "name" }], metric, metric === "count" ? null : field);
      expectGroups((await run(s)).groups, expected(s));
    }
    if (metric !== "count") {
      // alpha's rows (k % 6 === 0) have no i
      const alpha = (await run(spec([{ field: "name" }], metric, "i"))).groups.find((g) => g.key[0] === "alpha");
      expect(alpha).toEqual({ key: ["alpha"], count: 14, value: null, _id: 1 });
    }
  });

  it.each(["day", "week", "month", "quarter", "year"] as AggregatePeriod[])("groups dates and timestamps by %s start, in time order", async (period) => {
    for (const field of ["d", "ts"]) {
      const s = spec([{ field, period }]);
      const out = await run(s);
      expect(out.partial).toBe(false);
      expectGroups(out.groups, expected(s));
      expect(out.groups.at(-1)!.key).toEqual([null]);
      const shape = field === "d" ? /^\d{4}-\d{2}-01$|^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2}T00:00:00$/;
      for (const g of out.groups.slice(0, -1)) expect(g.key[0]).toMatch(shape);
    }
  });

  it("starts weeks on Mondays", async () => {
    const out = await run(spec([{ field: "ts", period: "week" }]));
    for (const g of out.groups.slice(0, -1)) expect(new Date(`${(g.key[0] as string).slice(0, 10)}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(out.groups.length).toBeGreaterThan(40);
  });

  it("groups numbers by bin from its lower edge, exactly for decimal widths, in key order", async () => {
    for (const [field, bin] of [["i", 5], ["i", 1], ["f", 0.1], ["f", 0.5], ["n", 2.5], ["_id", 10]] as const) {
      const s = spec([{ field, bin }]);
      expectGroups((await run(s)).groups, expected(s));
    }
    const tenths = await run(spec([{ field: "f", bin: 0.1 }]));
    expect(tenths.groups.map((g) => g.key[0])).toContain(0.3);
    expect(tenths.groups.map((g) => g.key[0])).toContain(-0.1); // -0.05
    expect((await run(spec([{ field: "i", bin: 5 }]))).groups[0].key).toEqual([-15]); // -11 is in [-15, -10)
  });

  it("groups by two keys: a lat/lon grid, a period with a value", async () => {
    for (const bin of [1, 0.5]) {
      const grid = spec([
        { field: "lat", bin },
        { field: "lon", bin },
      ]);
      const out = await run(grid);
      expectGroups(out.groups, expected(grid));
      expect(out.groups.every((g) => g.key.length === 2)).toBe(true);
    }
    const mixed = spec([{ field: "d", period: "quarter" }, { field: "grp" }], "avg", "i");
    expectGroups((await run(mixed)).groups, expected(mixed));
    const arrays = spec([{ field: "tags" }, { field: "flag" }]);
    expectGroups((await run(arrays)).groups, expected(arrays));
  });

  it("answers `limit` groups and counts the rest in `others`", async () => {
    const all = expected(spec([{ field: "ts", period: "week" }]));
    const out = await run(spec([{ field: "ts", period: "week" }], "count", null, 10));
    expectGroups(out.groups, all.slice(0, 10));
    expect(out.others).toEqual({ groups: all.length - 10, count: all.slice(10).reduce((n, g) => n + g.count, 0) });
    expect(out.rows).toBe(ROWS);
    const top = await run(spec([{ field: "name" }], "count", null, 1));
    expect(top.groups).toEqual([{ key: ["beta"], count: 27, value: 27, _id: 2 }]);
    expect(top.others).toEqual({ groups: 3, count: ROWS - 27 });
  });

  it("narrows to the search: filters and full text", async () => {
    const s = spec([{ field: "d", period: "month" }], "sum", "n");
    const xs = ALL.filter((k) => k % 4 === 0);
    const byFilter = await run(s, { filters: [{ op: "eq", field: "grp", value: "x" }] });
    expect(byFilter).toMatchObject({ total: xs.length, rows: xs.length, partial: false });
    expectGroups(byFilter.groups, expected(s, xs));
    const apples = ALL.filter((k) => k % 3 === 0);
    const byWords = await run(s, { fts: [{ field: null, tree: parsePlain("apple"), rank: "rank" }] });
    expectGroups(byWords.groups, expected(s, apples));
    const both = await run(s, { filters: [{ op: "eq", field: "grp", value: "x" }], fts: [{ field: "word", tree: parsePlain("pear"), rank: "rank word" }] });
    expectGroups(both.groups, expected(s, ALL.filter((k) => k % 4 === 0 && k % 3 !== 0)));
  });

  it("answers no groups when nothing matches", async () => {
    expect(await run(spec([{ field: "name" }], "avg", "i"), { filters: [{ op: "eq", field: "grp", value: "nobody" }] })).toEqual({
      total: 0,
      rows: 0,
      partial: false,
      groups: [],
      others: { groups: 0, count: 0 },
    });
  });

  it("answers 409 for a field the resource does not have", async () => {
    const e = await run(spec([{ field: "nope" }])).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DatastoreError);
    expect((e as DatastoreError).kind).toBe("validation");
  });
});

// ---------------------------------------------------------------- bounded: samples, budgets

describe("aggregate over a sample", () => {
  let file: string;
  let c: Conn;
  let r: Internal;
  /** No exact answer fits: every read goes to the sample. */
  const never: AggregateBudget = { ...BUDGET, sortRows: 0, indexRows: 0, groups: 0 };
  const bounded = (s: AggregateSpec, budget: Partial<AggregateBudget>, query: Partial<SearchQuery> = {}) => oldOutput(aggregate(c, r, { ...base, ...query }, toSpec(budgeted(s)), { ...never, ...budget }));
  const sampled = (n: number) => new Set((JSON.parse(spreadSample(c, r, n)!.params[0] as string) as number[]).map((id) => id - 1));
  const xIs = { filters: [{ op: "eq" as const, field: "grp", value: "x" }] };

  beforeAll(async () => {
    file = tempFile();
    const engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "a", name: "a", description: "", private: false }, FIELDS);
    await engine.write("a", RECORDS, "insert");
    await engine.close();
    c = openReader(file, config);
    r = mustGet(c, "a");
  });
  afterAll(() => c.db.close());

  it("counts the rows of a sample spread through the table, says partial, and the whole table's total", () => {
    const s = spec([{ field: "d", period: "quarter" }]);
    const picked = sampled(20);
    const out = bounded(s, { sampleRows: 20 });
    expect(out).toMatchObject({ partial: true, rows: 20, total: ROWS });
    expectGroups(out.groups, scaled(expected(s, ALL.filter((k) => picked.has(k))), 20, ROWS));
    // Spread: the sample reaches the last quarter, which the first 20 rows do not.
    expect(out.groups.filter((g) => g.key[0] !== null).at(-1)!.key[0]).toBe(expected(s).filter((g) => g.key[0] !== null).at(-1)!.key[0]);
  });

  it("estimates a narrowed total from the sample", () => {
    const s = spec([{ field: "name" }]);
    const hits = ALL.filter((k) => k % 4 === 0 && sampled(30).has(k));
    const out = bounded(s, { sampleRows: 30, fewRows: 1 }, xIs);
    expect(out).toMatchObject({ partial: true, rows: hits.length, total: Math.round((hits.length * ROWS) / 30) });
    expectGroups(out.groups, scaled(expected(s, hits), 30, ROWS));
  });

  it("reads the first rows instead when the sample holds few matching rows and they hold more", () => {
    const s = spec([{ field: "name" }]);
    const first = ALL.filter((k) => k % 4 === 0 && k < 50);
    const out = bounded(s, { sampleRows: 30, fewRows: 100, firstRows: 50 }, xIs);
    expect(out).toMatchObject({ partial: true, rows: first.length, total: Math.round((first.length * ROWS) / 50) });
    expectGroups(out.groups, scaled(expected(s, first), 50, ROWS));
    // The first 4 rows hold one match, fewer than the sample's: the sample stays.
    expect(bounded(s, { sampleRows: 30, fewRows: 100, firstRows: 4 }, xIs).rows).toBe(ALL.filter((k) => k % 4 === 0 && sampled(30).has(k)).length);
  });

  it("is exact when the sample or the first rows would be the whole table", () => {
    const s = spec([{ field: "ts", period: "month" }], "max", "f");
    const xs = ALL.filter((k) => k % 4 === 0);
    const whole = bounded(s, { sampleRows: ROWS });
    expect(whole).toMatchObject({ partial: false, rows: ROWS, total: ROWS });
    expectGroups(whole.groups, expected(s));
    const first = bounded(s, { sampleRows: 20, fewRows: 100, firstRows: ROWS + 1 }, xIs);
    expect(first).toMatchObject({ partial: false, rows: xs.length, total: xs.length });
    expectGroups(first.groups, expected(s, xs));
  });

  it("is exact within the default budget on a small table", () => {
    expect(aggregate(c, r, base, toSpec(spec([{ field: "name" }])))).toMatchObject({ partial: false, rows: ROWS });
  });
});

// ------------------------------------------------------------ exact, in parts, span by span

describe("aggregate in parts read span by span", () => {
  let file: string;
  let c: Conn;
  let r: Internal;
  const col = (id: string) => `"${column(r, id).column}"`;
  /** Most rows with an i (the range path); above 10, two rows (an index of i picks them). */
  const iAbove = { ...base, filters: [{ op: "gt" as const, field: "i", value: -5 }] };
  const iAbove10 = { ...base, filters: [{ op: "gt" as const, field: "i", value: 10 }] };
  const measures: Spec["metrics"] = [
    { name: "count", fn: "count", field: null },
    { name: "avg_i", fn: "avg", field: "i" },
    { name: "sum_n", fn: "sum", field: "n" },
    { name: "min_ts", fn: "min", field: "ts" },
    { name: "max_d", fn: "max", field: "d" },
  ];
  const grouped = (keys: AggregateKey[]): Spec => ({ keys, metrics: measures, having: null, order: [], limit: 10_000, offset: 0, totals: true, budgetMs: null });
  /** The groups of `of` readers sharing their counters merged, as engine.ts does with the read
   *  workers' answers. One after another here, the last reads its share and then the others'
   *  (SpanClaims' own test interleaves readers). */
  const inParts = (query: SearchQuery, s: Spec, of: number, span: Partial<AggregateBudget>) => {
    const claims = sharedClaims(of);
    return exactOutput(mergeParts(Array.from({ length: of }, (_, i) => flatGroups(aggregate(c, r, query, s, { ...BUDGET, ...span }, { index: of - 1 - i, of, claims }).groups)), s), s);
  };
  const whereOf = (query: SearchQuery) => {
    const where = new Where(r);
    for (const f of query.filters) where.filter(f);
    return where;
  };

  beforeAll(async () => {
    file = tempFile();
    const engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "a", name: "a", description: "", private: false }, FIELDS);
    await engine.write("a", RECORDS, "insert");
    await engine.setIndexes("a", [["i"]]);
    await engine.close();
    c = openReader(file, config);
    r = mustGet(c, "a");
  });
  afterAll(() => c.db.close());

  // Spans of 1 and 3 units hold fewer rows than 8 per group, so after the first span a reader
  // claims the rest of its share at once, and half of what is left of another's; with 16 ids
  // and two groups (grp) every span is read on its own. 80 rows so read end on every kind of
  // boundary.
  it.each([1, 3, 16, 65_536])("gives one read's groups in 1 to 7 parts, spans of %i", (span) => {
    for (const keys of [[{ field: "grp" }], [{ field: "grp" }, { field: "ts", period: "month" as const }], [{ field: "d", period: "week" as const }]]) {
      for (const query of [base, iAbove, iAbove10]) {
        const whole = aggregate(c, r, query, grouped(keys));
        for (const of of [1, 2, 3, 7]) expect(inParts(query, grouped(keys), of, { spanIds: span, spanPicked: span })).toEqual(whole);
      }
    }
  });

  it("claims the same units on a reader that planned before an index was added, and says which", async () => {
    // A second store: its index comes after a reader has planned the filter without it.
    const other = tempFile();
    let engine = await openEngine({ file: other, readWorkers: 0 });
    await engine.createResource({ id: "b", name: "b", description: "", private: false }, [{ id: "i", type: "int4" }, { id: "grp", type: "text" }]);
    await engine.write("b", Array.from({ length: 4000 }, (_, k) => ({ i: k % 100, grp: k % 2 ? "x" : "y" })), "insert");
    await engine.close();
    const query = { ...base, filters: [{ op: "gt" as const, field: "i", value: 97 }] };
    const s: Spec = { ...grouped([{ field: "grp" }]), metrics: [{ name: "count", fn: "count", field: null }, { name: "sum_i", fn: "sum", field: "i" }] };
    const budget = { ...BUDGET, spanIds: 64, spanPicked: 8 };
    const early = openReader(other, config);
    const late = openReader(other, config);
    try {
      const before = aggregate(early, mustGet(early, "b"), query, s, budget, { index: 0, of: 2, claims: sharedClaims(2) });
      expect(before.units).toMatch(/^ids /);
      engine = await openEngine({ file: other, readWorkers: 0 });
      await engine.setIndexes("b", [["i"]]);
      await engine.close();
      const claims = sharedClaims(2);
      const parts = [aggregate(late, mustGet(late, "b"), query, s, budget, { index: 1, of: 2, claims }), aggregate(early, mustGet(early, "b"), query, s, budget, { index: 0, of: 2, claims })];
      // Both now read the rows the new index picks: one set of spans, each row once.
      expect(parts.map((p) => p.units)).toEqual(["picked 80", "picked 80"]);
      expect(exactOutput(mergeParts(parts.map((p) => flatGroups(p.groups)), s), s)).toEqual(aggregate(late, mustGet(late, "b"), query, s));
    } finally {
      early.db.close();
      late.db.close();
    }
  });

  it("lets an index pick the rows, in _id order, only when they are few of the table's", () => {
    const plain = c.db.prepare(`SELECT _id FROM "${r.table}" WHERE ${col("i")} > 10 ORDER BY _id`).pluck().all() as number[];
    expect(plain.length).toBeGreaterThan(1);
    expect(plain.length).toBeLessThanOrEqual(ROWS / 20);
    expect(Array.from(pickedIds(c, r, whereOf(iAbove10))!)).toEqual(plain);
    // Too many rows for the index to pick, or no index of the filter: the readers read the table.
    expect(pickedIds(c, r, whereOf(iAbove))).toBeNull();
    expect(pickedIds(c, r, whereOf({ ...base, filters: [{ op: "eq", field: "grp", value: "x" }] }))).toBeNull();
    expect(pickedIds(c, r, whereOf(base))).toBeNull();
  });

  it("hands every span to one reader: its own share first, then what is left of the others'", () => {
    // Readers claiming in turns, unevenly (reader 0 twice as often), one widening early.
    for (const [units, span, of] of [[80, 1, 2], [80, 3, 3], [100, 16, 7], [5, 65_536, 2], [0, 4, 2]]) {
      const claims = sharedClaims(of);
      const readers = Array.from({ length: of }, (_, i) => new SpanClaims(claims, units, span, i));
      const seen = new Array<number>(units).fill(0);
      const done = new Set<number>();
      for (let turn = 0; done.size < of; turn++) {
        const i = turn % (of + 1) === of ? 0 : turn % (of + 1);
        if (done.has(i)) continue;
        const got = readers[i].next();
        if (!got) {
          done.add(i);
          continue;
        }
        for (let u = got[0]; u <= got[1]; u++) seen[u]++;
        if (turn === 1) readers[i].widen();
      }
      expect(seen.every((n) => n === 1)).toBe(true);
    }
    // Units 0-99 in spans of 8, two readers: b reads one span of its share (50-99) and stalls; a
    // reads its own share (0-49) 8 at a time, then b's from where b is, 8 at a time while more
    // than two spans are left, then 2 at a time.
    const claims = sharedClaims(2);
    const [a, b] = [new SpanClaims(claims, 100, 8, 0), new SpanClaims(claims, 100, 8, 1)];
    expect(b.next()).toEqual([50, 57]);
    const got: [number, number][] = [];
    for (let next = a.next(); next; next = a.next()) got.push(next);
    const spans = (from: number, size: number, n: number) => Array.from({ length: n }, (_, k) => [from + size * k, from + size * k + size - 1]);
    expect(got).toEqual([...spans(0, 8, 6), [48, 49], ...spans(58, 8, 4), ...spans(90, 2, 5)]);
    expect([a.next(), b.next()]).toEqual([null, null]);
    // Widened past a span of many groups: the rest of its own share at once, half of what is
    // left of another's.
    const shared = sharedClaims(2);
    const [c1, c2] = [new SpanClaims(shared, 100, 8, 0), new SpanClaims(shared, 100, 8, 1)];
    expect(c1.next()).toEqual([0, 7]);
    c1.widen();
    expect([c1.next(), c2.next(), c1.next(), c2.next(), c1.next(), c2.next()]).toEqual([[8, 49], [50, 57], [58, 79], [80, 87], [88, 93], [94, 99]]);
    expect([c1.next(), c2.next()]).toEqual([null, null]);
  });

  it("counts what the plain GROUP BY counts, rows whose filtered value is NULL left out", () => {
    // Some rows are left out for a NULL i, so the filter is what is being compared.
    expect(ALL.some((k) => VALUES.i(k) === null)).toBe(true);
    const s = grouped([{ field: "grp" }, { field: "ts", period: "month" }]);
    for (const [query, above] of [[iAbove, -5], [iAbove10, 10]] as const) {
      const plain = c.db
        .prepare(`SELECT ${col("grp")}, substr(${col("ts")}, 1, 8) || '01', count(*), avg(${col("i")}), min(_id) FROM "${r.table}" WHERE ${col("i")} > ? GROUP BY 1, 2`)
        .raw()
        .all(above) as [string, string | null, number, number | null, number][];
      expect(plain.reduce((n, g) => n + g[2], 0)).toBe(ALL.filter((k) => VALUES.i(k) !== null && (VALUES.i(k) as number) > above).length);
      const toGroup = ([grp, month, count, avg, id]: (typeof plain)[number]) => ({ key: [grp, month === null ? null : `${month}T00:00:00`], count, avg: avg === null ? null : Number(avg.toPrecision(12)), _id: id });
      const byKey = (a: { key: unknown[] }, b: { key: unknown[] }) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key));
      for (const [of, span] of [[2, 3], [3, 16], [7, 1]]) {
        const out = inParts(query, s, of, { spanIds: span, spanPicked: span });
        const groups = out.groups.map((g) => ({ key: g.key, count: g.count, avg: g.values.avg_i === null ? null : Number((g.values.avg_i as number).toPrecision(12)), _id: g._id }));
        expect(groups.sort(byKey)).toEqual(plain.map(toGroup).sort(byKey));
      }
    }
  });
});

describe("aggregate on a big table", () => {
  const BIG = 100_500;
  let file: string;
  let c: Conn;
  let r: Internal;

  beforeAll(async () => {
    file = tempFile();
    const engine = await openEngine({ file, readWorkers: 0 });
    const fields: Field[] = [
      { id: "g", type: "text" },
      { id: "h", type: "text" },
      { id: "v", type: "int4" },
    ];
    await engine.createResource({ id: "big", name: "big", description: "", private: false }, fields);
    await bulkInsert(engine, "big", Array.from({ length: BIG }, (_, k) => ({ g: `g${k % 50}`, h: `g${k % 50}`, v: k })));
    await engine.setIndexes("big", [["g"]]);
    await engine.close();
    c = openReader(file, config);
    r = mustGet(c, "big");
  }, 60_000);
  afterAll(() => c.db.close());
  afterEach(() => {
    delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
  });

  it("groups an indexed field in the index's order, exactly, where a sort would not fit", () => {
    const noSort = { ...BUDGET, sortRows: 0 };
    const byIndex = oldOutput(aggregate(c, r, base, toSpec(budgeted(spec([{ field: "g" }], "count", null, 3))), noSort));
    expect(byIndex).toMatchObject({ partial: false, rows: BIG, total: BIG, others: { groups: 47, count: BIG - 3 * 2010 } });
    // Equal counts: by key, as text.
    expect(byIndex.groups).toEqual([0, 1, 10].map((k) => ({ key: [`g${k}`], count: 2010, value: 2010, _id: k + 1 })));
    expect(aggregate(c, r, base, toSpec(budgeted(spec([{ field: "h" }]))), noSort).partial).toBe(true);
    // Unbounded, it is exact whatever it takes.
    expect(aggregate(c, r, base, toSpec(spec([{ field: "h" }])), noSort)).toMatchObject({ partial: false, rows: BIG });
  });

  it("goes straight to the sample for a whole table too big to group in time", () => {
    // The shortcut looks at the catalog's row count, so a pretended one shows it.
    const out = oldOutput(aggregate(c, { ...r, rowCount: 3_000_000 }, base, toSpec(budgeted(spec([{ field: "v", bin: 10_000 }])))));
    // The sample's picks (v = _id - 1), binned as the spec bins v; a pick made twice is one row.
    const picks = JSON.parse(spreadSample(c, r, BUDGET.sampleRows)!.params[0] as string) as number[];
    const bin = (id: number) => Math.floor((id - 1) / 10_000) * 10_000;
    const perBin = (ids: number[]) => {
      const n = new Map<number, number>();
      for (const id of ids) n.set(bin(id), (n.get(bin(id)) ?? 0) + 1);
      return [...n].sort(([a], [b]) => a - b);
    };
    const rows = new Set(picks);
    expect(out).toMatchObject({ partial: true, rows: rows.size, total: 3_000_000 });
    // Counts scaled to the table the sample stands for (its picks of 3,000,000 rows).
    expect(out.groups.map((g) => [g.key[0], g.count])).toEqual(perBin([...rows]).map(([k, n]) => [k, scaleCount(n, BUDGET.sampleRows, 3_000_000).value]));
    // Every bin of the table is reached, the last one too.
    expect(out.groups.map((g) => g.key[0])).toEqual(Array.from({ length: Math.ceil(BIG / 10_000) }, (_, i) => i * 10_000));
    // Evenly spread: one pick in each stretch of the table, so as many in each full bin as it
    // holds stretches, give or take the two it shares with its neighbours.
    for (const [, n] of perBin(picks).slice(0, -1)) expect(Math.abs(n - 10_000 * (BUDGET.sampleRows / BIG))).toBeLessThan(2);
    // Narrowed, it tries the exact answer first.
    expect(oldOutput(aggregate(c, { ...r, rowCount: 3_000_000 }, { ...base, filters: [{ op: "eq", field: "g", value: "g7" }] }, toSpec(budgeted(spec([{ field: "h" }])))))).toMatchObject({
      partial: false,
      rows: 2010,
      groups: [{ key: ["g7"], count: 2010, value: 2010, _id: 8 }],
    });
  });

  it("groups (and summarizes) a big table in parts on two read workers, side by side, as one read would", async () => {
    const engine = await openEngine({ file, readWorkers: 3 });
    try {
      const big = (await engine.getResource("big"))!;
      const query = { ...base, filters: [{ op: "gte" as const, field: "v", value: 7 }] };
      const s = { ...toSpec(spec([{ field: "h" }, { field: "v", bin: 25_000 }], "count", null, 20)), totals: true };
      s.metrics = [{ name: "count", fn: "count", field: null }, { name: "avg_v", fn: "avg", field: "v" }, { name: "max_v", fn: "max", field: "v" }];
      const out = await engine.aggregate(big, query, s);
      expect(out).toEqual(aggregate(c, r, query, s));
      expect(out).toMatchObject({ total: BIG - 7, partial: false, others: { groups: 50 * 5 - 20 } });
      expect(out.totals).toEqual({ count: BIG - 7, values: { count: BIG - 7, avg_v: (BIG - 1 + 7) / 2, max_v: BIG - 1 } });
      // A summary is tallied in parts the same way, and adds up to one read's.
      const options = { fields: ["g", "h", "v"], top: 5, bins: 7 };
      expect(await engine.summary(big, query, options)).toEqual(summary(c, r, query, options));
    } finally {
      await engine.close();
    }
  });

  it("is judged cheap on the read pool only when an index narrows it to few rows", () => {
    expect(judge(c, r, { op: "aggregate", query: base }).cost).toBe("expensive");
    expect(judge(c, r, { op: "aggregate", query: { ...base, filters: [{ op: "eq", field: "g", value: "g7" }] } }).cost).toBe("cheap");
    expect(judge(c, r, { op: "aggregate", query: { ...base, filters: [{ op: "eq", field: "h", value: "g7" }] } }).cost).toBe("expensive");
  });

  it("answers 409 past the query timeout", () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "1";
    const e = (() => {
      try {
        aggregate(c, { ...r, rowCount: 3_000_000 }, base, toSpec(spec([{ field: "h" }])));
      } catch (x) {
        return x;
      }
    })();
    const mapped = toDatastoreError(e);
    expect(mapped).toBeInstanceOf(DatastoreError);
    expect((mapped as DatastoreError).details).toEqual({ query: [expect.stringMatching(/^Query took too long \(over 1 ms\)/)] });
  });
});
