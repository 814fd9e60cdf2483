// Text-file plumbing shared by the CSV and JSON readers: encoding detection (BOM, else UTF-8
// if the start of the file is valid UTF-8, else Windows-1252, the superset of Latin-1 that
// spreadsheets write), a transcoding stream that hands UTF-8 to the parsers, and delimiter
// sniffing. Invalid UTF-8 found past the sniffed start restarts the import as Latin-1.
import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { ImportError, RestartImport } from "./source";

export type Encoding = "utf-8" | "windows-1252" | "utf-16le" | "utf-16be";

const ENCODING_NAMES: Record<string, Encoding> = {
  utf8: "utf-8",
  "utf-8": "utf-8",
  latin1: "windows-1252",
  "latin-1": "windows-1252",
  "iso-8859-1": "windows-1252",
  "iso8859-1": "windows-1252",
  cp1252: "windows-1252",
  "windows-1252": "windows-1252",
  "utf-16le": "utf-16le",
  utf16le: "utf-16le",
  "utf-16be": "utf-16be",
  utf16be: "utf-16be",
};

export function parseEncoding(name: string): Encoding {
  const e = ENCODING_NAMES[name.trim().toLowerCase()];
  if (!e) throw new ImportError(`unknown encoding "${name}" (use utf-8, latin-1 or utf-16le)`);
  return e;
}

const HEAD_BYTES = 1 << 20;

export async function readHead(file: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const fh = await fs.promises.open(file, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export interface Detected {
  encoding: Encoding;
  bom: number; // bytes of byte-order mark to skip
}

export function detectEncoding(head: Buffer, forced?: Encoding): Detected {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bom: 2 };
  if (forced) return { encoding: forced, bom: 0 };
  try {
    // stream: true tolerates a character cut at the end of the sample.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return { encoding: "utf-8", bom: 0 };
  } catch {
    return { encoding: "windows-1252", bom: 0 };
  }
}

export function decodeHead(head: Buffer, d: Detected): string {
  return new TextDecoder(d.encoding).decode(head.subarray(d.bom), { stream: true });
}

/**
 * Bytes in, UTF-8 bytes out. UTF-8 input is only validated (and passed through untouched);
 * other encodings are decoded and re-encoded. `forced` false: invalid UTF-8 asks for a
 * restart as Latin-1 rather than loading replacement characters.
 */
export class ToUtf8 extends Transform {
  private decoder: TextDecoder;
  private skip: number;
  /** UTF-8 only: the bytes of a character the last chunk cut short. */
  private carry: Buffer | null = null;

  constructor(
    private d: Detected,
    private forced: boolean,
  ) {
    super();
    this.skip = d.bom;
    this.decoder = new TextDecoder(d.encoding);
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.skip) {
      const n = Math.min(this.skip, chunk.length);
      chunk = chunk.subarray(n);
      this.skip -= n;
    }
    if (this.d.encoding !== "utf-8") {
      done(null, Buffer.from(this.decoder.decode(chunk, { stream: true }), "utf8"));
      return;
    }
    // Checked where it lies, without decoding: the reader decodes it once, later.
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = completeUtf8(bytes);
    if (!isUtf8(bytes.subarray(0, whole))) {
      done(this.invalid());
      return;
    }
    this.carry = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : null;
    done(null, bytes.subarray(0, whole));
  }

  _flush(done: TransformCallback): void {
    if (this.d.encoding === "utf-8") {
      done(this.carry ? this.invalid() : undefined); // the file ends inside a character
      return;
    }
    const text = this.decoder.decode();
    done(null, text === "" ? undefined : Buffer.from(text, "utf8"));
  }

  private invalid(): Error {
    if (this.forced) return new ImportError("the file is not valid UTF-8 (try --encoding latin-1)");
    return new RestartImport("invalid UTF-8 past the start of the file; reading it as Latin-1 (Windows-1252)", {
      encoding: "windows-1252",
    });
  }
}

/** How many bytes of `b` end on a character boundary: all but a last character cut short. */
export function completeUtf8(b: Buffer): number {
  for (let i = b.length - 1; i >= Math.max(0, b.length - 4); i--) {
    const c = b[i];
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = c < 0x80 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 1;
    return i + need > b.length ? i : b.length;
  }
  return b.length; // no lead byte in reach: invalid, and left for validation to say so
}

/** A file stream that counts the bytes it has read, for progress. */
export function countingStream(file: string, counter: { bytes: number }): Readable {
  const s = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  s.on("data", (chunk) => {
    counter.bytes += chunk.length;
  });
  return s;
}

const DELIMITERS = [",", "\t", ";", "|"];

/**
 * Picks the delimiter that splits the first lines into the same number (> 1) of fields
 * most consistently; quoted text is skipped. Falls back to a comma.
 */
export function sniffDelimiter(text: string): string {
  const lines = splitLines(text, 50);
  if (lines.length === 0) return ",";
  let best = ",";
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const first = counts[0];
    if (first === 0) continue;
    const agree = counts.filter((c) => c === first).length / counts.length;
    const score = agree * 1000 + Math.min(first, 999);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** Up to `max` whole records' worth of lines (a newline inside quotes does not end one). */
function splitLines(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && out.length < max; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\n" && !quoted) {
      const line = text.slice(start, i).replace(/\r$/, "");
      if (line.trim() !== "") out.push(line);
      start = i + 1;
    }
  }
  // The last piece may be cut mid-record; use it only when it is the whole file.
  if (out.length === 0 && text.trim() !== "") out.push(text);
  return out;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === d && !quoted) n++;
  }
  return n;
}
