// The cross-tab's cells (crossTabGrid) as an Excel workbook of one sheet: text as text, numbers
// as numbers, empty cells empty. exceljs is loaded when a workbook is asked for, not with the page.
import type { Workbook } from "exceljs";
import type { GridCell } from "./cross-tab";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Excel's rules for a sheet's name: at most 31 characters, none of []:*?/\ */
export function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 31).trim() || "Pivot";
}

type ExcelModule = { Workbook?: typeof Workbook; default?: { Workbook: typeof Workbook } };

export async function xlsxBytes(grid: GridCell[][], title: string): Promise<ArrayBuffer> {
  // the browser build is a UMD bundle, Node's a CommonJS module: the class comes named or as
  // a member of the default export
  const mod = (await import("exceljs")) as unknown as ExcelModule;
  const WorkbookClass = mod.Workbook ?? mod.default!.Workbook;
  const workbook = new WorkbookClass();
  const sheet = workbook.addWorksheet(sheetName(title));
  for (const row of grid) sheet.addRow(row);
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}
