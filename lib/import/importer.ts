// The bulk importer: reads a file through a streaming reader, infers column types from a
// sample, creates the resource with datastore_create's own validation, and loads the rows
// through the engine's bulk path, all inside one engine transaction: a failure, Ctrl-C or a
// killed process leaves the datastore exactly as it was. No HTTP here; scripts/import.ts is
// the command line around it.
import fs from "node:fs";
import { setImmediate as tick } from "node:timers/promises";
import { TokenStore } from "../auth/tokens";
import { datastoreCreate } from "../datastore/actions/datastore-create";
import type { ActionContext } from "../datastore/context";
import type { BulkLoad, DatastoreEngine, Resource } from "../datastore/engine";
import { AUTO_INDEX_SAMPLE_ROWS, autoIndexes } from "../datastore/auto-index";
import { DatastoreError } from "../datastore/errors";
import { resolveType, type TypeName } from "../datastore/types";
import { TypeSampler } from "./infer";
import { loadOffThread } from "./off-thread";
import { openSource } from "./open";
import { DEFAULT_SAMPLE_ROWS, RowShaper, describe, toPositional, withoutIds, type Plan } from "./rows";
import { ImportError, ImportInterrupted, RestartImport, type Batch, type Format, type ReadOptions, type Source } from "./source";

export { ImportInterrupted };

export interface ImportOptions extends ReadOptions {
  name?: string;
  resourceId?: string;
  private?: boolean;
  primaryKey?: string[];
  /** Indexes to build after the load, besides those the auto-index rule picks. */
  indexes?: string[];
  /** Apply the auto-index rule (lib/datastore/auto-index.ts) to a new resource; default true. */
  autoIndex?: boolean;
  /** Declared types by field id (any name datastore_create accepts: `int`, `text`, `timestamp`…). */
  types?: Record<string, string>;
  append?: boolean;
  /** Rows read before the types are decided. */
  sampleRows?: number;
  onProgress?: (p: ImportProgress) => void;
  onNotice?: (message: string) => void;
  /** Aborting stops the import between batches and rolls it back. */
  signal?: AbortSignal;
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
/** Files from this size load on two threads: below it a worker's start-up costs more than it saves. */
export const OFF_THREAD_MIN_BYTES = 8 * 1024 * 1024;
const MAX_RESTARTS = 20;

/** The types a user may declare: validated up front so a typo costs no reading. */
function declaredTypes(types: Record<string, string> | undefined): Record<string, TypeName> {
  const out: Record<string, TypeName> = {};
  for (const [field, name] of Object.entries(types ?? {})) {
    const t = resolveType(name);
    if (!t) throw new ImportError(`--types: "${name}" is not a valid field type (for "${field}")`);
    out[field] = t;
  }
  return out;
}

export async function importFile(engine: DatastoreEngine, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const started = performance.now();
  const userTypes = declaredTypes(opts.types);
  if (opts.append && !opts.resourceId) throw new ImportError("--append needs --resource-id: the resource to add rows to");
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
      if (restarts >= MAX_RESTARTS) throw new ImportError(`${e.reason}; gave up after ${MAX_RESTARTS} restarts (declare the types with --types)`);
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
  source = withoutIds(source, (m) => {
    input.told.add(m);
    opts.onNotice?.(m);
  });
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
    return await engine.transaction((tx) => load(tx, source, batches, sample, opts, userTypes, widened, addColumns, input, releases));
  } catch (e) {
    // Refused by the datastore (a bad value, a key violation, a full disk): nothing was loaded.
    // A busy store (another writer) reaches the caller as it is: trying again may succeed.
    if (e instanceof DatastoreError && e.retryAfter === undefined) throw new ImportError(describe(e));
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
  const ctx: ActionContext = { engine: tx, tokens: new TokenStore(tx.tokens), user: { scope: "admin", name: "import" } };
  let existing: Resource | undefined;
  if (opts.resourceId) {
    existing = await tx.getResource(opts.resourceId);
    if (existing && existing.id !== opts.resourceId) {
      throw new ImportError(`"${opts.resourceId}" is an alias of ${existing.id}; give the resource id`);
    }
    if (existing && !existing.active) existing = undefined; // its table was dropped: created again
    if (existing && !opts.append) throw new ImportError(`resource ${opts.resourceId} already exists; add --append to add rows to it`);
    if (!existing && opts.append) throw new ImportError(`--append: resource ${opts.resourceId} was not found`);
  }

  const plan = existing ? planAppend(source, sample, existing, userTypes) : planNew(source, sample, userTypes, widened, addColumns);
  for (const k of opts.primaryKey ?? []) {
    if (!plan.columns.includes(k) && !existing?.fields.some((f) => f.id === k)) {
      throw new ImportError(`--primary-key: "${k}" is not a column of the file`);
    }
  }
  const resource = existing ?? (await createResource(ctx, opts, plan));
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
      { file: input.file, read: input.read, plan, rules: { sampleRows: opts.sampleRows } },
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
      if (e instanceof DatastoreError) throw new ImportError(`--primary-key ${opts.primaryKey.join(",")}: ${describe(e)}`);
      throw e;
    }
  }
  if (!offThread) await indexAll(loader, rows, opts); // parts are indexed as they are taken
  const stopIfAsked = () => {
    if (opts.signal?.aborted) throw new ImportInterrupted();
  };
  stopIfAsked();
  const indexed = await chooseIndexes(tx, resource.id, rows, !existing && opts.autoIndex !== false, opts.indexes ?? []);
  if (indexed.length) {
    opts.onNotice?.(`indexing ${indexed.join(", ")} for filters`);
    const current = (await tx.getResource(resource.id))!.indexes;
    await tx.setIndexes(resource.id, [...current, ...indexed.filter((f) => !current.some((ix) => ix.length === 1 && ix[0] === f)).map((f) => [f])]);
  }
  stopIfAsked();
  await loader.finish();
  stopIfAsked(); // the last moment a Ctrl-C can still leave nothing behind
  const done = (await tx.getResource(resource.id))!;
  return {
    resourceId: done.id,
    name: done.name,
    created: !existing,
    rows,
    fields: plan.columns.map((c, i) => ({ id: c, type: plan.types[i] })),
    format: source.format,
    notes: source.notes,
  };
}

