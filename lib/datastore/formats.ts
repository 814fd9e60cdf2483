// Record renderings shared by datastore_search's records_format and the dump endpoint:
// PostgreSQL COPY-style CSV/TSV lines, the XML of CKAN's dump (contract §6.6, §9), and a row as a
// JSON object (the dump's ndjson and GeoJSON properties).
import { hasBrand, mark } from "../brand";
import { toText, type TypeName } from "./types";

export interface ColumnInfo {
  id: string;
  type: TypeName | "int" | "float";
}

/** One cell as PG text: typed renderings from types.ts; `_id` and rank as plain numbers. */
function cellText(col: ColumnInfo, value: unknown): string | null {
  if (col.type === "int" || col.type === "float") return value === null ? null : String(value);
  return toText(col.type, value);
}

/** A COPY … CSV/TSV line: quote only when needed, NULL as an empty unquoted field, "" as `""`. */
export function delimitedLine(cells: (string | null)[], delimiter: string): string {
  return (
    cells
      .map((c) => {
        if (c === null) return "";
        if (c === "" || c.includes(delimiter) || c.includes('"') || c.includes("\n") || c.includes("\r")) {
          return `"${c.replace(/"/g, '""')}"`;
        }
        return c;
      })
      .join(delimiter) + "\n"
  );
}

export function rowLine(cols: ColumnInfo[], row: unknown[], delimiter: string): string {
  return delimitedLine(
    row.map((v, i) => cellText(cols[i], v)),
    delimiter,
  );
}

export type RecordsFormat = "objects" | "lists" | "csv" | "tsv";

/**
 * A JSON value already written out as UTF-8 text: a search's `records`, encoded where the
 * rows were read (a read worker), so a 32,000-row page crosses to the server as one buffer
 * and never becomes 32,000 objects there. The response envelope splices it in as it is.
 */
export class EncodedJson {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "EncodedJson");
  }

  constructor(readonly bytes: Uint8Array) {
    mark(this, "EncodedJson");
  }
}

/** The records writer's working buffer, kept for the next page (one per thread). Dead
 *  buffers are freed only when V8 collects them, so a new buffer per chunk would leave a page's
 *  worth of garbage behind each time, piling up until a collection comes. */
let scratch = new Uint8Array(1 << 20);
const SCRATCH_KEEP = 64 << 20;

/** Rows JSON-encoded together: one JSON.stringify of many rows is several times faster than
 *  one per value. A batch holds up to this many rows, and about BATCH_BYTES of text once the
 *  rows' size is known (the first batch is small), so very wide rows never make one huge string. */
const BATCH_ROWS = 512;
const FIRST_BATCH_ROWS = 16;
const BATCH_BYTES = 256 * 1024;

/**
 * Writes `records` in a records_format as UTF-8 JSON, in batches of rows, into one reused
 * buffer, so a big page is held once, as bytes. Objects keep the fields' order.
 */
export class RecordsWriter {
  private buf = scratch;
  private pos = 0;
  private rows = 0;
  private encoder = new TextEncoder();
  /** Rows waiting to be encoded together, and how many make a batch now. */
  private batch: unknown[][] = [];
  private batchRows = FIRST_BATCH_ROWS;
  /** A batch as JSON text, without its brackets (JSON formats); else one row's text. */
  private encode: (rows: unknown[][]) => string;
  private sep: string;

  constructor(format: RecordsFormat, cols: ColumnInfo[]) {
    const text = format === "csv" || format === "tsv";
    this.sep = text ? "" : ",";
    this.write(text ? '"' : "[");
    if (text) {
      const delimiter = format === "csv" ? "," : "\t";
      // Pieces of one JSON string: each escaped on its own, without its quotes.
      this.encode = (rows) => rows.map((row) => JSON.stringify(rowLine(cols, row, delimiter)).slice(1, -1)).join("");
    } else if (format === "lists") {
      this.encode = (rows) => JSON.stringify(rows).slice(1, -1);
    } else {
      const { object, text } = rowObjects(cols);
      this.encode = object ? (rows) => JSON.stringify(rows.map(object)).slice(1, -1) : (rows) => rows.map(text).join(",");
    }
  }

