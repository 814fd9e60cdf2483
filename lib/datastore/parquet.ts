// The dump's Parquet: typed columns (int2/int4 INT32, int8 and _id INT64, numbers DOUBLE, bool
// BOOLEAN, date DATE, timestamp TIMESTAMP and time TIME in microseconds, not adjusted to UTC as
// the datastore keeps them, text STRING, json and arrays JSON), Snappy-compressed, written by
// hyparquet-writer a row group at a time: the bytes of each group go out as it is made, and its
// footer entry is kept as bytes, so memory holds one group, however big the table.
import type { RowGroup } from "hyparquet";
import { ByteWriter, ParquetWriter, type SchemaElement } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import type { ColumnInfo } from "./formats";

/** A row group's size in values (rows × columns). The writer holds a group several times over
 *  while it encodes it (the rows, their converted columns, slices, dictionaries, pages), and the
 *  rows it waits on live long enough to reach V8's old space: the group's size is the dump's
 *  peak memory (docs/performance.md). */
const GROUP_VALUES = 60_000;
/** A group also ends once its text holds this many UTF-16 units (long text fields). */
const GROUP_TEXT = 4 << 20;
/** Rows a group holds however many columns (long text aside): each group's metadata, per
 *  column, is kept for the footer. */
const MIN_GROUP_ROWS = 1000;

/** The rows of a full row group of `columns` columns (short text). */
export function groupRows(columns: number): number {
  return Math.max(MIN_GROUP_ROWS, Math.floor(GROUP_VALUES / Math.max(1, columns)));
}

type Element = SchemaElement;

function element(c: ColumnInfo): Element {
  const o = { name: c.id, repetition_type: "OPTIONAL" } as const;
  switch (c.type) {
    case "int2":
    case "int4":
      return { ...o, type: "INT32" };
    case "int8":
    case "int":
      return { ...o, type: "INT64" };
    case "float4":
    case "float8":
    case "numeric":
    case "float":
      return { ...o, type: "DOUBLE" };
    case "bool":
      return { ...o, type: "BOOLEAN" };
    case "date":
      return { ...o, type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" } };
    case "timestamp":
      return { ...o, type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: false, unit: "MICROS" } };
    case "time":
      return { ...o, type: "INT64", logical_type: { type: "TIME", isAdjustedToUTC: false, unit: "MICROS" } };
    case "text":
      return { ...o, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
    default:
      return { ...o, type: "BYTE_ARRAY", converted_type: "JSON", logical_type: { type: "JSON" } };
  }
}

/** Microseconds since midnight of "HH:MM:SS[.ffffff]", or null. */
function timeMicros(text: string): bigint | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return null;
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  return BigInt(seconds) * 1_000_000n + BigInt((m[4] ?? "").padEnd(6, "0") || "0");
}

/** Past this many milliseconds from 1970 (about 285 years), microseconds would lose precision
 *  as a double: the BigInt arithmetic takes over. */
const EXACT_MS = (Number.MAX_SAFE_INTEGER - 999_999) / 1000;