/** The declared indexes plus, for a new resource, those the auto-index rule picks. */
async function chooseIndexes(tx: DatastoreEngine, id: string, rows: number, auto: boolean, declared: string[]): Promise<string[]> {
  const fields = (await tx.getResource(id))!.fields;
  for (const f of declared) {
    if (!fields.some((x) => x.id === f)) throw new ImportError(`--index: "${f}" is not a column of the file`);
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

function planNew(source: Source, sample: Batch[], userTypes: Record<string, TypeName>, widened: Record<string, TypeName>, addColumns: string[]): Plan {
  let columns = source.columns;
  if (source.keyed) {
    const seen = new Set<string>();
    for (const batch of sample) for (const rec of batch.rows as Record<string, unknown>[]) for (const k of Object.keys(rec)) seen.add(k);
    for (const k of addColumns) seen.add(k);
    columns = [...seen];
  }
  if (columns.length === 0) throw new ImportError("the file has no columns");
  for (const f of Object.keys(userTypes)) {
    if (!columns.includes(f)) throw new ImportError(`--types: "${f}" is not a column of the file`);
  }
  let sampled: TypeName[] = [];
  if (!source.declared || source.declared.some((t) => t === undefined)) {
    const sampler = new TypeSampler(columns.length);
    const index = new Map(columns.map((c, i) => [c, i]));
    for (const batch of sample) {
      const rows = source.keyed ? toPositional(batch, index, columns.length, source, false) : (batch.rows as unknown[][]);
      for (const row of rows) sampler.add(row);
    }
    sampled = sampler.types();
  }
  const types = columns.map((c, i) => userTypes[c] ?? widened[c] ?? source.declared?.[i] ?? sampled[i]);
  const inferred = columns.map((c, i) => !userTypes[c] && !source.declared?.[i]);
  return { columns, types, inferred };
}

function planAppend(source: Source, sample: Batch[], r: Resource, userTypes: Record<string, TypeName>): Plan {
  const byId = new Map(r.fields.map((f) => [f.id, f]));
  let columns = source.columns;
  if (source.keyed) {
    const seen = new Set<string>();
    for (const batch of sample) for (const rec of batch.rows as Record<string, unknown>[]) for (const k of Object.keys(rec)) seen.add(k);
    columns = [...seen].filter((k) => byId.has(k));
  }
  const unknown = source.keyed ? [] : columns.filter((c) => !byId.has(c));
  if (unknown.length) throw new ImportError(`columns not in resource ${r.id}: "${unknown.join('", "')}" (its fields: ${r.fields.map((f) => f.id).join(", ")})`);
  for (const [f, t] of Object.entries(userTypes)) {
    if (byId.get(f)?.type !== t) throw new ImportError(`--types: field "${f}" of resource ${r.id} is ${byId.get(f)?.type ?? "not there"}; an append cannot change types`);
  }
  if (columns.length === 0) throw new ImportError(`the file has none of the fields of resource ${r.id}`);
  return { columns, types: columns.map((c) => byId.get(c)!.type), inferred: columns.map(() => false) };
}

async function createResource(ctx: ActionContext, opts: ImportOptions, plan: Plan): Promise<Resource> {
  const fields = plan.columns.map((id, i) => ({ id, type: plan.types[i] }));
  const name = opts.name?.trim() || undefined;
  let id: string;
  try {
    if (opts.resourceId) {
      id = String((await datastoreCreate(ctx, { resource_id: opts.resourceId, fields, force: true })).resource_id);
      await ctx.engine.updateResourceMeta(id, { name: name ?? opts.resourceId, private: Boolean(opts.private) });
    } else {
      id = String((await datastoreCreate(ctx, { resource: { name: name ?? "import", private: Boolean(opts.private) }, fields })).resource_id);
    }
  } catch (e) {
    if (e instanceof DatastoreError) throw new ImportError(`cannot create the resource: ${describe(e)}`);
    throw e;
  }
  return (await ctx.engine.getResource(id))!;
}

