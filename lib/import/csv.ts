// CSV and TSV (csv-parser.ts): any of , \t ; | (sniffed unless given), quoted fields with
// newlines and doubled quotes, a BOM, UTF-8 or Latin-1. The first record is the header.
// Rows are checked for their field count here, so a ragged row is reported by its line.
import fs from "node:fs";
import { pipeline, type Readable } from "node:stream";
import { CsvParser } from "./csv-parser";
import { DEFAULT_BATCH_ROWS, ImportError, type Batch, type ReadOptions, type Source } from "./source";
import { ToUtf8, countingStream, decodeHead, detectEncoding, parseEncoding, readHead, sniffDelimiter } from "./text";

const DELIMITER_NAMES: Record<string, string> = { ",": "comma", "\t": "tab", ";": "semicolon", "|": "pipe" };

function newlines(record: string[]): number {
  let n = 0;
  for (const field of record) {
    for (let i = field.indexOf("\n"); i !== -1; i = field.indexOf("\n", i + 1)) n++;
  }
  return n;
}

export async function openCsv(file: string, opts: ReadOptions, tsv: boolean): Promise<Source> {
  const size = (await fs.promises.stat(file)).size;
  const head = await readHead(file);
  const forced = opts.encoding ? parseEncoding(opts.encoding) : undefined;
  const detected = detectEncoding(head, forced);
  const text = decodeHead(head, detected);
  const delimiter = opts.delimiter ?? (tsv ? "\t" : sniffDelimiter(text));
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new ImportError(`the delimiter must be one character other than a quote or newline, not ${JSON.stringify(delimiter)}`);
  }
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const counter = { bytes: 0 };
  let pipeError: unknown = null;
  const input = countingStream(file, counter);
  // Both line endings at once: CKAN's dumps (and ours) end the header with \r\n and rows with
  // \n; \r alone only in a file without any \n.
  const parser = new CsvParser(delimiter, !text.includes("\n") && text.includes("\r"));
  const utf8 = pipeline(input, new ToUtf8(detected, forced !== undefined || detected.bom > 0), (e) => {
    if (e) pipeError ??= e;
  });
  const records = recordBatches(utf8, parser, batchRows, () => pipeError);

  // The header: the first non-blank record; trailing empty cells are dropped.
  let line = 1;
  let columns: string[] | null = null;
  let pending: string[][] = [];
  while (!columns) {
    const next = await records.next().catch(rethrow);
    if (next.done) throw new ImportError("the file has no header row");
    pending = next.value;
    while (pending.length && !columns) {
      const rec = pending.shift()!;
      line += 1 + newlines(rec);
      if (rec.length === 1 && rec[0] === "") continue;
      let n = rec.length;
      while (n > 1 && rec[n - 1].trim() === "") n--;
      columns = rec.slice(0, n).map((c) => c.trim());
    }
  }
  const width = columns.length;
  const notes = [`${detected.encoding === "windows-1252" ? "Latin-1" : detected.encoding.toUpperCase()}`, `${DELIMITER_NAMES[delimiter] ?? JSON.stringify(delimiter)}-delimited`];
  if (detected.bom) notes.push("BOM");

  async function* batches(): AsyncGenerator<Batch> {
    let chunk = pending;
    for (;;) {
      const rows: unknown[][] = [];
      const positions: number[] = [];
      for (const rec of chunk) {
        const start = line;
        line += parser.multiline.has(rec) ? 1 + newlines(rec) : 1;
        if (rec.length === 1 && rec[0] === "") continue; // a blank line
        if (rec.length !== width) {
          // Extra fields are tolerated only when empty (a trailing delimiter).
          let n = rec.length;
          while (n > width && rec[n - 1] === "") n--;
          if (n !== width) throw new ImportError(`line ${start}: expected ${width} fields, found ${rec.length}`);
          rec.length = width;
        }
        const row: unknown[] = rec;
        // An empty (or blank) cell is NULL, as in PostgreSQL's COPY … CSV.
        for (let i = 0; i < width; i++) {
          const v = rec[i];
          if (v === "" || (v.charCodeAt(0) <= 32 && v.trim() === "")) row[i] = null;
        }
        rows.push(row);
        positions.push(start);
      }
      if (rows.length) yield { rows, positions };
      const next = await records.next().catch(rethrow);
      if (next.done) return;
      chunk = next.value;
    }
  }

  return {
    format: tsv ? "tsv" : "csv",
    columns,
    keyed: false,
    unit: "line",
    notes,
    batches,
    progress: () => ({ done: counter.bytes, total: size }),
    close: async () => {
      await records.return(undefined);
      input.destroy();
    },
  };
}

/** Batches of about `size` records as the text arrives. */
async function* recordBatches(utf8: Readable, parser: CsvParser, size: number, failure: () => unknown): AsyncGenerator<string[][]> {
  const decoder = new TextDecoder(); // the text is valid UTF-8 by now (ToUtf8 checked it)
  let batch: string[][] = [];
  for await (const chunk of utf8 as AsyncIterable<Buffer>) {
    parser.write(decoder.decode(chunk, { stream: true }), batch);
    while (batch.length >= size) {
      yield batch.length === size ? batch : batch.slice(0, size);
      batch = batch.length === size ? [] : batch.slice(size);
    }
  }
  const error = failure();
  if (error) throw error;
  parser.write(decoder.decode(), batch);
  parser.end(batch);
  for (let i = 0; i < batch.length; i += size) yield batch.slice(i, i + size);
}

/** The parser's errors (an unclosed quote) already name the line. */
function rethrow(e: unknown): never {
  if (e instanceof Error && (e as { code?: string }).code?.startsWith("CSV_")) throw new ImportError(`CSV: ${e.message}`);
  throw e;
}
