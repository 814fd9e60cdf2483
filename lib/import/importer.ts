// The bulk importer: reads a file through a streaming reader, infers column types from a
// sample, creates the resource with datastore_create's own validation, and loads the rows
// through the engine's bulk path, all inside one engine transaction: a failure, Ctrl-C or a
// killed process leaves the datastore exactly as it was. No HTTP here; scripts/import.ts is
// the command line around it.
import fs from "node:fs";
import { setImmediate as tick } from "node:timers/promises";
import type { BulkLoad, DatastoreEngine, WriteAuthor } from "../datastore/engine";
import { recordWrite } from "../datastore/audit";
import { AUTO_INDEX_SAMPLE_ROWS, autoIndexes } from "../datastore/auto-index";
import { DatastoreError } from "../datastore/errors";
import { resolveType, type TypeName } from "../datastore/types";
import { loadOffThread } from "./off-thread";
import { openSource } from "./open";
import { planAppend, planNew } from "./plan";
import { renamed } from "./rename";
import { createResource, target } from "./resource";
import { DEFAULT_SAMPLE_ROWS, RowShaper, describe, withoutIds } from "./rows";
import { ImportError, ImportInterrupted, RestartImport, type Batch, type Format, type ReadOptions, type Source } from "./source";
import { optionName, type Wording } from "./wording";

export { ImportInterrupted };

export interface ImportOptions extends ReadOptions {
  name?: string;
  description?: string;
  /** Renames: column in the file → field id. Types, keys and indexes name field ids. */
  names?: Record<string, string>;
  resourceId?: string;
  private?: boolean;
  /** The new resource's full-text language (lib/datastore/text-language.ts); a replaced one
   *  keeps its own unless given. */
  language?: string;
  primaryKey?: string[];
  /** Indexes to build after the load, besides those the auto-index rule picks. */
  indexes?: string[];
  /** Apply the auto-index rule (lib/datastore/auto-index.ts) to a new resource; default true. */
  autoIndex?: boolean;
  /** Declared types by field id (any name datastore_create accepts: `int`, `text`, `timestamp`…). */
  types?: Record<string, string>;
  append?: boolean;
  /** Rebuild the resource `resourceId` from the file (resource.ts): same id, name, description,
   *  private flag, aliases, and `info` of the fields that stay, unless given here. */
  replace?: boolean;
  /** Whose words messages use: the command line's flags (default) or the upload API's. */
  wording?: Wording;
  /** Rows read before the types are decided. */
  sampleRows?: number;
  onProgress?: (p: ImportProgress) => void;
  onNotice?: (message: string) => void;
  /** Aborting stops the import between batches and rolls it back. */
  signal?: AbortSignal;
  /** Who imports, as the audit trail records it; none: the command line (no token). */
  author?: WriteAuthor;
  /** Runs inside the import's transaction as its last step: throwing rolls the import back.
   *  An upload's cancel and its import's commit are decided here, atomically (lib/upload). */
  beforeCommit?: (tx: DatastoreEngine, resourceId: string) => Promise<void>;
  /** Read and cast the rows in a worker thread while this one copies and indexes them (a new
   *  resource in a database file only); default: for files of OFF_THREAD_MIN_BYTES or more. */
  offThread?: boolean;
}

export interface ImportProgress {
  phase: "loading" | "indexing";
  rows: number;
  /** Fraction of the phase done, 0..1. */
  fraction: number;
}

export interface ImportResult {
  resourceId: string;
  name: string;
  created: boolean;
  rows: number;
  fields: { id: string; type: TypeName }[];
  format: Format;
  notes: string[];
  restarts: number;
  seconds: number;
}

const INDEX_CHUNK_ROWS = 100_000;
const NO_TOKEN: WriteAuthor = { tokenId: null, tokenName: null };
/** Files from this size load on two threads: below it a worker's start-up costs more than it saves. */
export const OFF_THREAD_MIN_BYTES = 8 * 1024 * 1024;
const MAX_RESTARTS = 20;

/** The types a user may declare: validated up front so a typo costs no reading. */
function declaredTypes(types: Record<string, string> | undefined, wording?: Wording): Record<string, TypeName> {
  const out: Record<string, TypeName> = {};
  for (const [field, name] of Object.entries(types ?? {})) {
    const t = resolveType(name);
    if (!t) throw new ImportError(`${optionName(wording, "types")}: "${name}" is not a valid field type (for "${field}")`);
    out[field] = t;
  }
  return out;
}

