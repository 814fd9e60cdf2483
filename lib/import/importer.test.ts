import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatastoreEngine, SearchQuery } from "../datastore/engine";
import { DatastoreError } from "../datastore/errors";
import { parsePlain } from "../datastore/full-text";
import { openEngine } from "../datastore/open";
import { checksumFile } from "../datastore/sqlite/test-support";
import { schemaChecksum, withClient } from "../test/pg-support";
import { ImportInterrupted, importFile, type ImportOptions, type ImportResult } from "./importer";
import { ImportError } from "./source";

let dir: string;
let engine: DatastoreEngine;
/** Every table, row and catalog entry: what "the database as it was" means. */
let snapshot: () => Promise<string>;
const schemas: string[] = [];

/** A new, empty store: a SQLite file in `dir`, or on PostgreSQL (vitest's postgres project) a
 *  schema of its own, dropped after the test. */
async function newStore(dir: string): Promise<{ engine: DatastoreEngine; snapshot: () => Promise<string> }> {
  const url = process.env.DATASTORE_DATABASE_URL?.trim();
  if (url) {
    const schema = `t_import_${randomBytes(6).toString("hex")}`;
    schemas.push(schema);
    return { engine: await openEngine({ databaseUrl: url, schema }), snapshot: () => schemaChecksum(url, schema) };
  }
  const file = path.join(dir, "test.db");
  return { engine: await openEngine({ file, readWorkers: 0 }), snapshot: async () => checksumFile(file) };
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-"));
  ({ engine, snapshot } = await newStore(dir));
});

