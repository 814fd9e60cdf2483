// Excel .xlsx through exceljs's streaming reader: the first worksheet, its first non-empty
// row as the header. Cells become plain values: dates as ISO text, formulas as their cached
// result, rich text and hyperlinks as their text, error cells as NULL.
import fs from "node:fs";
import { createRequire } from "node:module";
import ExcelJS from "exceljs";
import { DEFAULT_BATCH_ROWS, ImportError, type Batch, type ReadOptions, type Source } from "./source";

function isoOf(d: Date): string {
  const s = d.toISOString();
  // Excel has no zones: a date cell at midnight is a date, otherwise a timestamp.
  return s.slice(11, 23) === "00:00:00.000" ? s.slice(0, 10) : s.slice(0, 19);
}

export function cellValue(v: unknown): unknown {
  if (v === null || v === undefined || v === "") return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : isoOf(v);
  if (typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (Array.isArray(o.richText)) return (o.richText as { text: string }[]).map((t) => t.text).join("");
  if ("result" in o) return cellValue(o.result);
  if ("error" in o || "formula" in o || "sharedFormula" in o) return null;
  if ("text" in o) return cellValue(o.text);
  return JSON.stringify(v);
}

// exceljs reads the zip through unzipper's Parse, which emits 'end' as soon as its writable side
// finishes, while entries it has parsed may still wait in its readable buffer: under load the
// last entries were lost ("Cannot read properties of undefined (reading 'sheets')" when that was
// xl/workbook.xml, which exceljs itself writes last; exceljs issue #962). Dropping that early
// listener leaves the stream's own 'end', which comes after the last entry is read.
function fixUnzipperEarlyEnd(): void {
  const unzipper = createRequire(createRequire(import.meta.url).resolve("exceljs"))("unzipper");
  if (unzipper.Parse.fixedEarlyEnd) return;
  const Parse = unzipper.Parse;
  unzipper.Parse = Object.assign(
    function (opts: unknown) {
      const parse = Parse(opts);
      for (const l of parse.listeners("finish")) parse.removeListener("finish", l);
      return parse;
    },
    { fixedEarlyEnd: true },
  );
}

export async function openXlsx(file: string, opts: ReadOptions): Promise<Source> {
  fixUnzipperEarlyEnd();
  const size = (await fs.promises.stat(file)).size;
  const counter = { bytes: 0 };
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  input.on("data", (chunk) => (counter.bytes += chunk.length));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // dates are numbers with a date format
    hyperlinks: "ignore",
    entries: "ignore",
  });
  const sheets = reader[Symbol.asyncIterator]();
  const first = await sheets.next().catch((e: Error) => {
    throw new ImportError(`not a readable .xlsx file: ${e.message}`);
  });
  if (first.done) throw new ImportError("the workbook has no worksheet");
  const rowsIt = first.value[Symbol.asyncIterator]();

  let columns: string[] | null = null;
  while (!columns) {
    const next = await rowsIt.next();
    if (next.done) throw new ImportError("the first worksheet is empty");
    const values = (next.value.values as unknown[]).slice(1).map(cellValue);
    let n = values.length;
    while (n > 0 && (values[n - 1] === null || String(values[n - 1]).trim() === "")) n--;
    if (n === 0) continue;
    columns = values.slice(0, n).map((v, i) => {
      if (v === null) throw new ImportError(`row ${next.value.number}: column ${i + 1} of the header is empty`);
      return String(v).trim();
    });
  }
  const width = columns.length;

  async function* batches(): AsyncGenerator<Batch> {
    let rows: unknown[][] = [];
    let positions: number[] = [];
    for (;;) {
      const next = await rowsIt.next();
      if (next.done) break;
      const raw = next.value.values as unknown[];
      const row: unknown[] = new Array(width).fill(null);
      let any = false;
      for (let i = 1; i < raw.length; i++) {
        const v = cellValue(raw[i]);
        if (v === null) continue;
        if (i > width) throw new ImportError(`row ${next.value.number}: a value in column ${i}, beyond the ${width} columns of the header`);
        row[i - 1] = v;
        any = true;
      }
      if (!any) continue;
      rows.push(row);
      positions.push(next.value.number);
      if (rows.length >= batchRows) {
        yield { rows, positions };
        rows = [];
        positions = [];
      }
    }
    if (rows.length) yield { rows, positions };
  }

  return {
    format: "xlsx",
    columns,
    keyed: false,
    unit: "row",
    notes: [],
    batches,
    progress: () => ({ done: counter.bytes, total: size }),
    close: async () => {
      input.destroy();
    },
  };
}
