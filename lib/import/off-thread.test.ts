// The import on two threads (off-thread.ts, load-worker.ts) against the same import on one: the
// same rows, ids, full text, notices and errors, and nothing left beside the database after.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatastoreEngine } from "../datastore/engine";
import { parsePlain } from "../datastore/full-text";
import { openEngine } from "../datastore/open";
import { checkFtsIntegrity, checksumFile, tableOf, withRawDb } from "../datastore/sqlite/test-support";
import { ImportInterrupted, importFile, type ImportOptions, type ImportResult } from "./importer";
import { ImportError } from "./source";

let dir: string;
const engines: DatastoreEngine[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-off-"));
});

afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function store(name: string): Promise<{ engine: DatastoreEngine; file: string }> {
  const file = path.join(dir, `${name}.db`);
  const engine = await openEngine({ file, readWorkers: 0 });
  engines.push(engine);
  return { engine, file };
}

/** What the part directories beside the databases leave: nothing, once an import is over. */
function leftovers(): string[] {
  return fs.readdirSync(dir).filter((n) => n.includes(".import-"));
}

interface Outcome {
  result?: ImportResult;
  error?: string;
  notices: string[];
  rows?: unknown[][];
  matches?: (number | undefined)[];
}

const WORDS = ["alpha", "seattle", "2024", "-7.25", "x1"];

/** The same import on one thread and on two, each into a database of its own. */
async function both(file: string, opts: ImportOptions = {}): Promise<{ one: Outcome; two: Outcome }> {
  const run = async (offThread: boolean): Promise<Outcome> => {
    const { engine, file: db } = await store(offThread ? "two" : "one");
    const notices: string[] = [];
    const before = checksumFile(db);
    try {
      const result = await importFile(engine, file, { name: "t", ...opts, offThread, onNotice: (m) => notices.push(m) });
      checkFtsIntegrity(db, result.resourceId);
      const table = tableOf(db, result.resourceId);
      const rows = withRawDb(db, (raw) => raw.prepare(`SELECT * FROM "${table}" ORDER BY _id`).raw().all() as unknown[][]);
      const r = (await engine.getResource(result.resourceId))!;
      const matches = [];
      for (const w of WORDS) {
        const fts = [{ field: null, tree: parsePlain(w), rank: "rank" as const }];
        const out = await engine.search(r, { filters: [], fts, columns: ["_id"], sort: [], distinct: false, limit: 0, offset: 0, includeTotal: true });
        matches.push(out.total);
      }
      return { result: { ...result, seconds: 0, resourceId: "" }, notices, rows, matches };
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      expect(checksumFile(db)).toBe(before); // nothing loaded
      return { error: e.message, notices };
    } finally {
      expect(leftovers()).toEqual([]);
    }
  };
  return { one: await run(false), two: await run(true) };
}

function csv(rows: number, row: (i: number) => string, header = "n,word,when,amount,city"): string {
  return [header, ...Array.from({ length: rows }, (_, i) => row(i))].join("\n") + "\n";
}

const cities = ["Seattle", "Los Angeles", "São Paulo", "x1 Town"];
const plain = (i: number) => `${i},alpha ${i % 97},2024-01-${String((i % 28) + 1).padStart(2, "0")},${(i % 400) / 4 - 50},${cities[i % 4]}`;