afterEach(async () => {
  await engine.close();
  const url = process.env.DATASTORE_DATABASE_URL;
  if (url) for (const s of schemas.splice(0)) await withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`));
});

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function load(file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  return importFile(engine, file, { name: "t", ...opts });
}

async function failure(file: string, opts: ImportOptions = {}): Promise<string> {
  const before = await snapshot();
  try {
    await load(file, opts);
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    expect(await snapshot()).toEqual(before); // nothing loaded, nothing left behind
    return e.message;
  }
  throw new Error("expected the import to fail");
}

async function rows(id: string, extra: Partial<SearchQuery> = {}): Promise<unknown[][]> {
  const r = (await engine.getResource(id))!;
  const columns = ["_id", ...r.fields.map((f) => f.id)];
  const out = await engine.search(r, {
    filters: [],
    fts: [],
    columns,
    sort: [{ field: "_id", desc: false, nullsFirst: false }],
    distinct: false,
    limit: 1000,
    offset: 0,
    includeTotal: true,
    ...extra,
  });
  return out.rows.map((row) => row.slice(1));
}

function types(r: ImportResult): Record<string, string> {
  return Object.fromEntries(r.fields.map((f) => [f.id, f.type]));
}

describe("CSV and TSV", () => {
  it("infers types from the rows, loads NULL for empty cells, and indexes every column", async () => {
    const file = write(
      "books.csv",
      "title,year,price,in_stock,published,updated,isbn,notes\n" +
        "War and Peace,1869,9.99,true,1869-01-01,2020-01-03 10:00:00,0140447938,\n" +
        "Anna Karenina,1877,12,false,1877-06-01,2020-01-04T11:30:00,0143035002,classic\n" +
        "Untitled,,,,,,,\n",
    );
    const r = await load(file);
    expect(r.rows).toBe(3);
    expect(r.created).toBe(true);
    expect(types(r)).toEqual({
      title: "text",
      year: "int4",
      price: "numeric",
      in_stock: "bool",
      published: "date",
      updated: "timestamp",
      isbn: "text", // a leading zero: an identifier, not a number
      notes: "text",
    });
    expect(await rows(r.resourceId)).toEqual([
      ["War and Peace", 1869, 9.99, true, "1869-01-01", "2020-01-03T10:00:00", "0140447938", null],
      ["Anna Karenina", 1877, 12, false, "1877-06-01", "2020-01-04T11:30:00", "0143035002", "classic"],
      ["Untitled", null, null, null, null, null, null, null],
    ]);
    const res = (await engine.getResource(r.resourceId))!;
    expect(res).toMatchObject({ name: "t", rowCount: 3, private: false });
    const hit = await engine.search(res, {
      filters: [],
      fts: [{ field: null, tree: parsePlain("karenina classic"), rank: "rank" }],
      columns: ["title"],
      sort: [],
      distinct: false,
      limit: 10,
      offset: 0,
      includeTotal: true,
    });
    expect(hit.rows).toEqual([["Anna Karenina"]]);
  });

  it.each([
    ["semicolons", "a;b;c\n1;x,y;3\n", {}],
    ["pipes", "a|b|c\n1|x,y|3\n", {}],
    ["tabs in a .tsv", "a\tb\tc\n1\tx,y\t3\n", {}],
    ["a delimiter given", "a:b:c\n1:x,y:3\n", { delimiter: ":" }],
  ])("reads %s", async (_, text, opts) => {
    const r = await load(write(_ === "tabs in a .tsv" ? "d.tsv" : "d.csv", text), opts);
    expect(r.fields.map((f) => f.id)).toEqual(["a", "b", "c"]);
    expect(await rows(r.resourceId)).toEqual([[1, "x,y", 3]]);
  });

  it("keeps quoted newlines, doubled quotes and delimiters inside fields; counts lines past them", async () => {
    const text = 'id,text\n1,"two\nlines"\n2,"say ""hi"", ok"\n3,"a\r\nb"\n4\n';
    const message = await failure(write("q.csv", text));
    expect(message).toBe("line 7: expected 2 fields, found 1");
    const r = await load(write("q2.csv", text.replace("4\n", "4,end\n")));
    expect(await rows(r.resourceId)).toEqual([
      [1, "two\nlines"],
      [2, 'say "hi", ok'],
      [3, "a\r\nb"],
      [4, "end"],
    ]);
  });

  it("reports a ragged row by its line and loads nothing", async () => {
    await load(write("first.csv", "x\n1\n"), { name: "already there" });
    const lines = ["a,b,c", ...Array.from({ length: 20_000 }, (_, i) => `${i},${i},${i}`)];
    lines[15_000] = "1,2";
    expect(await failure(write("ragged.csv", lines.join("\n") + "\n"))).toBe("line 15001: expected 3 fields, found 2");
    expect((await engine.listResources()).map((r) => r.name)).toEqual(["already there"]);
  });

  it("tolerates blank lines and a trailing delimiter; names an unclosed quote's line", async () => {
    const r = await load(write("t.csv", "a,b,\n1,2,\n\n3,4\n"));
    expect(await rows(r.resourceId)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(await failure(write("u.csv", 'a,b\n1,"open\n2,3\n'))).toMatch(/^CSV: Quote Not Closed.*line/);
  });

  it("reads a file whose header ends in \\r\\n and rows in \\n (CKAN's dumps)", async () => {
    const r = await load(write("mixed.csv", 'a,b\r\n1,x\n2,"y\nz"\n3,w\r\n'));
    expect(await rows(r.resourceId)).toEqual([
      [1, "x"],
      [2, "y\nz"],
      [3, "w"],
    ]);
  });

  it("leaves out an _id column, with a word", async () => {
    const notices: string[] = [];
    const r = await load(write("ids.csv", "_id,a\n7,x\n9,y\n"), { onNotice: (m) => notices.push(m) });
    expect(r.fields.map((f) => f.id)).toEqual(["a"]);
    expect(notices).toEqual(['column "_id" is not loaded: the datastore numbers the rows itself']);
    const json = await load(write("ids.json", '[{"_id": 7, "a": "x"}]'));
    expect(json.fields.map((f) => f.id)).toEqual(["a"]);
  });

  it("skips a UTF-8 byte-order mark", async () => {
    const r = await load(write("bom.csv", "\uFEFFname,n\nbük,1\n"));
    expect(r.fields.map((f) => f.id)).toEqual(["name", "n"]);
    expect(r.notes).toContain("BOM");
    expect(await rows(r.resourceId)).toEqual([["bük", 1]]);
  });

  it("reads Latin-1 (Windows-1252), detected from the bytes", async () => {
    const r = await load(write("latin1.csv", Buffer.from(Buffer.from("ville,prix\nMontréal,5\nSão Paulo,¬3\n", "latin1").map((b) => (b === 0xac ? 0x80 : b)))));
    expect(r.notes[0]).toBe("Latin-1");
    expect(await rows(r.resourceId)).toEqual([
      ["Montréal", "5"],
      ["São Paulo", "€3"],
    ]);
  });

  it("starts over as Latin-1 when invalid UTF-8 appears past the sniffed start", async () => {
    const head = "word,n\n" + "plain,1\n".repeat(200_000); // well past the 1 MiB sniff
    const notices: string[] = [];
    const r = await load(write("late.csv", Buffer.concat([Buffer.from(head), Buffer.from("caf\xe9,2\n", "latin1")])), {
      onNotice: (m) => notices.push(m),
    });
    expect(r.rows).toBe(200_001);
    expect(r.restarts).toBe(1);
    expect(notices[0]).toMatch(/Latin-1/);
    expect((await rows(r.resourceId, { offset: 200_000 }))[0]).toEqual(["café", 2]);
  });
});

describe("audit trail", () => {
  it("records an import with its author and rows, in the import's transaction (a failed one records nothing: failure())", async () => {
    const csv = write("a.csv", "a,b\n1,x\n2,y\n");
    const author = { tokenId: "t1", tokenName: "etl" };
    const r = await load(csv, { author });
    await load(csv, { resourceId: r.resourceId, append: true });
    const entries = await engine.audit.list({ resourceId: r.resourceId, limit: 10, offset: 0 });
    expect(entries.map((e) => [e.action, e.tokenName, e.rows, e.detail?.mode])).toEqual([
      ["import", null, 2, "append"],
      ["import", "etl", 2, "new"],
      ["datastore_create", "etl", 0, undefined],
    ]);
  });
});

describe("type inference", () => {
  it("decides from a sample of rows, not just the first", async () => {
    const r = await load(
      write(
        "t.csv",
        "a,b,c,d,e,f,g,h,i\n" +
          "1,1,2020-01-01,yes,1,,007,1e3,2021-02-28\n" +
          "2,1.5,2020-01-02 10:00,no,3000000000,,7,2,2021-02-30\n" +
          "-3,2,2020-01-03,Y, 4 ,,,x,\n",
      ),
    );
    expect(types(r)).toEqual({
      a: "int4",
      b: "numeric", // ints and a decimal
      c: "timestamp", // dates and a timestamp
      d: "bool",
      e: "int8", // beyond int4
      f: "text", // no value at all
      g: "text", // leading zeros
      h: "text", // a word among numbers
      i: "text", // 30 February is not a date
    });
    expect((await rows(r.resourceId))[1]).toEqual([2, 1.5, "2020-01-02T10:00:00", false, 3000000000, null, "7", "2", "2021-02-30"]);
  });

  it("widens a column when a value after the sample does not fit, and starts over", async () => {
    const lines = ["n,d,x", ...Array.from({ length: 300 }, (_, i) => `${i},2020-01-01,${i}`)];
    lines[250] = "249,2020-01-01 12:30,abc";
    const notices: string[] = [];
    const r = await load(write("w.csv", lines.join("\n")), { sampleRows: 100, batchRows: 50, onNotice: (m) => notices.push(m) });
    expect(types(r)).toEqual({ n: "int4", d: "timestamp", x: "text" });
    expect(r.restarts).toBe(2);
    expect(notices).toEqual([
      'line 251: "2020-01-01 12:30" does not fit column "d" (date); making it timestamp; starting over',
      'line 251: "abc" does not fit column "x" (int4); making it text; starting over',
    ]);
    expect((await rows(r.resourceId))[249]).toEqual([249, "2020-01-01T12:30:00", "abc"]);
  });

  it("takes declared types over inferred ones, and names the line of a value that does not fit", async () => {
    const r = await load(write("t.csv", "zip,n\n01234,1\n98765,2\n"), { types: { n: "text", zip: "int" } });
    expect(types(r)).toEqual({ zip: "int4", n: "text" });
    expect(await rows(r.resourceId)).toEqual([
      [1234, "1"],
      [98765, "2"],
    ]);
    const message = await failure(write("bad.csv", "n,m\n1,a\n2,b\nx,c\n"), { types: { n: "int" } });
    expect(message).toBe('line 4, column "n": invalid input syntax for type integer: "x" (declared int4)');
    expect(await failure(write("c.csv", "n\n1\n"), { types: { n: "integr" } })).toMatch(/"integr" is not a valid field type/);
    expect(await failure(write("d.csv", "n\n1\n"), { types: { m: "int" } })).toMatch(/"m" is not a column/);
  });

  it("rejects field names datastore_create rejects", async () => {
    expect(await failure(write("h.csv", "_x,name,name\n1,a,b\n"))).toMatch(/"_x" is not a valid field name.*duplicate column: name/);
  });
});

describe("JSON and NDJSON", () => {
  it("loads an array of objects with JSON types, nested values and keys first seen late", async () => {
    const records = [
      { id: 1, name: "a", score: 1.5, ok: true, tags: ["x", "y"], meta: { k: 1 } },
      { id: 2, name: "b", score: 2, ok: false, tags: [], meta: null },
      ...Array.from({ length: 30 }, (_, i) => ({ id: i + 3, name: `n${i}`, score: i, ok: true, tags: null, meta: null })),
    ];
    (records[31] as Record<string, unknown>).late = "here";
    const file = write("r.json", JSON.stringify(records, null, 2));
    const r = await load(file, { sampleRows: 10, batchRows: 5 });
    expect(r.restarts).toBe(1);
    expect(types(r)).toEqual({ id: "int4", name: "text", score: "float8", ok: "bool", tags: "json", meta: "json", late: "text" });
    const all = await rows(r.resourceId);
    expect(all[0]).toEqual([1, "a", 1.5, true, ["x", "y"], { k: 1 }, null]);
    expect(all[31]).toEqual([32, "n29", 29, true, null, null, "here"]);
  });

  it("names the line of an element that is not an object, and of invalid JSON", async () => {
    expect(await failure(write("a.json", '[\n  {"a": 1},\n  [1, 2]\n]'))).toBe("line 3: expected a JSON object, found an array");
    expect(await failure(write("b.json", '[{"a": 1}, {"a": }]'))).toMatch(/^line 1: invalid JSON/);
    expect(await failure(write("c.json", '[{"a": 1}'))).toMatch(/not closed/);
  });

  it("reads NDJSON, skipping blank lines, with line numbers in errors", async () => {
    const r = await load(write("r.ndjson", '{"a": 1, "b": "x"}\n\n{"a": 2, "b": "y {not json"}\n'));
    expect(await rows(r.resourceId)).toEqual([
      [1, "x"],
      [2, "y {not json"],
    ]);
    expect(await failure(write("bad.jsonl", '{"a": 1}\n\n{"a": 2,}\n'))).toMatch(/^line 3: invalid JSON/);
  });
});

describe("Excel", () => {
  it("reads the first sheet: numbers, dates, booleans, formulas, rich text", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("data");
    ws.addRow(["name", "amount", "when", "ok", "double", "at"]);
    ws.addRow(["alpha", 1, new Date(Date.UTC(2021, 0, 2)), true, { formula: "B2*2", result: 2 }, new Date(Date.UTC(2021, 0, 2, 9, 30))]);
    ws.addRow([{ richText: [{ text: "be" }, { text: "ta" }] }, 2.5, new Date(Date.UTC(2022, 11, 31)), false, { formula: "B3*2", result: 5 }, null]);
    ws.getColumn(3).numFmt = "yyyy-mm-dd";
    ws.getColumn(6).numFmt = "yyyy-mm-dd hh:mm";
    wb.addWorksheet("ignored").addRow(["x"]);
    const file = path.join(dir, "book.xlsx");
    await wb.xlsx.writeFile(file);
    const r = await load(file);
    expect(types(r)).toEqual({ name: "text", amount: "float8", when: "date", ok: "bool", double: "int4", at: "timestamp" });
    expect(await rows(r.resourceId)).toEqual([
      ["alpha", 1, "2021-01-02", true, 2, "2021-01-02T09:30:00"],
      ["beta", 2.5, "2022-12-31", false, 5, null],
    ]);
  });

  it("reads a workbook of many sheets, whose last zip entry is xl/workbook.xml", async () => {
    // exceljs writes the workbook part last; unzipper's early 'end' used to drop it (see xlsx.ts).
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("data").addRows([["k"], [1], [2]]);
    for (let i = 0; i < 6; i++) wb.addWorksheet(`more ${i}`).addRow(["x"]);
    const file = path.join(dir, "many.xlsx");
    await wb.xlsx.writeFile(file);
    const r = await load(file);
    expect(await rows(r.resourceId)).toEqual([[1], [2]]);
  });

  it("names the row of a value that does not fit", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("data");
    ws.addRow(["n"]);
    ws.addRow([1]);
    ws.addRow(["lots"]);
    const file = path.join(dir, "bad.xlsx");
    await wb.xlsx.writeFile(file);
    expect(await failure(file, { types: { n: "int" } })).toBe('row 3, column "n": invalid input syntax for type integer: "lots" (declared int4)');
  });
});

describe("resources", () => {
  it("creates with an id, name and private flag; refuses to overwrite; appends with --append", async () => {
    const r = await load(write("a.csv", "k,v\n1,a\n2,b\n"), { resourceId: "my-table", name: "My table", private: true, primaryKey: ["k"] });
    expect(await engine.getResource("my-table")).toMatchObject({ name: "My table", private: true, primaryKey: ["k"], rowCount: 2 });
    expect(await failure(write("b.csv", "k,v\n3,c\n"), { resourceId: "my-table" })).toMatch(/already exists; add --append/);

    const more = await load(write("c.csv", "v,k\nc,3\n"), { resourceId: "my-table", append: true });
    expect(more).toMatchObject({ created: false, rows: 1 });
    expect(await rows(r.resourceId)).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    expect((await engine.getResource("my-table"))!.rowCount).toBe(3);
  });

  it("rejects an append that does not fit the resource, loading nothing", async () => {
    await load(write("a.csv", "k,v\n1,a\n"), { resourceId: "t1", primaryKey: ["k"] });
    expect(await failure(write("b.csv", "k,w\n2,a\n"), { resourceId: "t1", append: true })).toMatch(/columns not in resource t1: "w"/);
    expect(await failure(write("c.csv", "k,v\n2,a\nzz,b\n"), { resourceId: "t1", append: true })).toBe(
      'line 3, column "k": invalid input syntax for type integer: "zz" (the resource\'s field is int4)',
    );
    expect(await failure(write("d.csv", "k,v\n2,a\n1,b\n"), { resourceId: "t1", append: true })).toMatch(/^line 3: duplicate key value/);
    expect(await failure(write("e.csv", "k\n1\n"), { resourceId: "nope", append: true })).toMatch(/not found/);
  });

  it("builds the primary key after the load and reports duplicates", async () => {
    expect(await failure(write("a.csv", "k,v\n1,a\n1,b\n"), { primaryKey: ["k"] })).toMatch(/--primary-key k: .*duplicate/);
    expect(await failure(write("b.csv", "k,v\n1,a\n"), { primaryKey: ["nope"] })).toMatch(/"nope" is not a column/);
  });

  it("stops between batches when aborted, leaving nothing behind", async () => {
    const controller = new AbortController();
    const file = write("big.csv", "n\n" + Array.from({ length: 50_000 }, (_, i) => i).join("\n"));
    const before = await snapshot();
    await expect(
      load(file, {
        batchRows: 1000,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.rows > 20_000) controller.abort();
        },
      }),
    ).rejects.toThrow(/interrupted/);
    expect(await snapshot()).toEqual(before);
  });
});

describe("indexes after an import", () => {
  const csv = () => {
    const states = ["WA", "OR", "CA", "NV", "ID"];
    const lines = ["id,state,city,note"];
    for (let i = 0; i < 12_000; i++) lines.push(`${i},${states[i % 5]},City ${i % 40},note number ${i}`);
    return write("places.csv", lines.join("\n"));
  };

  it("indexes the short, repeating text fields by the auto-index rule when learning is off", async () => {
    process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
    try {
      const result = await load(csv());
      expect((await engine.getResource(result.resourceId))!.indexes).toEqual([["state"], ["city"]]);
    } finally {
      delete process.env.DATASTORE_ADAPTIVE_INDEXES;
    }
  });

  it("leaves indexing to learning from use by default", async () => {
    const result = await load(csv());
    expect((await engine.getResource(result.resourceId))!.indexes).toEqual([]);
  });

  it("builds declared indexes, and skips the rule when asked", async () => {
    const result = await load(csv(), { indexes: ["id"], autoIndex: false });
    expect((await engine.getResource(result.resourceId))!.indexes).toEqual([["id"]]);
  });
});

describe("the import's last steps", () => {
  it("a Ctrl-C after the last index chunk still leaves nothing behind", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-late-"));
    const { engine } = await newStore(dir);
    const csv = path.join(dir, "a.csv");
    fs.writeFileSync(csv, "a,b\n" + Array.from({ length: 5000 }, (_, i) => `${i},x${i % 7}`).join("\n") + "\n");
    const abort = new AbortController();
    const onProgress: ImportOptions["onProgress"] = (p) => {
      if (p.phase === "indexing" && p.fraction === 1) abort.abort();
    };
    await expect(importFile(engine, csv, { resourceId: "t", signal: abort.signal, onProgress })).rejects.toBeInstanceOf(ImportInterrupted);
    expect(await engine.getResource("t")).toBeUndefined();
    await engine.close();
  });

  it("gives up with an ImportError after too many restarts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-restarts-"));
    const { engine } = await newStore(dir);
    const csv = path.join(dir, "a.csv");
    const n = 25; // 25 inferred int columns, each meeting its first fraction on a later line
    const lines = [Array.from({ length: n }, (_, i) => `c${i}`).join(","), Array.from({ length: n }, () => "1").join(",")];
    for (let i = 0; i < n; i++) lines.push(Array.from({ length: n }, (_, j) => (j === i ? "1.5" : "2")).join(","));
    fs.writeFileSync(csv, lines.join("\n") + "\n");
    // One row a batch, so each wider type is found on a later batch and restarts the import.
    await expect(importFile(engine, csv, { sampleRows: 1, batchRows: 1 })).rejects.toThrow(/gave up after \d+ restarts/);
    expect(await engine.listResources()).toEqual([]);
    await engine.close();
  });
});

describe("renames and replace (the upload API's options)", () => {
  it("renames a CSV's columns and JSON keys (a swap too), on one thread or two", async () => {
    for (const offThread of [false, true]) {
      const r = await load(write(`r${offThread}.csv`, "A,b\n1,x\n2,y\n"), { names: { A: "a", b: "B" }, types: { a: "text" }, primaryKey: ["a"], offThread });
      expect(r.fields).toEqual([{ id: "a", type: "text" }, { id: "B", type: "text" }]);
      expect(await rows(r.resourceId)).toEqual([["1", "x"], ["2", "y"]]);
    }
    for (const offThread of [false, true]) {
      const r = await load(write(`r${offThread}.json`, JSON.stringify([{ x: 1, y: "a" }, { x: 2, y: "b" }])), { names: { x: "y", y: "x" }, offThread });
      expect(types(r)).toEqual({ y: "int4", x: "text" });
      expect(await rows(r.resourceId)).toEqual([[1, "a"], [2, "b"]]);
    }
    expect(await failure(write("n.csv", "a,b\n1,2\n"), { names: { c: "d" } })).toBe('names: "c" is not a column of the file');
    expect(await failure(write("n.csv", "a,b\n1,2\n"), { names: { a: "b" } })).toBe('names: two columns would be called "b"');
  });

  it("creates the resource in the full-text language given, and a replace keeps it", async () => {
    const ids = async (id: string, q: string) =>
      (await rows(id, { columns: ["_id"], fts: [{ field: null, tree: parsePlain(q, "french"), rank: "rank", text: q }] })).length;
    for (const offThread of [false, true]) {
      const r = await load(write(`fr${offThread}.csv`, "t\nLes chevaux\nUn cheval\nL'élève\n"), { language: "french", offThread });
      expect((await engine.getResource(r.resourceId))!.language).toBe("french");
      expect(await ids(r.resourceId, "chevaux")).toBe(2);
      expect(await ids(r.resourceId, "eleve")).toBe(1);
    }
    await load(write("fr.csv", "t\nUn cheval\n"), { resourceId: "fr", language: "french" });
    await load(write("fr2.csv", "t\nDes chevaux\n"), { resourceId: "fr", replace: true });
    expect((await engine.getResource("fr"))!.language).toBe("french");
    expect(await ids("fr", "cheval")).toBe(1);
    expect(await failure(write("x.csv", "t\nx\n"), { language: "klingon" })).toMatch(/^cannot create the resource: .*language/);
  });

  it("replace rebuilds the resource in place: id, meta, aliases and surviving fields' info stay", async () => {
    const first = await load(write("old.csv", "city,n\nOslo,1\n"), { resourceId: "places", name: "Places", description: "Towns", private: true });
    await engine.alterFields(first.resourceId, [], [{ id: "city", type: "text", info: { label: "City" } }], []);
    await engine.setAliases(first.resourceId, ["towns"]);
    const r = await load(write("new.csv", "city,people\nLima,10\nPune,3\n"), { resourceId: "places", name: undefined, replace: true });
    expect(r).toMatchObject({ resourceId: "places", name: "Places", created: false, rows: 2 });
    const after = (await engine.getResource("towns"))!;
    expect(after).toMatchObject({ id: "places", name: "Places", description: "Towns", private: true, aliases: ["towns"] });
    expect(after.fields).toEqual([{ id: "city", type: "text", info: { label: "City" } }, { id: "people", type: "int4" }]);
    expect(await rows("places")).toEqual([["Lima", 10], ["Pune", 3]]);
    // A replace that fails (a value its declared type refuses) leaves it as it was.
    expect(await failure(write("bad.csv", "city\n1\nx\n"), { resourceId: "places", replace: true, types: { city: "int" }, wording: "api" })).toMatch(
      /^line 3, column "city": .* \(declared int4\)$/,
    );
    expect(await failure(write("b.csv", "a\n1\n"), { resourceId: "nowhere", replace: true, wording: "api" })).toBe("resource_id: resource nowhere was not found");
  });

  it("an append or replace through an alias is not found, as every write through an alias (lib/datastore/context.ts)", async () => {
    const first = await load(write("old.csv", "city\nOslo\n"), { resourceId: "spots" });
    await engine.setAliases(first.resourceId, ["spot-alias"]);
    const before = await snapshot();
    for (const mode of [{ append: true }, { replace: true }]) {
      const refused = await load(write("new.csv", "city\nLima\n"), { resourceId: "spot-alias", ...mode }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatastoreError);
      expect(refused).toMatchObject({ kind: "not_found", details: { message: 'Not found: Resource "spot-alias" was not found.' } });
    }
    expect(await snapshot()).toBe(before);
  });
});