  private write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.buf.length - this.pos < text.length * 3) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + text.length * 3));
      bigger.set(this.buf.subarray(0, this.pos));
      this.buf = bigger;
      if (bigger.length <= SCRATCH_KEEP) scratch = bigger;
    }
    this.pos += this.encoder.encodeInto(text, this.buf.subarray(this.pos)).written;
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const text = this.encode(this.batch);
    const perRow = text.length / this.batch.length;
    this.batchRows = Math.max(1, Math.min(BATCH_ROWS, Math.floor(BATCH_BYTES / Math.max(1, perRow))));
    this.write((this.rows ? this.sep : "") + text);
    this.rows += this.batch.length;
    this.batch = [];
  }

  add(row: unknown[]): void {
    this.batch.push(row);
    if (this.batch.length >= this.batchRows) this.flush();
  }

  /** The records as bytes in a buffer of their own (it can move to another thread). */
  finish(): Uint8Array {
    this.flush();
    this.write(this.sep ? "]" : '"');
    return this.buf.slice(0, this.pos);
  }
}

/** `records` in a records_format, as UTF-8 JSON text. */
export function encodeRecords(format: RecordsFormat, cols: ColumnInfo[], rows: unknown[][]): Uint8Array {
  const writer = new RecordsWriter(format, cols);
  for (const row of rows) writer.add(row);
  return writer.finish();
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped rather than emitted invalid.
  return s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/** An XML element name from a field id: invalid name characters become `_`. */
function xmlName(id: string): string {
  const name = id.replace(/[^\p{L}\p{N}_.-]/gu, "_");
  return /^[\p{L}_]/u.test(name) ? name : `_${name}`;
}

function xmlValue(value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((v, i) => `<value key="${i}">${xmlValue(v)}</value>`).join("");
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => `<value key="${xmlEscape(k)}">${xmlValue(v)}</value>`)
      .join("");
  }
  return value === null ? "" : xmlEscape(String(value));
}

/** One `<row>` of CKAN's XML dump; `_id` becomes an attribute, NULLs `xsi:nil`. */
export function xmlRow(cols: ColumnInfo[], row: unknown[]): string {
  let attrs = "";
  let body = "";
  cols.forEach((col, i) => {
    const v = row[i];
    if (col.id === "_id") {
      attrs = ` _id="${xmlEscape(String(v))}"`;
      return;
    }
    const name = xmlName(col.id);
    if (v === null || v === undefined) body += `<${name} xsi:nil="true"/>`;
    else if (col.type === "bool") body += `<${name}>${v ? "True" : "False"}</${name}>`;
    else body += `<${name}>${xmlValue(v)}</${name}>`;
  });
  return `<row${attrs}>${body}</row>\n`;
}

/** An object's key that V8 would not keep in its place (integer-like keys come first) or
 *  that would set the prototype: such fields are written value by value instead. */
const UNSAFE_KEY = /^(?:0|[1-9]\d{0,9})$|^__proto__$/;

/**
 * A row as a JSON object, its keys in the columns' order, a field asked for twice one key (as
 * in datastore_search's records), leaving out the columns `skip` names: `object` builds it for
 * JSON.stringify (one call for a whole object is several times faster than one per value), or
 * is absent when a key would not keep its place; `text` writes its JSON key by key.
 */
export function rowObjects(cols: ColumnInfo[], skip: number[] = []): { object?: (row: unknown[]) => Record<string, unknown>; text: (row: unknown[]) => string } {
  const at = cols.flatMap((c, i) => (!skip.includes(i) && cols.findIndex((d) => d.id === c.id) === i ? [i] : []));
  const ids = at.map((i) => cols[i].id);
  const keys = ids.map((id, n) => `${n ? "," : "{"}${JSON.stringify(id)}:`);
  const text = (row: unknown[]) => {
    let out = "";
    for (let k = 0; k < at.length; k++) out += keys[k] + (JSON.stringify(row[at[k]]) ?? "null");
    return at.length ? `${out}}` : "{}";
  };
  if (ids.some((id) => UNSAFE_KEY.test(id))) return { text };
  const object = (row: unknown[]) => {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < at.length; k++) o[ids[k]] = row[at[k]] ?? null;
    return o;
  };
  return { object, text };
}

/** A row as a JSON object's text (rowObjects). */
export function objectJson(cols: ColumnInfo[], skip: number[] = []): (row: unknown[]) => string {
  const { object, text } = rowObjects(cols, skip);
  return object ? (row) => JSON.stringify(object(row)) : text;
}