/** Microseconds since 1970 of an ISO timestamp without zone, or null. */
function timestampMicros(text: string): bigint | null {
  const m = /^(.*?[T ]\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1].replace(" ", "T")}Z`);
  if (!Number.isFinite(ms)) return null;
  const micros = m[2] ? Number(m[2].padEnd(6, "0")) : 0;
  return Math.abs(ms) < EXACT_MS ? BigInt(ms * 1000 + micros) : BigInt(ms) * 1000n + BigInt(micros);
}

function daysOf(text: string): number | null {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) ? Math.round(ms / 86_400_000) : null;
}

/** A value as its column's physical type holds it (what does not fit: null). */
function convert(c: ColumnInfo, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (c.type) {
    case "int2":
    case "int4":
      return Number(v);
    case "int8":
    case "int":
      return typeof v === "bigint" ? v : BigInt(typeof v === "number" ? Math.trunc(v) : String(v));
    case "float4":
    case "float8":
    case "numeric":
    case "float":
      return Number(v);
    case "bool":
      return Boolean(v);
    case "date":
      return typeof v === "string" ? daysOf(v) : null;
    case "timestamp":
      return typeof v === "string" ? timestampMicros(v) : null;
    case "time":
      return typeof v === "string" ? timeMicros(v) : null;
    case "text":
      return String(v);
    default:
      return v;
  }
}

/** A row group's footer entry, as the bytes the footer will hold: a group's metadata as objects
 *  (a dozen BigInts and objects per column) kept for the footer would be live memory that grows
 *  with the file, and V8 lets its heap grow to a few times what is live. The bytes are cut out of
 *  the library's own footer for that group alone, so the encoding stays the library's. */
function footer(schema: Element[], numRows: bigint, groups: RowGroup[], createdBy: string): Uint8Array {
  const w = new ByteWriter();
  writeMetadata(w, { version: 2, schema, num_rows: numRows, row_groups: groups, created_by: createdBy, metadata_length: 0 });
  // without the metadata's length, which writeMetadata appends
  return w.getBytes().subarray(0, w.offset - 4);
}

/** A footer with no row groups and one with `group`: where they part is the row groups' list
 *  header (empty, or of one struct), what follows the group is the rest of the footer. */
function split(schema: Element[], numRows: bigint, group: RowGroup, createdBy: string) {
  const none = footer(schema, numRows, [], createdBy);
  const one = footer(schema, numRows, [group], createdBy);
  let at = 0;
  while (none[at] === one[at]) at++;
  // one struct in the list: (1 << 4) | STRUCT (12)
  if (one[at] !== 0x1c) throw new Error("parquet: unexpected footer layout");
  const rest = none.length - at - 1;
  return { head: none.subarray(0, at), group: one.slice(at + 1, one.length - rest), rest: none.subarray(at + 1) };
}

const CREATED_BY = "Datastore Explorer";

/** The file in pieces: `head` (the magic bytes), `rows` for each chunk (the bytes of the row
 *  groups it filled, else none), then `tail` (the last group and the footer). */
export function parquetWriter(cols: ColumnInfo[]) {
  const schema: Element[] = [{ name: "root", num_children: cols.length }, ...cols.map(element)];
  const file = new ParquetWriter({ writer: new ByteWriter(), schema, codec: "SNAPPY", createdBy: CREATED_BY });
  const full = groupRows(cols.length);
  // the pending group as columns of converted values: the rows themselves are let go, and a
  // text that comes again is held once (each row brings its own copy from the read worker)
  let columns: unknown[][] = cols.map(() => []);
  let seen: Map<string, unknown>[] = cols.map(() => new Map());
  let pending = 0;
  let text = 0;
  /** The written groups' footer entries, and the last group's metadata (to find them in the footer). */
  const groups: Uint8Array[] = [];
  let last: RowGroup | undefined;
  let written = 0n;
  // what was written since the last piece; the next goes to a new buffer (a used one keeps its
  // largest size), its offsets still counted from the file's start
  let size = 1024;
  const take = (): Uint8Array => {
    const out = file.writer.getBytes();
    if (!out.length) return out;
    size = Math.max(size, out.length);
    const next = new ByteWriter(size);
    next.offset = file.writer.offset;
    file.writer = next;
    return out;
  };
  const group = () => {
    if (!pending) return;
    file.write({ columnData: cols.map((c, j) => ({ name: c.id, data: columns[j], offsetIndex: false })), rowGroupSize: pending });
    columns = cols.map(() => []);
    seen = cols.map(() => new Map());
    written += BigInt(pending);
    pending = 0;
    text = 0;
    last = file.row_groups.pop()!;
    file.pendingIndexes.length = 0;
    groups.push(split(schema, written, last, CREATED_BY).group);
  };
  return {
    head: take,
    rows(rows: unknown[][]): Uint8Array {
      for (const r of rows) {
        for (let j = 0; j < cols.length; j++) {
          const v = r[j];
          if (typeof v !== "string") {
            columns[j].push(convert(cols[j], v));
            continue;
          }
          text += v.length;
          let c = seen[j].get(v);
          if (c === undefined) seen[j].set(v, (c = convert(cols[j], v)));
          columns[j].push(c);
        }
        if (++pending >= full || text >= GROUP_TEXT) group();
      }
      return take();
    },
    tail(): Uint8Array {
      group();
      if (!last) {
        file.finish();
        return take();
      }
      // the footer as the library writes it, its row groups those kept as bytes
      const { head, rest } = split(schema, written, last, CREATED_BY);
      const w = file.writer;
      const start = w.offset;
      w.appendBytes(head);
      if (groups.length < 15) w.appendUint8((groups.length << 4) | 12);
      else {
        w.appendUint8(0xfc);
        w.appendVarInt(groups.length);
      }
      for (const g of groups) w.appendBytes(g);
      w.appendBytes(rest);
      w.appendUint32(w.offset - start);
      w.appendUint32(0x31524150); // PAR1
      return take();
    },
  };
}
