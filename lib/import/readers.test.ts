import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SchemaTree } from "hyparquet";
import { describe, expect, it } from "vitest";
import { openEngine } from "../datastore/open";
import { checksumFile } from "../datastore/sqlite/test-support";
import { importFile } from "./importer";
import { join, kindOf, widen } from "./infer";
import { detectFormat, openSource } from "./open";
import { openParquet, parquetColumnType } from "./parquet";
import { ToUtf8, sniffDelimiter } from "./text";
import { cellValue } from "./xlsx";

const FLIGHTS = path.resolve("node_modules/vega-datasets/data/flights-3m.parquet");

function node(element: Partial<SchemaTree["element"]>, children: SchemaTree[] = []): SchemaTree {
  return { element: { name: "c", ...element }, children, count: 1, path: ["c"] };
}

describe("kinds of values", () => {
  it.each([
    ["42", "int"],
    ["-7", "int"],
    ["0", "int"],
    ["007", "text"],
    ["3000000000", "bigint"],
    ["99999999999999999999", "text"],
    ["1.5", "decimal"],
    ["1e3", "decimal"],
    [".5", "decimal"],
    ["1,5", "text"],
    ["NaN", "text"],
    ["true", "bool"],
    ["F", "bool"],
    ["yes", "bool"],
    ["2024-02-29", "date"],
    ["2023-02-29", "text"],
    ["2024-01-01T10:00:00Z", "timestamp"],
    ["2024-01-01 10:00", "timestamp"],
    ["01/02/2024", "text"], // day-first or month-first: not guessed
    ["10:00", "text"],
    ["", "empty"],
    ["   ", "text"],
    [null, "empty"],
    [1, "int"],
    [1.5, "float"],
    [true, "bool"],
    [{ a: 1 }, "json"],
    [[1], "json"],
  ])("%j is %s", (value, kind) => {
    expect(kindOf(value)).toBe(kind);
  });

  it("joins kinds into the least type that holds both", () => {
    expect(join("int", "bigint")).toBe("bigint");
    expect(join("int", "decimal")).toBe("decimal");
    expect(join("int", "float")).toBe("float");
    expect(join("bigint", "float")).toBe("decimal");
    expect(join("date", "timestamp")).toBe("timestamp");
    expect(join("bool", "int")).toBe("text");
    expect(join("json", "text")).toBe("json");
    expect(join("empty", "date")).toBe("date");
  });

  it("widens a column for a value it cannot hold, or says it cannot", () => {
    expect(widen("int4", "3000000000")).toBe("int8");
    expect(widen("int4", 1.5)).toBe("float8");
    expect(widen("date", "2020-01-01 10:00")).toBe("timestamp");
    expect(widen("bool", "maybe")).toBe("text");
    expect(widen("text", "anything")).toBeNull();
    expect(widen("_text", "x")).toBeNull();
  });
});

describe("format and delimiter detection", () => {
  it("sniffs the delimiter that splits lines consistently, ignoring quoted text", () => {
    expect(sniffDelimiter("a;b;c\n1;2,5;3\n")).toBe(";");
    expect(sniffDelimiter('name,desc\n"x","a;b;c;d"\n')).toBe(",");
    expect(sniffDelimiter("a\tb\n1\t2\n")).toBe("\t");
    expect(sniffDelimiter("a|b|c\n1|2|3\n")).toBe("|");
    expect(sniffDelimiter("single\n1\n")).toBe(",");
  });

  it("detects formats from contents when the extension says nothing", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "detect-"));
    const put = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    expect(await detectFormat(put("a.dat", '[{"a":1}]'))).toBe("json");
    expect(await detectFormat(put("b.dat", '{"a":1}\n{"a":2}'))).toBe("ndjson");
    expect(await detectFormat(put("c.json", '{"a":1}\n'))).toBe("ndjson");
    expect(await detectFormat(put("d.dat", "a,b\n1,2"))).toBe("csv");
    expect(await detectFormat(FLIGHTS)).toBe("parquet");
  });
});

describe("Excel cells", () => {
  it("turns exceljs values into plain ones", () => {
    expect(cellValue(new Date(Date.UTC(2020, 4, 6)))).toBe("2020-05-06");
    expect(cellValue(new Date(Date.UTC(2020, 4, 6, 7, 8, 9)))).toBe("2020-05-06T07:08:09");
    expect(cellValue({ formula: "A1", result: 3 })).toBe(3);
    expect(cellValue({ formula: "A1" })).toBeNull();
    expect(cellValue({ error: "#DIV/0!" })).toBeNull();
    expect(cellValue({ text: "site", hyperlink: "https://x" })).toBe("site");
    expect(cellValue({ richText: [{ text: "a" }, { text: "b" }] })).toBe("ab");
    expect(cellValue("")).toBeNull();
  });
});

