// JSON arrays of objects and NDJSON (one object per line). Each record is parsed by
// JSON.parse; for arrays, a small scanner only finds where each top-level element ends
// (string- and depth-aware), so a file larger than memory streams element by element.
import fs from "node:fs";
import readline from "node:readline";
import { DEFAULT_BATCH_ROWS, ImportError, type Batch, type ReadOptions, type Source } from "./source";

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function parseRecord(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ImportError(`line ${line}: invalid JSON: ${(e as Error).message}`);
  }
  if (!isRecord(value)) throw new ImportError(`line ${line}: expected a JSON object, found ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`);
  return value;
}

function textStream(file: string) {
  const s = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  s.setEncoding("utf8");
  return s;
}

/** Counts what is read from `s`; called as reading starts, as listening sets the stream flowing. */
function counted<T extends NodeJS.ReadableStream>(s: T, counter: { bytes: number }): T {
  s.on("data", (chunk: string) => (counter.bytes += Buffer.byteLength(chunk)));
  return s;
}

export async function openNdjson(file: string, opts: ReadOptions): Promise<Source> {
  const size = (await fs.promises.stat(file)).size;
  const counter = { bytes: 0 };
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const input = textStream(file);
  async function* batches(): AsyncGenerator<Batch> {
    const lines = readline.createInterface({ input: counted(input, counter), crlfDelay: Infinity });
    let line = 0;
    let rows: Record<string, unknown>[] = [];
    let positions: number[] = [];
    for await (let text of lines) {
      line++;
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === "") continue;
      rows.push(parseRecord(text, line));
      positions.push(line);
      if (rows.length >= batchRows) {
        yield { rows, positions };
        rows = [];
        positions = [];
      }
    }
    if (rows.length) yield { rows, positions };
  }
  return {
    format: "ndjson",
    columns: [],
    keyed: true,
    unit: "line",
    notes: [],
    batches,
    progress: () => ({ done: counter.bytes, total: size }),
    close: async () => {
      input.destroy();
    },
  };
}

export async function openJsonArray(file: string, opts: ReadOptions): Promise<Source> {
  const size = (await fs.promises.stat(file)).size;
  const counter = { bytes: 0 };
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const input = textStream(file);

  async function* batches(): AsyncGenerator<Batch> {
    let rows: Record<string, unknown>[] = [];
    let positions: number[] = [];
    let state: "start" | "before" | "element" | "end" = "start";
    let count = 0;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let line = 1;
    let elementLine = 1;
    let pieces: string[] = [];
    let first = true;

    for await (let chunk of counted(input, counter) as AsyncIterable<string>) {
      if (first && chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
      let from = 0; // start of the current element's text within this chunk
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (state === "element") {
          if (inString) {
            if (escaped) escaped = false;
            else if (c === 92) escaped = true; // backslash
            else if (c === 34) inString = false;
            continue;
          }
          if (c === 34) inString = true;
          else if (c === 123 || c === 91) depth++;
          else if (c === 93 && depth === 0) {
            // The `]` that closes the array, right after the last element.
            pieces.push(chunk.slice(from, i));
            rows.push(parseRecord(pieces.join(""), elementLine));
            positions.push(elementLine);
            count++;
            pieces = [];
            state = "end";
          } else if (c === 125 || c === 93) depth--;
          else if (c === 44 && depth === 0) {
            pieces.push(chunk.slice(from, i));
            rows.push(parseRecord(pieces.join(""), elementLine));
            positions.push(elementLine);
            count++;
            pieces = [];
            state = "before";
            if (rows.length >= batchRows) {
              yield { rows, positions };
              rows = [];
              positions = [];
            }
          } else if (c === 10) line++;
          continue;
        }
        if (c === 10) {
          line++;
          continue;
        }
        if (c === 32 || c === 9 || c === 13) continue;
        if (state === "start") {
          if (c !== 91) throw new ImportError(`line ${line}: a JSON file must hold an array of objects (or use NDJSON)`);
          state = "before";
        } else if (state === "before") {
          if (c === 93 && count === 0) state = "end"; // []
          else {
            state = "element";
            elementLine = line;
            from = i;
            depth = 0;
            inString = false;
            escaped = false;
            i--; // scan this character again as the element's first
          }
        } else if (state === "end") {
          throw new ImportError(`line ${line}: unexpected text after the end of the JSON array`);
        }
      }
      if (state === "element") {
        pieces.push(chunk.slice(from));
      }
      if (rows.length >= batchRows) {
        yield { rows, positions };
        rows = [];
        positions = [];
      }
    }
    const final: string = state; // (TypeScript cannot follow the state through the loop)
    if (final === "start") throw new ImportError("the file is empty");
    if (final !== "end") throw new ImportError(`line ${line}: the JSON array is not closed`);
    if (rows.length) yield { rows, positions };
  }

  return {
    format: "json",
    columns: [],
    keyed: true,
    unit: "line",
    notes: [],
    batches,
    progress: () => ({ done: counter.bytes, total: size }),
    close: async () => {
      input.destroy();
    },
  };
}
