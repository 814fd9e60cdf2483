// A workbook whose zip needs zip64 records (a sheet past 4 GiB, or a directory past it), seen
// by lowering the zip writer's threshold, still opens in exceljs (jszip's reader, not ours) with
// the same cells; text keeps its spaces and characters however it is written.
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { ColumnInfo } from "./formats";
import { xlsxWriter } from "./xlsx";
import { ZipWriter } from "./zip-stream";

const COLS: ColumnInfo[] = [
  { id: "_id", type: "int" },
  { id: "name", type: "text" },
  { id: "when", type: "date" },
];
const ROWS = Array.from({ length: 300 }, (_, i) => [i + 1, `row ${i + 1} ${"é".repeat(i % 17)}`, `2024-01-${String((i % 28) + 1).padStart(2, "0")}`]);

async function cells(zip?: ZipWriter): Promise<unknown[][]> {
  const file = xlsxWriter(COLS, "t", zip);
  const bytes = Buffer.concat([file.head(), file.rows(ROWS.slice(0, 100)), file.rows(ROWS.slice(100)), file.tail()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  book.worksheets[0].eachRow((row) => out.push([1, 2, 3].map((i) => row.getCell(i).value)));
  return out;
}

describe("xlsxWriter through zip64", () => {
  it("opens with the same cells as without", async () => {
    const plain = await cells();
    expect(plain.length).toBe(301);
    expect(plain[1]).toEqual([1, "row 1 ", new Date("2024-01-01T00:00:00Z")]);
    // the sheet's sizes, and every offset past the first entries, as zip64
    expect(await cells(new ZipWriter(undefined, 2000))).toEqual(plain);
    // everything past 40 bytes: zip64 end records too
    expect(await cells(new ZipWriter(undefined, 40))).toEqual(plain);
  });
});

/** The sheet's XML, from the workbook's bytes: its deflated data follows its name in its local
 *  header, up to its data descriptor. */
function sheetXml(bytes: Buffer): string {
  const name = Buffer.from("xl/worksheets/sheet1.xml");
  const data = bytes.indexOf(name) + name.length;
  const descriptor = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), data);
  return zlib.inflateRawSync(bytes.subarray(data, descriptor)).toString("utf8");
}

describe("xlsxWriter text", () => {
  const TEXTS = ["plain", " leading", "trailing ", "two  spaces", "line\nbreak", "tab\there", "a & b < c > d", "bell\u0007gone", "ünï €😀", ""];
  const COLS2: ColumnInfo[] = [
    { id: "_id", type: "int" },
    { id: "t", type: "text" },
  ];
  // enough rows that the sheet's text passes the writer's pieces and the zip's buffer many times
  const rows = Array.from({ length: 12_000 }, (_, i) => [i + 1, TEXTS[i % TEXTS.length]]);

  it("reads back as written (characters XML cannot hold left out), spaces kept only where a reader would lose them", async () => {
    const file = xlsxWriter(COLS2, "t");
    const bytes = Buffer.concat([file.head(), file.rows(rows.slice(0, 7000)), file.rows(rows.slice(7000)), file.tail()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const out: unknown[][] = [];
    book.worksheets[0].eachRow((row) => out.push([row.getCell(1).value, row.getCell(2).value]));
    expect(out.length).toBe(12_001);
    const want = rows.map(([id, t]) => [id, t === "" ? null : String(t).replace("\u0007", "")]);
    expect(out.slice(1)).toEqual(want);
    const xml = sheetXml(bytes);
    expect(xml).toContain('<c r="B2" t="inlineStr"><is><t>plain</t></is></c>');
    expect(xml).toContain('<c r="B3" t="inlineStr"><is><t xml:space="preserve"> leading</t></is></c>');
    expect(xml).toContain('<c r="B8" t="inlineStr"><is><t>a &amp; b &lt; c &gt; d</t></is></c>');
    expect(xml.match(/xml:space="preserve"/g)?.length).toBe(5 * 1200);
  });
});
