// `npm run import -- FILE [--name NAME] [--resource-id ID] [--private] [--primary-key F,…]
//  [--types field:type,…] [--language L] [--append]`: loads a CSV/TSV, JSON, NDJSON, .xlsx or Parquet file into
// DATASTORE_DB as one transaction (a failed, interrupted or killed import loads nothing).
import path from "node:path";
import { parseArgs } from "node:util";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { DatastoreError } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";
import { ImportInterrupted, importFile } from "../lib/import/importer";
import { ProgressDisplay, summaryLine } from "../lib/import/progress";
import { FORMATS, ImportError, type Format } from "../lib/import/source";

const USAGE = `usage: npm run import -- FILE [options]
  --name NAME             name of the new resource (default: the file name)
  --resource-id ID        create the resource with this id (or, with --append, add to it)
  --private               make the new resource private: readable only with a token
  --language L            its full-text language: english (default), french, german, simple…
  --primary-key F,…       unique key over these fields (built after the load)
  --index F,…             index these fields for filters and sorting (built after the load)
  --no-auto-index         skip the auto-index rule (short, repeating text fields; docs/performance.md "Indexes")
  --types field:type,…    declare types instead of inferring them (int, numeric, text, timestamp…)
  --append                add the rows to the existing resource --resource-id
  --format FMT            ${FORMATS.join("|")} (default: from the extension or contents)
  --delimiter C           CSV field delimiter (default: sniffed; "\\t" for tab)
  --encoding E            utf-8 | latin-1 | utf-16le (default: detected)
  --sample-rows N         rows read to infer types (default 10000)
  --progress              print progress lines even when stderr is not a terminal
  --quiet                 no progress, only the summary
The database is DATASTORE_DB (default data/datastore.db).`;

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parseTypes(spec: string | undefined): Record<string, string> | undefined {
  if (!spec) return undefined;
  const out: Record<string, string> = {};
  for (const item of spec.split(",")) {
    // The type is after the last colon: field names may hold colons, type names do not.
    const at = item.lastIndexOf(":");
    if (at <= 0) usage(`--types: expected field:type, got "${item}"`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      "resource-id": { type: "string" },
      private: { type: "boolean" },
      language: { type: "string" },
      "primary-key": { type: "string" },
      index: { type: "string" },
      "no-auto-index": { type: "boolean" },
      types: { type: "string" },
      append: { type: "boolean" },
      format: { type: "string" },
      delimiter: { type: "string" },
      encoding: { type: "string" },
      "sample-rows": { type: "string" },
      progress: { type: "boolean" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (e) {
  usage((e as Error).message);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) usage(positionals.length ? "give one file" : "a FILE is required");
const file = positionals[0];
if (values.format && !FORMATS.includes(values.format as Format)) usage(`--format must be one of ${FORMATS.join(", ")}`);
const sampleRows = values["sample-rows"] ? Number(values["sample-rows"]) : undefined;
if (sampleRows !== undefined && !(Number.isInteger(sampleRows) && sampleRows > 0)) usage("--sample-rows must be a positive integer");
const delimiter = values.delimiter === "\\t" || values.delimiter === "tab" ? "\t" : values.delimiter;

const progress = new ProgressDisplay(
  process.stderr,
  values.quiet ? "off" : process.stderr.isTTY ? "bar" : values.progress ? "lines" : "off",
);
const abort = new AbortController();
let signals = 0;
const onSignal = () => {
  // The first Ctrl-C stops at the next batch and rolls back; a second one exits at once
  // (the datastore discards the unfinished transaction when it is next opened).
  if (++signals > 1) process.exit(130);
  abort.abort();
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

async function main(): Promise<void> {
  let engine: DatastoreEngine;
  try {
    // No read workers: the import writes, and reads only inside its own transaction.
    engine = await openEngine({ readWorkers: 0 });
  } catch (e) {
    console.error(`import failed: ${(e as Error).message}`); // DatastoreUnavailable says what to do
    process.exit(1);
  }
  try {
    const result = await importFile(engine, file, {
      name: values.name ?? path.basename(file, path.extname(file)),
      resourceId: values["resource-id"],
      private: values.private,
      language: values.language,
      primaryKey: values["primary-key"]?.split(",").map((s) => s.trim()).filter(Boolean),
      indexes: values.index?.split(",").map((s) => s.trim()).filter(Boolean),
      autoIndex: !values["no-auto-index"],
      types: parseTypes(values.types),
      append: values.append,
      format: values.format as Format | undefined,
      delimiter,
      encoding: values.encoding,
      sampleRows,
      signal: abort.signal,
      onProgress: (p) => progress.update(p),
      onNotice: (m) => {
        progress.end();
        console.error(m);
      },
    });
    progress.end();
    await engine.close();
    console.log(summaryLine(file, result));
  } catch (e) {
    progress.end();
    await engine.close().catch(() => undefined);
    if (e instanceof ImportInterrupted) {
      console.error(`import ${e.message}`);
      process.exit(130);
    }
    if (e instanceof ImportError) {
      console.error(`import failed: ${e.message}; nothing was loaded`);
      process.exit(1);
    }
    if (e instanceof DatastoreError) {
      // Busy with another writer (the server, another import): nothing was written.
      console.error(`import failed: ${Object.values(e.details).flat().join("; ")}; nothing was loaded`);
      process.exit(1);
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      console.error(`import failed: no such file: ${file}`);
      process.exit(1);
    }
    if (typeof code === "string" && code.startsWith("E")) {
      console.error(`import failed: ${(e as Error).message}`);
      process.exit(1);
    }
    throw e;
  }
}

void main();
