// Full text as_of on SQLite: a row's past text, which only the temp index of images holds, ranks
// exactly as FTS5 ranks the same text in today's index (fts-bm25.ts's formula against FTS5's own
// bm25), for whole-row and per-field ranks, prefixes, OR, NOT and column filters.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatastoreEngine, FtsCondition, SearchQuery } from "../engine";
import { parseTsQuery } from "../full-text";
import { openEngine } from "../open";
import { parseMatch } from "./fts-bm25";

let engine: DatastoreEngine;
let before: number;
const OLD = { t: "river river bank of the river", u: "bank holiday banking", n: 7 };

beforeAll(async () => {
  engine = await openEngine({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "past-fts-")), "e.db"), readWorkers: 0 });
  await engine.createResource({ id: "p", name: "p", description: "", private: false }, [
    { id: "t", type: "text" },
    { id: "u", type: "text" },
    { id: "n", type: "int4" },
  ]);
  const filler = ["the bank of england", "a quiet river", "holiday on the river bank", "nothing to see", "banks and banking", "river", "rivers of babylon"];
  await engine.write("p", [OLD, ...filler.map((t, i) => ({ t, u: i % 2 ? "bank" : "shore", n: i % 3 ? 7 : 70 }))], "insert");
  before = (await engine.historyState((await engine.getResource("p"))!)).version;
  // Row 1 takes other words; row 9 takes row 1's old ones: today's index ranks row 9 as row 1 ranked then.
  await engine.write("p", [{ _id: 1, t: "dry land", u: "nothing", n: 8 }], "update");
  await engine.write("p", [OLD], "insert");
});

afterAll(async () => {
  await engine.close();
});

const query = (conds: FtsCondition[], id: number, asOf?: number): SearchQuery => ({
  filters: [{ op: "eq", field: "_id", value: id }],
  fts: conds,
  columns: ["_id", ...new Set(conds.map((c) => c.rank))],
  sort: [{ field: conds[0].rank, desc: true, nullsFirst: false }],
  distinct: false,
  limit: 10,
  offset: 0,
  includeTotal: true,
  ...(asOf === undefined ? {} : { asOf }),
});

const cond = (q: string, field: string | null = null): FtsCondition => ({ field, tree: parseTsQuery(q), rank: field ? `rank ${field}` : "rank" });

describe("a past row's rank", () => {
  it.each<[string, FtsCondition[]]>([
    ["a word", [cond("river")]],
    ["a number", [cond("7")]],
    ["two words", [cond("river & bank")]],
    ["a prefix", [cond("bank:*")]],
    ["or, with one side absent", [cond("river | babylon")]],
    ["and-not", [cond("river & !babylon")]],
    ["an and that fails inside an or", [cond("(river & babylon) | holiday")]],
    ["per field", [cond("bank", "u")]],
    ["the whole row and a field", [cond("river"), cond("holiday", "u")]],
  ])("%s: as today's index ranks the same text", async (_name, conds) => {
    const past = await engine.search((await engine.getResource("p"))!, query(conds, 1, before));
    const today = await engine.search((await engine.getResource("p"))!, query(conds, 9));
    expect(past.total).toBe(1);
    expect(today.total).toBe(1);
    const ranks = (out: { rows: unknown[][] }) => out.rows[0].slice(1) as number[];
    expect(ranks(past)[0]).toBeGreaterThan(0);
    ranks(past).forEach((rank, i) => expect(rank).toBeCloseTo(ranks(today)[i], 14));
  });

  it("is not found by the words it took since", async () => {
    const past = await engine.search((await engine.getResource("p"))!, query([cond("dry")], 1, before));
    expect(past.total).toBe(0);
  });
});

describe("parseMatch", () => {
  it("lists phrases in the order written, with their column filter, NOT tighter than AND, AND than OR", () => {
    const { tree, phrases } = parseMatch('("a") OR ("b" AND "c" *) NOT ("d") AND "c2" : ("e""x")');
    expect(phrases.map((p) => [p.text, p.column])).toEqual([
      ['"a"', null],
      ['"b"', null],
      ['"c" *', null],
      ['"d"', null],
      ['"e""x"', "c2"],
    ]);
    expect(tree).toMatchObject({ op: "or", children: [{ op: "phrase" }, { op: "and", children: [{ op: "not" }, { op: "phrase", column: "c2" }] }] });
  });
});