describe("loading on two threads", () => {
  it("loads, numbers and full-text indexes the rows as one thread does, in several parts", async () => {
    const file = write("big.csv", csv(150_000, plain));
    const { one, two } = await both(file);
    expect(two.result).toEqual(one.result);
    expect(two.rows).toEqual(one.rows);
    expect(two.rows).toHaveLength(150_000);
    expect(two.matches).toEqual(one.matches);
    expect(two.matches![3]).toBe(375); // a negative decimal is one word
    // Ids go on from the last row, as AUTOINCREMENT has them.
    const engine = engines[1];
    const id = (await engine.listResources())[0].id;
    await engine.write(id, [{ n: -1 }], "insert");
    const r = (await engine.getResource(id))!;
    const last = await engine.search(r, { filters: [], fts: [], columns: ["_id", "n"], sort: [{ field: "_id", desc: true, nullsFirst: false }], distinct: false, limit: 1, offset: 0, includeTotal: true });
    expect(last.rows).toEqual([[150_001, -1]]);
    expect(last.total).toBe(150_001);
  });

  it("names the line of a bad value far into the file, and loads nothing", async () => {
    const file = write("bad.csv", csv(80_000, (i) => (i === 70_000 ? "oops,a,2024-01-01,1,x" : plain(i))));
    const { one, two } = await both(file, { types: { n: "int" } });
    expect(one.error).toBe('line 70002, column "n": invalid input syntax for type integer: "oops" (declared int4)');
    expect(two.error).toBe(one.error);
  });

  it("widens a column when a late value does not fit, and starts over", async () => {
    const file = write("wide.csv", csv(60_000, (i) => (i === 55_000 ? "1.5,a,2024-01-01 10:00,1,x" : plain(i))));
    const { one, two } = await both(file);
    expect(one.result!.restarts).toBe(2);
    expect(one.notices).toEqual([
      'line 55002: "2024-01-01 10:00" does not fit column "when" (date); making it timestamp; starting over',
      'line 55002: "1.5" does not fit column "n" (int4); making it numeric; starting over',
    ]);
    expect(two.notices).toEqual(one.notices);
    expect(two.result).toEqual(one.result);
    expect(two.rows).toEqual(one.rows);
  });

  it("adds a JSON field first seen after the sample; tells of a left-out _id once a run", async () => {
    const records = Array.from({ length: 30_000 }, (_, i) => (i === 25_000 ? { _id: i, a: i, late: "yes" } : { _id: i, a: i }));
    const { one, two } = await both(write("late.ndjson", records.map((r) => JSON.stringify(r)).join("\n")));
    expect(one.result!.fields.map((f) => f.id)).toEqual(["a", "late"]);
    expect(one.notices).toEqual([
      'column "_id" is not loaded: the datastore numbers the rows itself',
      'line 25001: new field "late"; starting over',
      'column "_id" is not loaded: the datastore numbers the rows itself',
    ]);
    expect(two.notices).toEqual(one.notices);
    expect(two.rows).toEqual(one.rows);
  });

  it("reads a workbook in the worker", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("data");
    ws.addRow(["name", "amount"]);
    for (let i = 0; i < 500; i++) ws.addRow([`alpha ${i}`, i / 4]);
    const file = path.join(dir, "book.xlsx");
    await wb.xlsx.writeFile(file);
    const { one, two } = await both(file);
    expect(two.result).toEqual(one.result);
    expect(two.rows).toEqual(one.rows);
  });

  it("stops when aborted while the worker reads, leaving nothing behind", async () => {
    const { engine, file: db } = await store("abort");
    const before = checksumFile(db);
    const controller = new AbortController();
    const file = write("big.csv", csv(200_000, plain));
    await expect(
      importFile(engine, file, {
        offThread: true,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.rows > 50_000) controller.abort();
        },
      }),
    ).rejects.toBeInstanceOf(ImportInterrupted);
    expect(checksumFile(db)).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it("removes the parts a killed import left, not those of one still running", async () => {
    const { engine, file: db } = await store("stale");
    fs.mkdirSync(`${db}.import-999999999-abc`); // no such process
    fs.writeFileSync(`${db}.import-999999999-abc/part-1.db`, "");
    const running = `${db}.import-${process.ppid}-def`;
    fs.mkdirSync(running);
    await importFile(engine, write("a.csv", csv(100, plain)), { offThread: true });
    expect(leftovers()).toEqual([path.basename(running)]);
    fs.rmdirSync(running);
  });
});
