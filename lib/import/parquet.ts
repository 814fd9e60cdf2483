// Parquet through hyparquet (+ hyparquet-compressors for ZSTD, Snappy, Brotli, LZ4, gzip),
// one row group at a time, so memory holds one decoded row group. Types come from the
// file's schema rather than from sampling; values are turned into what the casts accept
// (BigInt → number, timestamps → ISO text) column by column.
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema, type SchemaElement, type SchemaTree } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import type { TypeName } from "../datastore/types";
import { DEFAULT_BATCH_ROWS, ImportError, type Batch, type ReadOptions, type Source } from "./source";

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const MIN = -MAX;

function isoSeconds(ms: number): string | null {
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 19);
}

// Timestamps become `YYYY-MM-DDTHH:MM:SS` text straight from the decoder (no Date objects).
const parsers = {
  timestampFromMilliseconds: (v: bigint) => (v == null ? null : isoSeconds(Number(v))),
  timestampFromMicroseconds: (v: bigint) => (v == null ? null : isoSeconds(Number(v / 1000n))),
  timestampFromNanoseconds: (v: bigint) => (v == null ? null : isoSeconds(Number(v / 1000000n))),
  dateFromDays: (v: number) => (v == null ? null : new Date(v * 86400000).toISOString().slice(0, 10)),
};

/** The datastore type for a top-level column of the schema. */
export function parquetColumnType(node: SchemaTree): TypeName {
  const el: SchemaElement = node.element;
  if (node.children.length) return "json"; // lists, maps, structs arrive as JSON values
  const lt = el.logical_type?.type;
  const ct = el.converted_type;
  if (lt === "STRING" || lt === "ENUM" || lt === "UUID" || ct === "UTF8" || ct === "ENUM") return "text";
  if (lt === "JSON" || ct === "JSON" || lt === "VARIANT" || lt === "GEOMETRY" || lt === "GEOGRAPHY") return "json";
  if (lt === "DATE" || ct === "DATE") return "date";
  if (lt === "TIMESTAMP" || ct === "TIMESTAMP_MILLIS" || ct === "TIMESTAMP_MICROS" || el.type === "INT96") return "timestamp";
  if (lt === "DECIMAL" || ct === "DECIMAL") return "numeric";
  if (lt === "FLOAT16") return "float8";
  if (lt === "INTEGER") {
    const { bitWidth, isSigned } = el.logical_type as { bitWidth: number; isSigned: boolean };
    return bitWidth < 32 || (bitWidth === 32 && isSigned) ? "int4" : "int8";
  }
  if (ct === "UINT_32" || ct === "UINT_64" || ct === "INT_64") return "int8";
  switch (el.type) {
    case "BOOLEAN":
      return "bool";
    case "INT32":
      return "int4";
    case "INT64":
      return "int8";
    case "FLOAT":
    case "DOUBLE":
      return "float8";
    default:
      return "text"; // BYTE_ARRAY without annotation (decoded as UTF-8), TIME, INTERVAL…
  }
}

/** One value as the casts expect it: numbers, strings, booleans, JSON values, or null. */
function plain(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case "bigint":
      return v <= MAX && v >= MIN ? Number(v) : v.toString();
    case "object":
      if (v instanceof Date) return isoSeconds(v.getTime());
      if (v instanceof Uint8Array) return Buffer.from(v).toString("hex");
      if (Array.isArray(v)) return v.map(plain);
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, plain(x)]));
    case "number":
      return Number.isFinite(v) ? v : null; // NaN and ±Infinity have no JSON form
    default:
      return v;
  }
}

/** A decoded column chunk as a plain array, converting only where the decoder's type needs it. */
function plainColumn(data: ArrayLike<unknown>): unknown[] {
  const n = data.length;
  const out = new Array<unknown>(n);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (let i = 0; i < n; i++) {
      const v = data[i] as bigint;
      out[i] = v <= MAX && v >= MIN ? Number(v) : v.toString();
    }
  } else if (ArrayBuffer.isView(data)) {
    for (let i = 0; i < n; i++) out[i] = data[i];
  } else {
    for (let i = 0; i < n; i++) {
      const v = data[i];
      out[i] = typeof v === "string" ? v : plain(v);
    }
  }
  return out;
}

export async function openParquet(file: string, opts: ReadOptions): Promise<Source> {
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  let buffer;
  let metadata;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (e) {
    throw new ImportError(`not a readable Parquet file: ${(e as Error).message}`);
  }
  const schema = parquetSchema(metadata);
  const columns = schema.children.map((c) => c.element.name);
  const declared = schema.children.map(parquetColumnType);
  const total = Number(metadata.num_rows);
  let done = 0;
  const file_ = buffer;
  const meta = metadata;

  async function* batches(): AsyncGenerator<Batch> {
    let groupStart = 0;
    for (const group of meta.row_groups) {
      const n = Number(group.num_rows);
      const groupEnd = groupStart + n;
      const data: unknown[][] = columns.map(() => new Array(n).fill(null));
      await parquetRead({
        file: file_,
        metadata: meta,
        compressors,
        parsers,
        rowStart: groupStart,
        rowEnd: groupEnd,
        onChunk: (chunk) => {
          const c = columns.indexOf(chunk.columnName);
          if (c < 0) return;
          const values = plainColumn(chunk.columnData as ArrayLike<unknown>);
          const target = data[c];
          const from = Math.max(chunk.rowStart, groupStart);
          const to = Math.min(chunk.rowEnd, groupEnd);
          for (let r = from; r < to; r++) target[r - groupStart] = values[r - chunk.rowStart];
        },
      }).catch((e: Error) => {
        throw new ImportError(`row ${groupStart + 1}: cannot decode this row group: ${e.message}`);
      });
      for (let start = 0; start < n; start += batchRows) {
        const end = Math.min(n, start + batchRows);
        const rows: unknown[][] = new Array(end - start);
        const positions = new Float64Array(end - start);
        for (let r = start; r < end; r++) {
          const row = new Array(columns.length);
          for (let c = 0; c < columns.length; c++) row[c] = data[c][r] ?? null;
          rows[r - start] = row;
          positions[r - start] = groupStart + r + 1;
        }
        done = groupStart + end;
        yield { rows, positions };
      }
      groupStart = groupEnd;
    }
  }

  return {
    format: "parquet",
    columns,
    keyed: false,
    declared,
    unit: "row",
    notes: [],
    batches,
    progress: () => ({ done, total }),
    close: async () => {}, // asyncBufferFromFile opens the file per read: nothing stays open
  };
}