export async function importFile(engine: DatastoreEngine, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const started = performance.now();
  const userTypes = declaredTypes(opts.types, opts.wording);
  if (opts.append && !opts.resourceId) throw new ImportError("--append needs --resource-id: the resource to add rows to");
  if (opts.replace && (opts.append || !opts.resourceId)) throw new ImportError("replace needs a resource id, and no append");
  const widened: Record<string, TypeName> = {};
  const addColumns: string[] = [];
  let encoding = opts.encoding;
  let restarts = 0;
  for (;;) {
    const source = await openSource(file, { ...opts, encoding });
    try {
      const input = { file, read: { ...readOptions(opts), encoding }, told: new Set<string>() };
      const result = await runOnce(engine, source, opts, userTypes, widened, addColumns, input);
      return { ...result, restarts, seconds: (performance.now() - started) / 1000 };
    } catch (e) {
      if (!(e instanceof RestartImport)) throw e;
      if (restarts >= MAX_RESTARTS) throw new ImportError(`${e.reason}; gave up after ${MAX_RESTARTS} restarts (declare the types with ${optionName(opts.wording, "types")})`);
      restarts++;
      opts.onNotice?.(`${e.reason}; starting over`);
      if (e.change.encoding) encoding = e.change.encoding;
      if (e.change.addColumns) addColumns.push(...e.change.addColumns);
      Object.assign(widened, e.change.types ?? {});
    } finally {
      await source.close();
    }
  }
}

async function runOnce(
  engine: DatastoreEngine,
  source: Source,
  opts: ImportOptions,
  userTypes: Record<string, TypeName>,
  widened: Record<string, TypeName>,
  addColumns: string[],
  input: Input,
): Promise<Omit<ImportResult, "restarts" | "seconds">> {
  source = renamed(
    withoutIds(source, (m) => {
      input.told.add(m);
      opts.onNotice?.(m);
    }),
    opts.names,
    opts.wording,
  );
  const batches = source.batches();
  const sampleRows = opts.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  opts.onProgress?.({ phase: "loading", rows: 0, fraction: 0 }); // starts the clock for rows/s

  // Read the sample: these rows decide the types and are loaded first.
  const sample: Batch[] = [];
  let sampled = 0;
  while (sampled < sampleRows) {
    const next = await batches.next();
    if (next.done) break;
    sample.push(next.value);
    sampled += next.value.rows.length;
  }

  const releases: (() => Promise<void>)[] = [];
  try {
    // Without an id, the resource is made inside, its id unknown before (engine.ts transaction).
    return await engine.transaction((tx) => load(tx, source, batches, sample, opts, userTypes, widened, addColumns, input, releases), opts.resourceId ? [opts.resourceId] : []);
  } catch (e) {
    // Refused by the datastore (a bad value, a key violation, a full disk): nothing was loaded.
    // A busy store (another writer) reaches the caller as it is: trying again may succeed; so
    // does a resource that is not there (a write through an alias), answered as every write's.
    if (e instanceof DatastoreError && e.retryAfter === undefined && e.kind !== "not_found") throw new ImportError(describe(e));
    throw e;
  } finally {
    for (const release of releases) await release().catch((e) => console.error("import: cleaning up after the load failed", e));
  }
}

/** The file being read, and how: what a load worker needs to read it again, and what this
 *  thread's reader has told the user already. */
interface Input {
  file: string;
  read: ReadOptions;
  told: Set<string>;
}

function readOptions(opts: ImportOptions): ReadOptions {
  return { format: opts.format, delimiter: opts.delimiter, encoding: opts.encoding, batchRows: opts.batchRows };
}

