// Unit tests for the FTS5 compiler: every tsquery tree the parser accepts compiles to an
// FTS5 expression (negations included), with words always quoted.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTsQuery, type FtsNode } from "../full-text";
import { compileFts, quoteIdent } from "./sql";

const term = (word: string, prefix = false): FtsNode => ({ op: "term", word, prefix });

describe("quoteIdent", () => {
  it("double-quotes and doubles inner quotes", () => {
    expect(quoteIdent("c1")).toBe('"c1"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
  });
});

describe("compileFts", () => {
  it("quotes words and marks prefixes", () => {
    expect(compileFts(term("tolstoy"))).toEqual({ expr: '"tolstoy"', negated: false });
    expect(compileFts(term("tols", true))).toEqual({ expr: '"tols" *', negated: false });
    expect(compileFts(term('a"b'))).toEqual({ expr: '"a""b"', negated: false });
  });

  it("spells a number as the index does: one term, its dot and sign private-use", () => {
    expect(compileFts(term("13.4"))).toEqual({ expr: '"13\uE0004"', negated: false });
    expect(compileFts(term("-4", true))).toEqual({ expr: '"\uE0014" *', negated: false });
    expect(compileFts(term("1.5e-3"))).toEqual({ expr: '"1\uE0005e\uE0013"', negated: false });
  });

  it("joins AND and OR", () => {
    expect(compileFts({ op: "and", children: [term("a"), term("b")] })).toEqual({ expr: '("a") AND ("b")', negated: false });
    expect(compileFts({ op: "or", children: [term("a"), term("b")] })).toEqual({ expr: '("a") OR ("b")', negated: false });
  });

  it("turns a top-level negation into a negated expression", () => {
    expect(compileFts({ op: "not", child: term("a") })).toEqual({ expr: '"a"', negated: true });
    expect(compileFts({ op: "not", child: { op: "not", child: term("a") } })).toEqual({ expr: '"a"', negated: false });
  });

  it("uses FTS5's binary NOT for negations under AND", () => {
    expect(compileFts({ op: "and", children: [term("a"), { op: "not", child: term("b") }] })).toEqual({
      expr: '(("a")) NOT (("b"))',
      negated: false,
    });
    // all negative: !a & !b = !(a | b)
    expect(compileFts({ op: "and", children: [{ op: "not", child: term("a") }, { op: "not", child: term("b") }] })).toEqual({
      expr: '("a") OR ("b")',
      negated: true,
    });
  });

  it("negates an OR of negations: !a | !b = !(a & b)", () => {
    expect(compileFts({ op: "or", children: [{ op: "not", child: term("a") }, { op: "not", child: term("b") }] })).toEqual({
      expr: '("a") AND ("b")',
      negated: true,
    });
  });

  it("compiles a negation mixed into an OR: a | !b = !(b NOT a)", () => {
    const out = compileFts({ op: "or", children: [term("a"), { op: "not", child: term("b") }] });
    expect(out.negated).toBe(true);
    expect(out.expr).toBe('(("b")) NOT (("a"))');
  });
});

// Runs compiled queries against a real FTS5 table: the rows each tsquery should select.
describe("compileFts against FTS5", () => {
  let db: Database.Database;
  const docs = ["war peace", "war", "peace", "tolstoy", "war tolstoy"];

  beforeAll(() => {
    db = new Database(":memory:");
    db.exec("CREATE VIRTUAL TABLE f USING fts5(c1, tokenize='porter unicode61 remove_diacritics 2')");
    const ins = db.prepare("INSERT INTO f (rowid, c1) VALUES (?, ?)");
    docs.forEach((d, i) => ins.run(i + 1, d));
  });
  afterAll(() => db.close());

  function run(q: string): number[] {
    const { expr, negated } = compileFts(parseTsQuery(q)!);
    const sql = negated
      ? "SELECT rowid FROM f WHERE rowid NOT IN (SELECT rowid FROM f WHERE f MATCH ?) ORDER BY rowid"
      : "SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid";
    return db.prepare(sql).pluck().all(expr) as number[];
  }

  it.each<[string, number[]]>([
    ["war", [1, 2, 5]],
    ["war & peace", [1]],
    ["war | tolstoy", [1, 2, 4, 5]],
    ["war & !peace", [2, 5]],
    ["!war", [3, 4]],
    ["!war & !tolstoy", [3]],
    ["!war | !peace", [2, 3, 4, 5]],
    ["peace | !war", [1, 3, 4]],
    ["(war | peace) & !tolstoy", [1, 2, 3]],
    ["tol:*", [4, 5]],
    ["!(war & peace)", [2, 3, 4, 5]],
    ["tolstoy | (peace & !war)", [3, 4, 5]],
  ])("%j selects rows %j", (q, rows) => {
    expect(run(q)).toEqual(rows);
  });
});
