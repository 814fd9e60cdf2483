// Picks the reader for a file: --format if given, else the extension, else the first bytes
// (PK zip → xlsx, PAR1 → parquet, `[` → JSON array, `{` → NDJSON, anything else CSV).
import path from "node:path";
import { FORMATS, ImportError, type Format, type ReadOptions, type Source } from "./source";
import { readHead } from "./text";

const EXTENSIONS: Record<string, Format> = {
  ".csv": "csv",
  ".txt": "csv",
  ".tsv": "tsv",
  ".tab": "tsv",
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
  ".xlsx": "xlsx",
  ".parquet": "parquet",
  ".pq": "parquet",
};

export async function detectFormat(file: string): Promise<Format> {
  const head = await readHead(file, 4096);
  if (head.subarray(0, 4).toString("latin1") === "PAR1") return "parquet";
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return "xlsx";
  const byExt = EXTENSIONS[path.extname(file).toLowerCase()];
  if (byExt === "json") {
    // A .json file holding one object per line is NDJSON.
    const text = head.toString("utf8").replace(/^\uFEFF/, "").trimStart();
    return text.startsWith("{") ? "ndjson" : "json";
  }
  if (byExt) return byExt;
  const text = head.toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("[")) return "json";
  if (text.startsWith("{")) return "ndjson";
  return "csv";
}

export async function openSource(file: string, opts: ReadOptions): Promise<Source> {
  const format = opts.format ?? (await detectFormat(file));
  if (!FORMATS.includes(format)) throw new ImportError(`unknown format "${format}" (one of ${FORMATS.join(", ")})`);
  // Readers load on demand: exceljs alone takes a noticeable part of a second to load.
  switch (format) {
    case "csv":
    case "tsv":
      return (await import("./csv")).openCsv(file, opts, format === "tsv");
    case "json":
      return (await import("./json")).openJsonArray(file, opts);
    case "ndjson":
      return (await import("./json")).openNdjson(file, opts);
    case "xlsx":
      return (await import("./xlsx")).openXlsx(file, opts);
    case "parquet":
      return (await import("./parquet")).openParquet(file, opts);
  }
}