/** The import proper, inside the transaction: everything goes through `tx`. */
async function load(
  tx: DatastoreEngine,
  source: Source,
  batches: AsyncIterator<Batch>,
  sample: Batch[],
  opts: ImportOptions,
  userTypes: Record<string, TypeName>,
  widened: Record<string, TypeName>,
  addColumns: string[],
  input: Input,
  releases: (() => Promise<void>)[],
): Promise<Omit<ImportResult, "restarts" | "seconds">> {
  const { existing, kept } = await target(tx, opts);
  const wording = opts.wording;
  const plan = existing ? planAppend(source, sample, existing, userTypes, wording) : planNew(source, sample, userTypes, widened, addColumns, wording);
  for (const k of opts.primaryKey ?? []) {
    if (!plan.columns.includes(k) && !existing?.fields.some((f) => f.id === k)) {
      throw new ImportError(`${optionName(wording, "primaryKey")}: "${k}" is not a column of the file`);
    }
  }
  const resource = existing ?? (await createResource(tx, opts, plan, kept));
  const loader = await tx.bulkLoad(resource.id, plan.columns);
  let rows = 0;
  const twoThreads = !existing && (opts.offThread ?? fs.statSync(input.file).size >= OFF_THREAD_MIN_BYTES);
  const offThread = twoThreads ? loader.offThread?.() : undefined;
  if (offThread) {
    // The worker reads the file from its start, the sample included.
    sample.length = 0;
    releases.push(offThread.release);
    rows = await loadOffThread(
      offThread,
      { file: input.file, read: input.read, names: opts.names, plan, rules: { sampleRows: opts.sampleRows, wording } },
      {
        onProgress: (n, fraction) => opts.onProgress?.({ phase: "loading", rows: n, fraction }),
        onNotice: (m) => {
          // The worker reads what this thread's reader read, and meets the same things.
          if (!input.told.has(m)) opts.onNotice?.(m);
          input.told.add(m);
        },
        signal: opts.signal,
      },
    );
  } else {
    const shaper = new RowShaper(plan, source, opts, !existing);
    const append = async (batch: Batch) => {
      const shaped = shaper.rows(batch);
      try {
        await loader.append(shaped);
      } catch (e) {
        throw shaper.failure(e, shaped, batch);
      }
      rows += shaped.length;
    };
    const report = () => {
      const p = source.progress();
      opts.onProgress?.({ phase: "loading", rows, fraction: p.total ? Math.min(1, p.done / p.total) : 0 });
    };

    for (const batch of sample) await append(batch);
    sample.length = 0;
    report();
    for (;;) {
      if (opts.signal?.aborted) throw new ImportInterrupted();
      const next = await batches.next();
      if (next.done) break;
      await append(next.value);
      report();
    }
  }

  if (opts.primaryKey?.length) {
    try {
      await tx.setPrimaryKey(resource.id, opts.primaryKey);
    } catch (e) {
      if (e instanceof DatastoreError) throw new ImportError(`${optionName(wording, "primaryKey")} ${opts.primaryKey.join(",")}: ${describe(e)}`);
      throw e;
    }
  }
  if (!offThread) await indexAll(loader, rows, opts); // parts are indexed as they are taken
  const stopIfAsked = () => {
    if (opts.signal?.aborted) throw new ImportInterrupted();
  };
  stopIfAsked();
  const indexed = await chooseIndexes(tx, resource.id, rows, !existing && opts.autoIndex !== false, opts.indexes ?? [], wording);
  if (indexed.length) {
    opts.onNotice?.(`indexing ${indexed.join(", ")} for filters`);
    const current = (await tx.getResource(resource.id))!.indexes;
    await tx.setIndexes(resource.id, [...current, ...indexed.filter((f) => !current.some((ix) => ix.length === 1 && ix[0] === f)).map((f) => [f])]);
  }
  stopIfAsked();
  await loader.finish();
  stopIfAsked(); // the last moment a Ctrl-C can still leave nothing behind
  const done = (await tx.getResource(resource.id))!;
  const mode = existing ? "append" : kept ? "replace" : "new";
  await recordWrite(tx, opts.author ?? NO_TOKEN, { action: "import", resourceId: done.id, rows, detail: { mode, format: source.format } });
  await opts.beforeCommit?.(tx, done.id);
  return {
    resourceId: done.id,
    name: done.name,
    created: !existing && !kept,
    rows,
    fields: plan.columns.map((c, i) => ({ id: c, type: plan.types[i] })),
    format: source.format,
    notes: source.notes,
  };
}

/** The declared indexes plus, for a new resource, those the auto-index rule picks. */
async function chooseIndexes(tx: DatastoreEngine, id: string, rows: number, auto: boolean, declared: string[], wording?: Wording): Promise<string[]> {
  const fields = (await tx.getResource(id))!.fields;
  for (const f of declared) {
    if (!fields.some((x) => x.id === f)) throw new ImportError(`${optionName(wording, "index")}: "${f}" is not a column of the file`);
  }
  const picked = auto ? autoIndexes(fields, await tx.fieldStats(id, AUTO_INDEX_SAMPLE_ROWS), rows, tx.learnsIndexes) : [];
  return [...new Set([...declared, ...picked])];
}

async function indexAll(loader: BulkLoad, rows: number, opts: ImportOptions): Promise<void> {
  opts.onProgress?.({ phase: "indexing", rows: 0, fraction: 0 });
  for (;;) {
    const left = await loader.index(INDEX_CHUNK_ROWS);
    opts.onProgress?.({ phase: "indexing", rows: rows - left, fraction: rows ? (rows - left) / rows : 1 });
    await tick(); // let Ctrl-C and the progress bar through between chunks
    if (opts.signal?.aborted) throw new ImportInterrupted();
    if (left === 0) return;
  }
}
