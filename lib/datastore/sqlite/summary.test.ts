import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "../../config";
import type { DatastoreEngine, Field, FieldSummary, Resource, SearchQuery, SummaryOutput } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { bulkInsert } from "../../test/bulk-insert";
import { mustGet } from "./catalog";
import { openReader, type Conn } from "./connection";
import { spreadSample } from "./spread-sample";
import { scaleCount } from "../sample-estimate";
import { SUMMARY_LIMITS, type SummaryLimits } from "../summary-plan";
import { summary } from "./summary";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "summary-")), "s.db");
/** The `_id`s the spread sample of `n` rows picks in resource `id` of `file`. */
function sampleIds(file: string, id: string, n: number): number[] {
  const c = openReader(file, config);
  try {
    return JSON.parse(spreadSample(c, mustGet(c, id), n)!.params[0] as string) as number[];
  } finally {
    c.db.close();
  }
}
/** How often each value occurs. */
function countsOf<T>(values: T[]): Map<T, number> {
  const out = new Map<T, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
}
/** Value counts as a summary's top answers them: count descending, then value. */
const topOf = (values: string[], k = 10) =>
  [...countsOf(values)]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, k)
    .map(([value, count]) => ({ value, count }));
const base: SearchQuery = { filters: [], fts: [], columns: ["_id"], sort: [], distinct: false, limit: 10, offset: 0, includeTotal: false };

const FIELDS: Field[] = [
  { id: "i", type: "int4" },
  { id: "s", type: "int2" },
  { id: "b", type: "int8" },
  { id: "f", type: "float8" },
  { id: "r", type: "float4" },
  { id: "n", type: "numeric" },
  { id: "d", type: "date" },
  { id: "ts", type: "timestamp" },
  { id: "name", type: "text" },
  { id: "word", type: "text" },
  { id: "flag", type: "bool" },
  { id: "tm", type: "time" },
  { id: "tags", type: "_int4" },
  { id: "meta", type: "json" },
];
const IDS = FIELDS.map((f) => f.id);
const RANGE = ["i", "s", "b", "f", "r", "n", "d", "ts"];
const TOP = ["name", "word", "flag", "tm"];

const ROWS = 60;
const day = (k: number) => new Date(Date.UTC(2019, 10, 20) + k * 11 * 86_400_000).toISOString().slice(0, 10);
const second = (k: number) => new Date(Date.UTC(2020, 0, 1) + k * 7919_000).toISOString().slice(0, 19);
const RECORDS = Array.from({ length: ROWS }, (_, k) => ({
  i: k % 7 === 0 ? null : k * 3 - 40,
  s: k % 5,
  b: k * 1_000_003,
  f: k % 9 === 0 ? null : (k - 20) / 8,
  r: k / 10,
  n: ((k * 37) % 101) / 4,
  d: k % 4 === 0 ? null : day(k),
  ts: second(k),
  name: k % 2 ? "odd" : "even",
  word: k % 3 === 0 ? "apple" : k % 3 === 1 ? "pear" : k % 5 === 0 ? "" : null,
  flag: k % 6 === 0 ? null : k % 2 === 0,
  tm: k % 4 === 0 ? "10:00:00" : "12:30:00",
  tags: k % 10 === 0 ? [] : k % 10 === 1 ? null : [k % 3],
  meta: k % 2 ? { k: k % 4 } : null,
}));

/** What a field's figures must be over `records`, exactly: empties, distinct values, and the
 *  rest as the engine's own value counts and histogram answer them. */
async function expected(engine: DatastoreEngine, r: Resource, query: SearchQuery, records: typeof RECORDS): Promise<FieldSummary[]> {
  const out: FieldSummary[] = [];
  for (const f of FIELDS) {
    const values = records.map((rec) => rec[f.id as keyof typeof rec]);
    const isEmpty = (v: unknown) => v === null || v === "" || (Array.isArray(v) && v.length === 0);
    const present = values.filter((v) => !isEmpty(v));
    const common = { id: f.id, type: f.type, empty: values.length - present.length, distinct: new Set(present.map((v) => JSON.stringify(v))).size, distinctEstimated: false };
    if (RANGE.includes(f.id)) {
      const h = await engine.histogram(r, f.id, query, 20);
      out.push({ ...common, min: h.min, max: h.max, bins: h.bins });
    } else if (TOP.includes(f.id)) {
      // value counts count "" as a value; a summary counts it as empty
      const counts = await engine.valueCounts(r, f.id, query, 11);
      out.push({ ...common, top: counts.values.filter((v) => v.value !== "").slice(0, 10) });
    } else out.push(common);
  }
  return out;
}

