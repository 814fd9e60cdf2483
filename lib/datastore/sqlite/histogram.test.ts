import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { DatastoreEngine, Field, HistogramOutput, Resource, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { bulkInsert } from "../../test/bulk-insert";
import { mustGet } from "./catalog";
import { openReader } from "./connection";
import { histogram } from "./histogram";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "histogram-")), "h.db");
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
  { id: "tags", type: "_int4" },
  { id: "meta", type: "json" },
  { id: "tm", type: "time" },
];

const ROWS = 60;
const day = (k: number) => new Date(Date.UTC(2019, 10, 20) + k * 11 * 86_400_000).toISOString().slice(0, 10);
const second = (k: number) => new Date(Date.UTC(2020, 0, 1) + k * 7919_000).toISOString().slice(0, 19);
/** The values of each field, as search answers them (null: empty). */
const COLUMNS: Record<string, (number | string | null)[]> = {
  i: Array.from({ length: ROWS }, (_, k) => (k % 7 === 0 ? null : k * 3 - 40)),
  s: Array.from({ length: ROWS }, (_, k) => k % 5),
  b: Array.from({ length: ROWS }, (_, k) => k * 1_000_003),
  f: Array.from({ length: ROWS }, (_, k) => (k % 9 === 0 ? null : (k - 20) / 8)),
  r: Array.from({ length: ROWS }, (_, k) => k / 10),
  n: Array.from({ length: ROWS }, (_, k) => ((k * 37) % 101) / 4),
  d: Array.from({ length: ROWS }, (_, k) => (k % 4 === 0 ? null : day(k))),
  ts: Array.from({ length: ROWS }, (_, k) => second(k)),
  _id: Array.from({ length: ROWS }, (_, k) => k + 1),
};
const RECORDS = Array.from({ length: ROWS }, (_, k) => ({
  ...Object.fromEntries(Object.entries(COLUMNS).filter(([id]) => id !== "_id").map(([id, values]) => [id, values[k]])),
  name: k % 2 ? "odd" : "even",
  word: k % 3 === 0 ? "apple" : "pear",
  flag: k % 2 === 0,
  tags: [k],
  meta: { k },
  tm: "10:00:00",
}));

/** What any histogram must be: at most `bins` contiguous bins from min to max, each counting
 *  the values between its edges (the last one closed), all non-empty values counted once. */
function expectConsistent(out: HistogramOutput, values: (number | string | null)[], bins: number): void {
  const present = values.filter((v) => v !== null);
  const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  expect(out.min).toEqual(sorted[0]);
  expect(out.max).toEqual(sorted.at(-1));
  expect(out.bins.length).toBeGreaterThan(0);
  expect(out.bins.length).toBeLessThanOrEqual(bins);
  expect(out.bins[0].from <= out.min!).toBe(true);
  expect(out.bins.at(-1)!.to >= out.max!).toBe(true);
  out.bins.forEach((b, i) => {
    if (i > 0) expect(b.from).toBe(out.bins[i - 1].to);
    const last = i === out.bins.length - 1;
    const inside = present.filter((v) => b.from <= v && (v < b.to || (last && v <= b.to)));
    expect(b.count, `bin ${JSON.stringify(b)}`).toBe(inside.length);
  });
  expect(out.bins.reduce((sum, b) => sum + b.count, 0)).toBe(present.length);
}

