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

/** An entry's XML, from the workbook's bytes: its deflated data follows its name in its local
 *  header, up to its data descriptor. */
function entryXml(bytes: Buffer, entry: string): string {
  const name = Buffer.from(entry);
  const data = bytes.indexOf(name) + name.length;
  const descriptor = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), data);
  return zlib.inflateRawSync(bytes.subarray(data, descriptor)).toString("utf8");
}

async function readBack(cols: ColumnInfo[], rows: unknown[][], at: number) {
  const file = xlsxWriter(cols, "t");
  const bytes = Buffer.concat([file.head(), file.rows(rows.slice(0, at)), file.rows(rows.slice(at)), file.tail()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  book.worksheets[0].eachRow((row) => out.push(cols.map((_, i) => row.getCell(i + 1).value)));
  return { out, sheet: entryXml(bytes, "xl/worksheets/sheet1.xml"), strings: entryXml(bytes, "xl/sharedStrings.xml") };
}

describe("xlsxWriter text", () => {
  const TEXTS = ["plain", " leading", "trailing ", "two  spaces", "line\nbreak", "tab\there", "a & b < c > d", "bell\u0007gone", "ünï €😀", ""];
  const COLS2: ColumnInfo[] = [
    { id: "_id", type: "int" },
    { id: "t", type: "text" },
  ];

  it("reads back as written (characters XML cannot hold left out), spaces kept only where a reader would lose them; a text that comes again written once", async () => {
    // enough rows that the sheet's text passes the writer's pieces and the zip's buffer many times
    const rows = Array.from({ length: 12_000 }, (_, i) => [i + 1, TEXTS[i % TEXTS.length]]);
    const { out, sheet, strings } = await readBack(COLS2, rows, 7000);
    expect(out.length).toBe(12_001);
    expect(out.slice(1)).toEqual(rows.map(([id, t]) => [id, t === "" ? null : String(t).replace("\u0007", "")]));
    // each text once in the shared strings, in the order met; its cells point to it
    expect(strings).toContain('count="10800" uniqueCount="9"><si><t>plain</t></si><si><t xml:space="preserve"> leading</t></si>');
    expect(strings).toContain("<si><t>a &amp; b &lt; c &gt; d</t></si>");
    expect(strings.match(/xml:space="preserve"/g)?.length).toBe(5);
    expect(sheet).toContain('<c r="B2" t="s"><v>0</v></c>');
    expect(sheet).toContain('<c r="B12" t="s"><v>0</v></c>');
    expect(sheet).not.toContain("inlineStr><is><t>plain");
  });

  it("keeps a bounded number of shared strings: long texts, and new texts once the table is full, stay in their cells", async () => {
    const cols: ColumnInfo[] = [...COLS2, { id: "long", type: "text" }];
    // 3,000 distinct texts of 200 characters (600,000 in all), each twice; and texts of 2,000 characters
    const rows = Array.from({ length: 6000 }, (_, i) => [i + 1, `${i % 3000}`.padEnd(200, "x"), `${i % 7}`.padEnd(2000, "y")]);
    const { out, sheet, strings } = await readBack(cols, rows, 2500);
    expect(out.slice(1)).toEqual(rows);
    const unique = Number(/uniqueCount="(\d+)"/.exec(strings)![1]);
    expect(unique).toBeGreaterThan(500);
    expect(unique).toBeLessThan(3000);
    expect(strings).not.toContain("y".repeat(1000));
    // the first texts shared both times, the later ones in their cells both times
    expect(sheet).toContain('<c r="B2" t="s"><v>0</v></c>');
    expect(sheet).toContain('<c r="B3002" t="s"><v>0</v></c>');
    expect(sheet).toContain('<c r="B3001" t="inlineStr">');
    expect(sheet).toContain('<c r="B6001" t="inlineStr">');
  });
});