describe.each([
  { name: "in process", readWorkers: 0 },
  { name: "on read workers", readWorkers: 2 },
])("summary $name", ({ readWorkers }) => {
  let engine: DatastoreEngine;
  let r: Resource;
  const run = (query: Partial<SearchQuery> = {}, fields = IDS, top = 10, bins = 20) => engine.summary(r, { ...base, ...query }, { fields, top, bins });

  beforeAll(async () => {
    engine = await openEngine({ file: tempFile(), readWorkers });
    await engine.createResource({ id: "s", name: "s", description: "", private: false }, FIELDS);
    await engine.write("s", RECORDS, "insert");
    r = (await engine.getResource("s"))!;
  });
  afterAll(async () => {
    await engine.close();
  });

  it("summarizes every type exactly: bins as datastore_histogram's, top values as value counts'", async () => {
    const out = await run();
    expect(out).toMatchObject({ total: ROWS, rows: ROWS, partial: false });
    expect(out.fields).toEqual(await expected(engine, r, base, RECORDS));
    // spot checks that do not lean on the other reads
    const byId = Object.fromEntries(out.fields.map((f) => [f.id, f]));
    expect(byId.word).toMatchObject({ empty: 20, distinct: 2, top: [{ value: "apple", count: 20 }, { value: "pear", count: 20 }] });
    expect(byId.flag).toMatchObject({ empty: 10, distinct: 2, top: [{ value: false, count: 30 }, { value: true, count: 20 }] });
    expect(byId.tags).toEqual({ id: "tags", type: "_int4", empty: 12, distinct: 3, distinctEstimated: false });
    expect(byId.meta).toEqual({ id: "meta", type: "json", empty: 30, distinct: 2, distinctEstimated: false });
    expect(byId.s).toMatchObject({ empty: 0, distinct: 5, min: 0, max: 4, bins: [0, 1, 2, 3, 4].map((v) => ({ from: v, to: v + 1, count: 12 })) });
  });

  it("narrows to filters and full text", async () => {
    const cases: [Partial<SearchQuery>, (k: number) => boolean][] = [
      [{ filters: [{ op: "eq", field: "name", value: "even" }] }, (k) => k % 2 === 0],
      [{ fts: [{ field: null, tree: parsePlain("apple"), rank: "rank" }] }, (k) => k % 3 === 0],
      [{ filters: [{ op: "gte", field: "i", value: 50 }], fts: [{ field: "word", tree: parsePlain("pear"), rank: "rank word" }] }, (k) => k % 3 === 1 && k % 7 !== 0 && k * 3 - 40 >= 50],
    ];
    for (const [narrowing, keep] of cases) {
      const query = { ...base, ...narrowing };
      const records = RECORDS.filter((_, k) => keep(k));
      const out = await run(narrowing);
      expect(out).toMatchObject({ total: records.length, rows: records.length, partial: false });
      expect(out.fields).toEqual(await expected(engine, r, query, records));
    }
  });

  it("answers the fields asked for, in their order, with top and bins as asked", async () => {
    const out = await run({}, ["word", "i"], 1, 2);
    expect(out.fields.map((f) => f.id)).toEqual(["word", "i"]);
    expect(out.fields[0].top).toEqual([{ value: "apple", count: 20 }]);
    expect(out.fields[1].bins).toEqual([
      { from: -200, to: 0, count: 12 },
      { from: 0, to: 200, count: 39 },
    ]);
  });

  it("answers zeros and no values when nothing matches", async () => {
    const out = await run({ filters: [{ op: "eq", field: "name", value: "nobody" }] });
    expect(out).toMatchObject({ total: 0, rows: 0, partial: false });
    for (const f of out.fields) {
      expect(f).toMatchObject({ empty: 0, distinct: 0, distinctEstimated: false });
      if (RANGE.includes(f.id)) expect(f).toMatchObject({ min: null, max: null, bins: [] });
      if (TOP.includes(f.id)) expect(f.top).toEqual([]);
    }
  });

  it("refuses an unknown field with a 409 on `fields`", async () => {
    const e = await run({}, ["nope"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DatastoreError);
    expect((e as DatastoreError).details).toEqual({ fields: ['field "nope" does not exist'] });
  });
});

describe("summary of a big table on read workers", () => {
  const ROWS = 60_000;
  let file: string;
  let engine: DatastoreEngine;

  beforeAll(async () => {
    file = tempFile();
    const writer = await openEngine({ file, readWorkers: 0 });
    await writer.createResource({ id: "w", name: "w", description: "", private: false }, [{ id: "n", type: "int4" }]);
    await bulkInsert(writer, "w", Array.from({ length: ROWS }, (_, k) => ({ n: k % 1000 })));
    await writer.close();
    engine = await openEngine({ file, readWorkers: 2 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it("samples past the row budget (a read judged expensive)", async () => {
    const r = (await engine.getResource("w"))!;
    const out = await engine.summary(r, base, { fields: ["n"], top: 10, bins: 10, budgetMs: 120 });
    // row k (_id k + 1) holds n = k mod 1000
    const ids = sampleIds(file, "w", SUMMARY_LIMITS.sampleRows);
    const n = ids.map((id) => (id - 1) % 1000);
    expect(out).toMatchObject({ total: ROWS, rows: new Set(ids).size, partial: true });
    // one pick in every six rows, at random within them: each value seen several times, so
    // none is thought unseen and the estimate is the values seen
    const counts = countsOf(n);
    expect(Math.min(...counts.values())).toBeGreaterThan(1);
    expect(out.fields[0]).toMatchObject({ distinct: counts.size, distinctEstimated: true, min: Math.min(...n), max: Math.max(...n) });
  });
});

describe("summary past its budgets", () => {
  const BIG = 3000;
  const SMALL: SummaryLimits = { ...SUMMARY_LIMITS, budgetMs: 1000, exactRows: 500, sampleRows: 300, minMatches: 100, firstRows: 1000 };
  let file: string;
  let engine: DatastoreEngine;
  let c: Conn;
  const run = (query: Partial<SearchQuery> = {}, limits = SMALL, fields = ["n", "cat", "tag"]) =>
    summary(c, mustGet(c, "big"), { ...base, ...query }, { fields, top: 10, bins: 10, budgetMs: limits.budgetMs }, limits);
  const field = (out: SummaryOutput, id: string) => out.fields.find((f) => f.id === id)!;
  // Each column's value by _id, as the rows below are made, and the sample's picks.
  const cat = (id: number) => "abcd"[(id - 1) % 4];
  const rare = (id: number) => (id - 1) % 60 === 5;
  const kind = (id: number) => ((id - 1) % 3 ? "many" : "few");
  let picks: number[];

  beforeAll(async () => {
    file = tempFile();
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "big", name: "big", description: "", private: false }, [
      { id: "n", type: "int4" },
      { id: "cat", type: "text" },
      { id: "tag", type: "text" },
      { id: "kind", type: "text" },
    ]);
    // n = _id; cat cycles a, b, c, d; tag "rare" on one row in 60 (in the first 1000 rows, 17 of
    // them); kind is indexed.
    const rows = Array.from({ length: BIG }, (_, k) => ({ n: k + 1, cat: "abcd"[k % 4], tag: k % 60 === 5 ? "rare" : null, kind: k % 3 ? "many" : "few" }));
    await engine.write("big", rows, "insert");
    await engine.setIndexes("big", [["kind"]]);
    c = openReader(file, config);
    picks = sampleIds(file, "big", SMALL.sampleRows);
  });
  afterAll(async () => {
    c.db.close();
    await engine.close();
  });

  it("is exact while every matching row fits the row budget", () => {
    const out = run({ filters: [{ op: "lte", field: "n", value: 500 }] });
    expect(out).toMatchObject({ total: 500, rows: 500, partial: false });
    expect(field(out, "n")).toMatchObject({ min: 1, max: 500, distinct: 500, distinctEstimated: false });
  });

  it("samples rows spread through the whole table beyond it, and says so", () => {
    const out = run();
    expect(new Set(picks).size).toBe(SMALL.sampleRows);
    expect(out).toMatchObject({ total: BIG, rows: SMALL.sampleRows, partial: true });
    // one pick in each stretch of ten rows, not the first 300 rows: from the first ten to the last ten
    const [first, last] = [picks[0], picks.at(-1)!];
    expect(first).toBeLessThanOrEqual(BIG / SMALL.sampleRows);
    expect(last).toBeGreaterThan(BIG - BIG / SMALL.sampleRows);
    // n is all different: every value seen once says a key, as many values as rows
    expect(field(out, "n")).toMatchObject({ min: first, max: last, distinct: BIG, distinctEstimated: true });
    const bins = field(out, "n").bins!.map((b) => ({ from: Number(b.from), to: Number(b.to), count: b.count }));
    expect(bins[0].from).toBeLessThanOrEqual(first);
    expect(bins.at(-1)!.to).toBeGreaterThanOrEqual(last);
    // Every count is the table's: the sample's, scaled by the 3,000 rows its 300 stand for.
    const tenfold = (n: number) => scaleCount(n, SMALL.sampleRows, BIG).value;
    expect(tenfold(7)).toBe(70);
    expect(bins.map((b) => b.count)).toEqual(bins.map((b, i) => tenfold(picks.filter((id) => id >= b.from && (id < b.to || i === bins.length - 1)).length)));
    expect(field(out, "n").bins![0].estimate).toEqual({ low: expect.any(Number), high: expect.any(Number) });
    const cats = picks.map(cat);
    expect(field(out, "cat")).toMatchObject({ distinct: new Set(cats).size, distinctEstimated: true, top: topOf(cats).map((t) => ({ ...t, count: tenfold(t.count) })) });
    const rareHits = picks.filter(rare).length;
    expect(field(out, "tag")).toMatchObject({ empty: tenfold(SMALL.sampleRows - rareHits), top: rareHits ? [{ value: "rare", count: tenfold(rareHits) }] : [] });
  });

  it("counts the total through an index, and samples the rows past the row budget", () => {
    const out = run({ filters: [{ op: "eq", field: "kind", value: "many" }] });
    expect(out).toMatchObject({ total: 2000, partial: true });
    expect(out.rows).toBe(picks.filter((id) => kind(id) === "many").length); // the sample's picks with kind "many"
  });

  it("estimates the total from the sample when no index counts it", () => {
    const out = run({ filters: [{ op: "in", field: "cat", values: ["a", "b", "c"] }] });
    // the sample's matching picks, and their share of the sample scaled to the table
    const hits = picks.filter((id) => cat(id) !== "d").length;
    expect(hits).toBeGreaterThanOrEqual(SMALL.minMatches);
    expect(out).toMatchObject({ total: Math.round((hits * BIG) / picks.length), rows: hits, partial: true });
  });

  it("reads the first matching rows when few sampled rows match", () => {
    const out = run({ filters: [{ op: "eq", field: "cat", value: "b" }] });
    // fewer picks are a "b" than the first 1000 rows hold (250), which are summarized; the
    // total is the sample's share scaled to the table (the first rows' when the sample has none)
    const bHits = picks.filter((id) => cat(id) === "b").length;
    expect(bHits).toBeLessThan(SMALL.minMatches);
    const total = Math.round(bHits ? (bHits * BIG) / picks.length : (250 * BIG) / SMALL.firstRows);
    expect(out).toMatchObject({ rows: 250, total, partial: true });
    // Every row read is a "b": so are all the rows it stands for.
    expect(field(out, "cat").top).toMatchObject([{ value: "b", count: total }]);
    expect(field(out, "n")).toMatchObject({ min: 2, max: 998 });
    // full text counts its 50 matches, too many for 10 exact rows; the sample holds fewer of
    // them than the first 1000 rows' 17
    expect(picks.filter(rare).length).toBeLessThan(17);
    const searched = run({ fts: [{ field: "tag", tree: parsePlain("rare"), rank: "rank tag" }] }, { ...SMALL, exactRows: 10 });
    expect(searched).toMatchObject({ rows: 17, total: 50, partial: true });
    expect(field(searched, "tag").top).toMatchObject([{ value: "rare", count: 50 }]);
  });

  it("answers exactly past the row budget when the table is no bigger than the sample", () => {
    const out = run({}, { ...SMALL, exactRows: 10, sampleRows: BIG });
    expect(out).toMatchObject({ total: BIG, rows: BIG, partial: false });
  });

  it("samples when reading every matching row runs past the time budget", () => {
    const out = run({ filters: [{ op: "lte", field: "n", value: 500 }] }, { ...SMALL, budgetMs: -1, minMatches: 10 });
    expect(out).toMatchObject({ rows: 50, total: 500, partial: true });
  });

  it("uses the default budgets: exact on a table of a few thousand rows", () => {
    expect(run({}, SUMMARY_LIMITS)).toMatchObject({ total: BIG, rows: BIG, partial: false });
  });

  it("answers 409 past the query timeout", async () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "5";
    let now = Date.now();
    const clock = vi.spyOn(Date, "now").mockImplementation(() => (now += 10));
    try {
      const r = (await engine.getResource("big"))!;
      const e = await engine.summary(r, base, { fields: ["n"], top: 10, bins: 10 }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DatastoreError);
      expect(Object.keys((e as DatastoreError).details)).toEqual(["query"]);
    } finally {
      clock.mockRestore();
      delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    }
  });
});