describe.each([
  { name: "in process", readWorkers: 0 },
  { name: "on read workers", readWorkers: 2 },
])("histogram $name", ({ readWorkers }) => {
  let engine: DatastoreEngine;
  let r: Resource;
  const run = (field: string, bins = 20, query: Partial<SearchQuery> = {}) => engine.histogram(r, field, { ...base, ...query }, bins);

  beforeAll(async () => {
    engine = await openEngine({ file: tempFile(), readWorkers });
    await engine.createResource({ id: "h", name: "h", description: "", private: false }, FIELDS);
    await engine.write("h", RECORDS, "insert");
    r = (await engine.getResource("h"))!;
  });
  afterAll(async () => {
    await engine.close();
  });

  it.each(Object.keys(COLUMNS))("bins %s exactly: round edges from min to max, every value counted once", async (field) => {
    for (const bins of [1, 2, 5, 20, 100]) {
      const out = await run(field, bins);
      expect(out.partial).toBe(false);
      expectConsistent(out, COLUMNS[field], bins);
    }
  });

  it("picks round edges: 1, 2 or 5 × 10^k for numbers, calendar units for dates and timestamps", async () => {
    const ints = await run("i", 20); // -37 … 137
    expect(ints.bins.slice(0, 2)).toEqual([
      { from: -40, to: -30, count: 3 },
      { from: -30, to: -20, count: 3 },
    ]);
    expect((await run("f", 10)).bins.map((b) => b.from)).toEqual([-3, -2, -1, 0, 1, 2, 3, 4]);
    expect((await run("s", 20)).bins).toEqual([0, 1, 2, 3, 4].map((v) => ({ from: v, to: v + 1, count: 12 })));
    expect((await run("d", 20)).bins.map((b) => b.from)).toEqual(["2019-10-01", "2020-01-01", "2020-04-01", "2020-07-01", "2020-10-01", "2021-01-01", "2021-04-01", "2021-07-01"]);
    expect((await run("ts", 20)).bins[0]).toMatchObject({ from: "2020-01-01T00:00:00", to: "2020-01-01T12:00:00" });
  });

  it("narrows to the search: filters and full text", async () => {
    const even = await run("i", 20, { filters: [{ op: "eq", field: "name", value: "even" }] });
    expectConsistent(even, COLUMNS.i.filter((_, k) => k % 2 === 0), 20);
    const apples = await run("ts", 20, { fts: [{ field: null, tree: parsePlain("apple"), rank: "rank" }] });
    expectConsistent(apples, COLUMNS.ts.filter((_, k) => k % 3 === 0), 20);
    const both = await run("n", 10, { filters: [{ op: "gte", field: "i", value: 50 }], fts: [{ field: "word", tree: parsePlain("pear"), rank: "rank word" }] });
    expectConsistent(both, COLUMNS.n.filter((_, k) => k % 3 !== 0 && COLUMNS.i[k] !== null && (COLUMNS.i[k] as number) >= 50), 10);
  });

  it("answers no bins when nothing matches, and one bin when min is max", async () => {
    const none = { min: null, max: null, bins: [], partial: false };
    expect(await run("i", 20, { filters: [{ op: "eq", field: "name", value: "nobody" }] })).toEqual(none);
    expect(await run("d", 20, { filters: [{ op: "eq", field: "_id", value: 1 }] })).toEqual(none); // its date is empty
    expect(await run("ts", 20, { filters: [{ op: "eq", field: "_id", value: 2 }] })).toEqual({
      min: COLUMNS.ts[1],
      max: COLUMNS.ts[1],
      bins: [{ from: COLUMNS.ts[1], to: COLUMNS.ts[1], count: 1 }],
      partial: false,
    });
    expect((await run("s", 20, { filters: [{ op: "in", field: "s", values: [3] }] })).bins).toEqual([{ from: 3, to: 3, count: 12 }]);
  });

  it("refuses other types with a 409 on `field`", async () => {
    for (const [field, type] of [["name", "text"], ["flag", "bool"], ["tags", "_int4"], ["meta", "json"], ["tm", "time"]]) {
      const e = await run(field).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DatastoreError);
      expect((e as DatastoreError).kind).toBe("validation");
      expect((e as DatastoreError).details).toEqual({ field: [`field "${field}" is ${type}: a histogram needs a number, date or timestamp field`] });
    }
  });
});

describe("histogram on a big table", () => {
  const BIG = 100_500;
  let file: string;
  let engine: DatastoreEngine;

  beforeAll(async () => {
    file = tempFile();
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "big", name: "big", description: "", private: false }, [{ id: "n", type: "int4" }]);
    await bulkInsert(engine, "big", Array.from({ length: BIG }, (_, k) => ({ n: k + 1 })));
    await engine.setIndexes("big", [["n"]]);
  });
  afterAll(async () => {
    await engine.close();
  });

  it("counts an unnarrowed table past 500,000 rows over 20,000 rows spread through it, and says so", () => {
    const c = openReader(file, config);
    try {
      const r = mustGet(c, "big");
      // The shortcut looks at the catalog's row count, so a pretended one shows it.
      const out = histogram(c, { ...r, rowCount: 600_000 }, "n", base, 10, 120);
      expect(out.partial).toBe(true);
      // Counts are the table's: each picked row stands for 30 (600,000 / 20,000).
      const picked = out.bins.map((b) => b.count / 30);
      // one pick in each stretch of BIG / 20,000 rows: the first and the last stretch included
      const stretch = BIG / 20_000;
      expect(out.min).toBeLessThanOrEqual(Math.ceil(stretch));
      expect(out.max).toBeGreaterThan(BIG - stretch - 1);
      expect(out.bins.map((b) => b.from)).toEqual([0, 20_000, 40_000, 60_000, 80_000, 100_000]);
      expect(picked.reduce((sum, n) => sum + n, 0)).toBe(20_000);
      expect(out.bins[0].estimate!.low).toBeLessThan(out.bins[0].count);
      // spread evenly: each 20,000-wide bin but the last holds about a fifth of the picks
      for (const n of picked.slice(0, 5)) expect(Math.abs(n - 20_000 / (BIG / 20_000))).toBeLessThanOrEqual(2);
      const narrowed = histogram(c, { ...r, rowCount: 600_000 }, "n", { ...base, filters: [{ op: "lte", field: "n", value: 10 }] }, 10, 120);
      expect(narrowed).toMatchObject({ min: 1, max: 10, partial: false });
      // Without a budget: exact, however big.
      expect(histogram(c, { ...r, rowCount: 600_000 }, "n", base, 10)).toMatchObject({ partial: false, min: 1, max: BIG });
    } finally {
      c.db.close();
    }
  });

  it("bins through an index of the field", async () => {
    const r = (await engine.getResource("big"))!;
    const out = await engine.histogram(r, "n", { ...base, filters: [{ op: "gt", field: "n", value: 100_000 }] }, 6);
    expect(out).toEqual({ min: 100_001, max: 100_500, partial: false, bins: [100_000, 100_100, 100_200, 100_300, 100_400, 100_500].map((from) => ({ from, to: from + 100, count: from === 100_000 ? 99 : from === 100_500 ? 1 : 100 })) });
  });
});
