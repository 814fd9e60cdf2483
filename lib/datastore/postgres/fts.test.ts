// Full text on PostgreSQL: q trees as tsquery text, each word a quoted lexeme, so nothing a
// client types reaches tsquery's syntax; and searches that find what CKAN's would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlain, parseTsQuery, type FtsNode } from "../full-text";
import { fieldVector, fullTextExpression, toTsquery, tsquery } from "./fts";
import { makeResource, testDb, type TestDb } from "./reads-test-support";
import { quoteIdent as q, type PgResource } from "./resource";

let db: TestDb;
let r: PgResource;

beforeAll(async () => {
  db = await testDb();
  r = await makeResource(
    db.pool,
    [
      { id: "name", type: "text" },
      { id: "n", type: "int4" },
      { id: "ok", type: "bool" },
      { id: "at", type: "timestamp" },
    ],
    [
      { name: "Running dogs", n: 13, ok: true, at: "2001-01-14T21:55:00" },
      { name: "A cat sat", n: 7, ok: false },
      { name: "o'brien's café", n: -4 },
      { name: "version 13.4 of covid-19" },
      { name: "wolves" },
    ],
  );
});
afterAll(async () => {
  await db?.close();
});

async function matches(tree: FtsNode | null, field?: string): Promise<string[]> {
  if (tree === null) return [];
  const vector = field ? fieldVector(r.columns.get(field)!) : "t._full_text";
  const { rows } = await db.pool.query<{ name: string }>(
    `SELECT t.c1 AS name FROM ${q(r.table)} AS t WHERE ${vector} @@ ${toTsquery("$1")} ORDER BY t._id`,
    [tsquery(tree)],
  );
  return rows.map((x) => x.name);
}

describe("tsquery text", () => {
  it("quotes every word and keeps the operators", () => {
    expect(tsquery(parseTsQuery("dog & !(cat | run:*)")!)).toBe("('dog') & (!(('cat') | ('run':*)))");
    expect(tsquery({ op: "term", word: "o'b\\x", prefix: false })).toBe("'o''b\\\\x'");
  });

  it("no character of a word reaches tsquery syntax", async () => {
    const specials = `!&|():*'"\\<->{}[]@#$%^+=~\`;,./?  \t\n`;
    for (const ch of specials) {
      const tree: FtsNode = { op: "and", children: [{ op: "term", word: `a${ch}b`, prefix: false }, { op: "term", word: `${ch}${ch}`, prefix: true }] };
      await expect(db.pool.query(`SELECT ${toTsquery("$1")}`, [tsquery(tree)]), JSON.stringify(ch)).resolves.toBeTruthy();
    }
    for (const text of ["a:* & b", "'x' | !y", "dog)&(cat", "o'neil's \\ 'quoted'"]) {
      await expect(db.pool.query(`SELECT ${toTsquery("$1")}`, [tsquery(parsePlain(text)!)])).resolves.toBeTruthy();
    }
  });
});

describe("matching", () => {
  it("stems english words, as CKAN's english configuration", async () => {
    expect(await matches(parsePlain("run"))).toEqual(["Running dogs"]);
    expect(await matches(parsePlain("dog"))).toEqual(["Running dogs"]);
    expect(await matches(parsePlain("wolves"))).toEqual(["wolves"]);
    expect(await matches(parsePlain("sitting cats"))).toEqual([]);
    expect(await matches(parsePlain("cats"))).toEqual(["A cat sat"]);
  });
  it("searches every field's text: numbers, booleans, timestamps", async () => {
    expect(await matches(parsePlain("13"))).toEqual(["Running dogs"]);
    expect(await matches(parsePlain("true"))).toEqual(["Running dogs"]);
    // PostgreSQL's parser reads 2001-01-14 as 2001, -01, -14 (CKAN's behaviour; SQLite's FTS
    // index splits at the hyphens instead: full-text.ts).
    expect(await matches(parsePlain("2001"))).toEqual(["Running dogs"]);
    expect(await matches(parsePlain("13.4"))).toEqual(["version 13.4 of covid-19"]);
    expect(await matches(parsePlain("-4"))).toEqual(["o'brien's café"]);
  });
  it("prefixes, negation and or", async () => {
    expect(await matches(parseTsQuery("ca:*"))).toEqual(["A cat sat", "o'brien's café"]);
    expect(await matches(parseTsQuery("!dog & !cat & !wolves"))).toEqual(["o'brien's café", "version 13.4 of covid-19"]);
    expect(await matches(parseTsQuery("dog | wolves"))).toEqual(["Running dogs", "wolves"]);
  });
  it("a word with an apostrophe or accent matches its row", async () => {
    expect(await matches(parsePlain("o'brien's"))).toEqual(["o'brien's café"]);
    expect(await matches(parsePlain("café"))).toEqual(["o'brien's café"]);
  });
  it("a field's own text only", async () => {
    expect(await matches(parsePlain("13"), "name")).toEqual([]);
    expect(await matches(parsePlain("13"), "n")).toEqual(["Running dogs"]);
  });
  it("rows of more than 100 fields (a function's most arguments) are joined in groups", async () => {
    const wide = Array.from({ length: 1000 }, (_, i) => ({ id: `f${i}`, type: "text" as const }));
    const w = await makeResource(db.pool, wide, [Object.fromEntries(wide.map((f, i) => [f.id, i === 999 ? "needle" : i % 2 ? null : "hay"]))]);
    const { rows } = await db.pool.query(`SELECT 1 FROM ${q(w.table)} AS t WHERE t._full_text @@ ${toTsquery("$1")}`, ["'needle'"]);
    expect(rows).toHaveLength(1);
  });
  it("the row's vector is its fields' text, NULLs skipped", () => {
    expect(fullTextExpression([...r.columns.values()].slice(0, 2), "NEW")).toBe(`to_tsvector('english', concat_ws(' ', NEW."c1"::text, NEW."c2"::text))`);
  });
});