describe("Parquet", () => {
  it("maps schema types to datastore types", () => {
    expect(parquetColumnType(node({ type: "INT32" }))).toBe("int4");
    expect(parquetColumnType(node({ type: "INT64" }))).toBe("int8");
    expect(parquetColumnType(node({ type: "INT32", logical_type: { type: "INTEGER", bitWidth: 32, isSigned: false } }))).toBe("int8");
    expect(parquetColumnType(node({ type: "DOUBLE" }))).toBe("float8");
    expect(parquetColumnType(node({ type: "BOOLEAN" }))).toBe("bool");
    expect(parquetColumnType(node({ type: "BYTE_ARRAY", converted_type: "UTF8" }))).toBe("text");
    expect(parquetColumnType(node({ type: "INT32", converted_type: "DATE" }))).toBe("date");
    expect(parquetColumnType(node({ type: "INT96" }))).toBe("timestamp");
    expect(parquetColumnType(node({ type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: false, unit: "MICROS" } }))).toBe("timestamp");
    expect(parquetColumnType(node({ type: "FIXED_LEN_BYTE_ARRAY", converted_type: "DECIMAL", precision: 10, scale: 2 }))).toBe("numeric");
    expect(parquetColumnType(node({ num_children: 1 }, [node({ type: "INT32" })]))).toBe("json");
  });

  it("reads the flights file row group by row group, with types from its schema", async () => {
    const source = await openParquet(FLIGHTS, { batchRows: 1000 });
    expect(source.columns).toEqual(["date", "delay", "distance", "origin", "destination"]);
    expect(source.declared).toEqual(["timestamp", "int8", "int8", "text", "text"]);
    const first = await source.batches().next();
    expect(first.done).toBe(false);
    const batch = first.value!;
    expect(batch.rows.length).toBe(1000);
    expect(batch.rows[0]).toEqual(["2001-01-01T00:01:00", 33, 2176, "LAS", "PHL"]);
    expect(Array.from(batch.positions.slice(0, 2) as ArrayLike<number>)).toEqual([1, 2]);
    expect(source.progress()).toEqual({ done: 1000, total: 3_000_000 });
    await source.close();
  });

  it("imports Parquet through the loader; aborted, it leaves nothing", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pq-")), "t.db");
    const engine = await openEngine({ file, readWorkers: 0 });
    const before = checksumFile(file);
    const abort = new AbortController();
    const seen: number[] = [];
    await expect(
      importFile(engine, FLIGHTS, {
        name: "flights",
        signal: abort.signal,
        onProgress: (p) => {
          seen.push(p.rows);
          if (p.rows >= 20_000) abort.abort();
        },
      }),
    ).rejects.toThrow(/interrupted/);
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(20_000);
    expect(await engine.listResources()).toEqual([]);
    expect(checksumFile(file)).toBe(before); // no table left behind
    await engine.close();
  });
});

describe("streams", () => {
  /** `bytes` through ToUtf8 in two chunks cut at `at`: what comes out, or the error. */
  async function throughUtf8(bytes: Buffer, at: number): Promise<string> {
    const t = new ToUtf8({ encoding: "utf-8", bom: 0 }, true);
    const out: Buffer[] = [];
    t.on("data", (b: Buffer) => out.push(b));
    const ended = new Promise<string>((resolve) => {
      t.on("error", (e) => resolve(`error: ${e.message}`));
      t.on("end", () => resolve(Buffer.concat(out).toString("utf8")));
    });
    t.write(bytes.subarray(0, at));
    t.end(bytes.subarray(at));
    return ended;
  }

  it("checks UTF-8 cut anywhere between chunks, characters of every length", async () => {
    const good = Buffer.from("aé€😀z", "utf8");
    for (let at = 0; at <= good.length; at++) expect(await throughUtf8(good, at)).toBe("aé€😀z");
    const bad = [Buffer.from([0x61, 0xff, 0x62]), Buffer.from([0x61, 0xe2, 0x82]), Buffer.from([0xc3, 0x28]), Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80])];
    for (const b of bad) {
      for (let at = 0; at <= b.length; at++) expect(await throughUtf8(b, at)).toBe("error: the file is not valid UTF-8 (try --encoding latin-1)");
    }
  });

  it.each(["ndjson", "json"])("a %s source read a while after it opened loses nothing", async (format) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "late-read-")), `r.${format}`);
    const records = Array.from({ length: 5000 }, (_, i) => ({ n: i, s: "ü" }));
    fs.writeFileSync(file, format === "json" ? JSON.stringify(records) : records.map((r) => JSON.stringify(r)).join("\n"));
    const source = await openSource(file, {});
    await new Promise((resolve) => setTimeout(resolve, 50)); // the load worker opens its sink meanwhile
    let n = 0;
    for await (const batch of source.batches()) n += batch.rows.length;
    expect(n).toBe(5000);
    expect(source.progress()).toEqual({ done: fs.statSync(file).size, total: fs.statSync(file).size });
    await source.close();
  });
});
