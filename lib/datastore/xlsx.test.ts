// A workbook whose zip needs zip64 records (a sheet past 4 GiB, or a directory past it), seen
// by lowering the zip writer's threshold, still opens in exceljs (jszip's reader, not ours) with
// the same cells.
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
