// Numbers as full-text tokens: the rewrite itself, the view's SQL against it, and searches on
// a real FTS5 index built as the engine builds one (external-content view, detail=column).
import Database from "better-sqlite3";
import fc from "fast-check";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStopWord, parsePlain, parseTsQuery, words, type FtsNode } from "../full-text";
import { sqliteType, type TypeName } from "../types";
import { FTS_TOKENIZER, ftsColumnExpr, ftsText, registerFtsFunctions } from "./fts-text";
import { compileFts } from "./sql";

/** Text from characters and fragments that make or break numbers and date-times. */
const texty = fc
  .array(
    fc.oneof(
      fc.constantFrom(..."0123456789..--++eEaxz é,:/()T".split("")),
      fc.constantFrom("e\u0301", "2001-01-14T21:55:00", "13.4", "-4", "1e-5", "1.2.3", "the", "T21", "06-07T08:09"),
    ),
    { maxLength: 12 },
  )
  .map((a) => a.join(""));

/** Private-use joiners shown as the characters they stand for, to read assertions. */
const readable = (s: unknown) => String(s).replace(/\uE000/g, "·").replace(/\uE001/g, "⁻");

describe("ftsText", () => {
  it.each([
    ["13.4", "13·4"],
    ["-4 and +4", "⁻4 and +4"], // a plus is punctuation
    ["1.5e-3 1E-5 -2.5E3 1.5e+3", "1·5e⁻3 1E⁻5 ⁻2·5E3 1·5 e+3"],
    ["1e5", "1e5"], // unicode61 keeps it whole already
    ["1.2.3, 192.168.0.1", "1·2·3, 192·168·0·1"],
    ["(-4) x=-4 --4", "(⁻4) x=⁻4 -⁻4"],
    ["13.4kg 1.5e-3x", "13·4 kg 1·5e⁻3 x"],
    ["The end. 4.", "The end. 4."],
    // a hyphen after a letter or digit joins words, not a sign
    ["covid-19 3-4 é-4 2001-01-14", "covid-19 3-4 é-4 2001-01-14"],
    ["2001-01-14T21:55:00.5 T21:55", "2001-01-14 21:55:00·5 T21:55"],
    ["v2.0 abc1.5", "v2.0 abc1.5"],
    [".5 -.5 1. 1..2", ".5 -.5 1. 1..2"],
    ["1,000.50", "1,000·50"],
  ])("%j reads %j", (text, want) => {
    expect(readable(ftsText(text))).toBe(want);
  });
});

describe("ftsColumnExpr", () => {
  let db: Database.Database;
  beforeAll(() => {
    db = new Database(":memory:");
    registerFtsFunctions(db);
  });
  afterAll(() => db.close());

  const statements = new Map<TypeName, Database.Statement>();
  /** The view's value for v stored in a column of the type's storage class. */
  function view(type: TypeName, v: unknown): string | number | null {
    let st = statements.get(type);
    if (!st) statements.set(type, (st = db.prepare(`SELECT ${ftsColumnExpr("x", type)} FROM (SELECT CAST(? AS ${sqliteType(type)}) AS x)`).pluck()));
    return st.get(v) as string | number | null;
  }

  it("reads numbers as their records show them, joined", () => {
    expect(readable(view("float8", 13.4))).toBe("13·4");
    expect(readable(view("float8", -0.0015))).toBe("⁻0·0015");
    expect(view("float8", 4)).toBe("4"); // stored 4.0
    expect(readable(view("float8", 1.5e-7))).toBe("1·5e⁻07");
    expect(view("float8", 1e20)).toBe("100000000000000000000"); // JS prints it, as records do
    expect(readable(view("numeric", -13.4))).toBe("⁻13·4");
    expect(readable(view("int8", -4))).toBe("⁻4");
    expect(view("int8", 4)).toBe(4);
    expect(view("int4", null)).toBeNull();
    expect(view("float8", null)).toBeNull();
    expect(view("bool", 1)).toBe("true");
    expect(view("timestamp", "2001-01-14T21:55:00")).toBe("2001-01-14 21:55:00");
  });

  it("reads a float as JavaScript prints it, for up to 12 digits above 1e-4", () => {
    const ordinary = fc.tuple(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), fc.integer({ min: 0, max: 4 })).map(([m, k]) => m / 10 ** k);
    fc.assert(
      fc.property(ordinary, (x) => {
        expect(view("float8", x)).toBe(ftsText(String(x)));
      }),
    );
  });

  it("gives what ftsText gives, for any number (SQL alone below 1e15)", () => {
    const edges = [999999999999999.9, -999999999999999.9, 999999999999998.9, 1e15, -1e15, 5e-324, -0];
    const floats = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer().map((n) => n / 1000), fc.constantFrom(...edges));
    fc.assert(
      fc.property(floats, (x) => {
        const fast = Math.abs(x) < 999999999999999;
        const text = fast ? (db.prepare("SELECT printf('%.15g', ?)").pluck().get(x) as string) : String(x);
        expect(view("float8", x)).toBe(ftsText(text));
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        expect(String(db.prepare(`SELECT ${ftsColumnExpr("@n", "int8")}`).safeIntegers().pluck().get({ n }))).toBe(ftsText(String(n)));
      }),
    );
  });

  it("calls ds_fts_text for text only where it changes something (the GLOB guard is a superset)", () => {
    fc.assert(
      fc.property(texty, (s) => {
        expect(view("text", s)).toBe(ftsText(s));
      }),
      { numRuns: 5000 },
    );
  });

  it("gives what ftsText gives for dates and date-times (SQL alone)", () => {
    const when = fc.date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19));
    fc.assert(
      fc.property(when, (s) => {
        expect(view("timestamp", s)).toBe(ftsText(s));
        expect(view("date", s.slice(0, 10))).toBe(ftsText(s.slice(0, 10)));
      }),
    );
  });
});

// The index as the engine builds it: a table, a view of it through ftsColumnExpr, and an
// external-content FTS5 table over the view, filled with INSERT … SELECT as bulk loads do.
describe("search on an FTS5 index", () => {
  let dir: string;
  let db: Database.Database;
  const rows: [string | null, number | null, number | null, number | null][] = [
    /* 1 */ ["13.4", null, null, null],
    /* 2 */ ["13.45 and 13.5", null, null, null],
    /* 3 */ ["-4 degrees", null, null, null],
    /* 4 */ ["4 cats running", null, null, null],
    /* 5 */ ["1e5 or 1.5e-3 or 1.5E+3", null, null, null],
    /* 6 */ ["The end. Fin", null, null, null],
    /* 7 */ [null, 13.4, -4, 1],
    /* 8 */ [null, 4, 100000, 0],
    /* 9 */ ["-4.5 and -45, +4", -0.0015, null, null],
    /* 10 */ ["state-of-the-art 2001-01-14T21:55:00 covid-19", null, null, null],
  ];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fts-text-"));
    db = new Database(path.join(dir, "fts.db"));
    registerFtsFunctions(db);
    const types: TypeName[] = ["text", "float8", "int8", "bool"];
    db.exec("CREATE TABLE t (_id INTEGER PRIMARY KEY, c1 TEXT, c2 REAL, c3 INTEGER, c4 INTEGER)");
    db.exec(`CREATE VIEW t_text AS SELECT _id, ${types.map((ty, i) => `${ftsColumnExpr(`c${i + 1}`, ty)} AS c${i + 1}`).join(", ")} FROM t`);
    db.exec(`CREATE VIRTUAL TABLE t_fts USING fts5(c1, c2, c3, c4, content='t_text', content_rowid='_id', detail=column, tokenize='${FTS_TOKENIZER}')`);
    const insert = db.prepare("INSERT INTO t (_id, c1, c2, c3, c4) VALUES (?, ?, ?, ?, ?)");
    rows.forEach((r, i) => insert.run(i + 1, ...r));
    db.exec("INSERT INTO t_fts (rowid, c1, c2, c3, c4) SELECT _id, c1, c2, c3, c4 FROM t_text");
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function search(tree: FtsNode | null): number[] {
    const { expr, negated } = compileFts(tree!);
    expect(negated).toBe(false);
    return db.prepare("SELECT rowid FROM t_fts WHERE t_fts MATCH ? ORDER BY rowid").pluck().all(expr) as number[];
  }

  it.each<[string, number[]]>([
    ["4", [4, 8, 9]], // not 13.4, -4 or -4.5; 8 is the float 4.0; 9 has +4 (a plus is punctuation)
    ["13.4", [1, 7]],
    ["13", []],
    ["-4", [3, 7]], // not -4.5 or -45
    ["-4.5", [9]],
    ["1e5", [5]],
    ["100000", [8]],
    ["1.5e-3", [5]],
    ["1.5E+3", [5]],
    ["1.5", [5]], // in 1.5E+3, as 1.5 and 3
    ["-0.0015", [9]],
    ["end.", [6]],
    ["the END", [6]],
    ["run cat", [4]],
    ["true", [7]],
    ["art", [10]],
    ["state-of-the-art", [10]],
    ["2001-01-14", [10]], // the day of a date-time, as in PostgreSQL
    ["21:55", [10]],
    ["01", [10]], // PostgreSQL would not find it (its lexeme is -01)
    ["19", [10]],
  ])("q %j finds rows %j", (q, want) => {
    expect(search(parsePlain(q))).toEqual(want);
  });

  it.each<[string, number[]]>([
    ["13:*", [1, 2, 7]],
    ["13.4:*", [1, 2, 7]],
    ["13.5:*", [2]],
    ["-4:*", [3, 7, 9]],
    ["-4 | 4", [3, 4, 7, 8, 9]],
    ["1.5e-3 & !1e5", []],
  ])("tsquery %j finds rows %j", (q, want) => {
    expect(search(parseTsQuery(q))).toEqual(want);
  });

  it("unindexes a row through the view, and the index matches the view", () => {
    db.prepare("DELETE FROM t_fts WHERE rowid = ?").run(1);
    expect(search(parsePlain("13.4"))).toEqual([7]);
    db.prepare("INSERT INTO t_fts (rowid, c1, c2, c3, c4) SELECT _id, c1, c2, c3, c4 FROM t_text WHERE _id = ?").run(1);
    expect(() => db.exec("INSERT INTO t_fts (t_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
  });

  it("finds every word of a text in it (the query splits as the index does)", () => {
    const insert = db.prepare("INSERT INTO t (_id, c1) VALUES (?, ?)");
    const index = db.prepare("INSERT INTO t_fts (rowid, c1, c2, c3, c4) SELECT _id, c1, c2, c3, c4 FROM t_text WHERE _id = ?");
    // rowid bound as an integer: FTS5 ignores a REAL rowid beside MATCH (and better-sqlite3
    // binds JS numbers as REAL), which returns every match.
    const find = db.prepare("SELECT count(*) FROM t_fts WHERE t_fts MATCH ? AND rowid = ?").pluck();
    let id = 1000;
    fc.assert(
      fc.property(texty, (text) => {
        const rowid = ++id;
        insert.run(rowid, text);
        index.run(rowid);
        for (const w of words(text).filter((x) => !isStopWord(x))) {
          expect(find.get(compileFts({ op: "term", word: w, prefix: false }).expr, BigInt(rowid)), `${w} in ${text}`).toBe(1);
          expect(find.get(compileFts({ op: "term", word: w, prefix: true }).expr, BigInt(rowid)), `${w}:* in ${text}`).toBe(1);
        }
      }),
      { numRuns: 500 },
    );
  });
});
