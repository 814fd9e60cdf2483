// Uploads as the API offers them (docs/loading.md), without HTTP: who may (write scope, and an
// upload is its sender's alone), the size limit, the preview, and the imports, one at a time per
// upload, each on a thread of its own (import-thread.ts). An upload's file waits in
// DATASTORE_UPLOAD_DIR (store.ts); its import (the attempt holding it, its progress, a cancel) is
// kept by the engine where app servers share the store (PostgreSQL), else by this process
// (local-imports.ts). So with a shared directory, any app server can continue any upload. A
// cancel and an import's commit are decided atomically: the import's last step, inside its
// transaction, takes the upload as imported unless a cancel took it first. The rules are decided
// here once; lib/http/upload-handler.ts only reads requests and writes answers.
import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/principal";
import { config } from "../config";
import { authorOf, findWritableResource, hasScope, requireAction, requireWrite, type ActionContext } from "../datastore/context";
import type { UploadImport, UploadImportStorage } from "../datastore/engine";
import { DatastoreError, ErrorBag } from "../datastore/errors";
import type { Params } from "../datastore/validate";
import { ImportInterrupted, type ImportResult } from "../import/importer";
import { previewFile } from "../import/preview";
import { importRequest, readParams } from "./import-params";
import { importUpload } from "./import-thread";
import { localImports, type LocalImports } from "./local-imports";
import { ProgressRate, type ProgressLine } from "./progress-rate";
import { CutOff, TooLarge, receive } from "./receive";
import { completeUpload, dataPath, findUpload, isUploadId, newUpload, ownerOf, removeFile, removeRecord, removeUpload, saveRecord, sweepExpired, type UploadRecord } from "./store";

const PREVIEW_ROWS = 20;
/** An import whose server has not written for this long is taken to be gone with its server
 *  (its transaction went with its connection): another may import the upload. */
const STALE_SECONDS = 30;
/** How often a running import writes its progress, and reads whether it was cancelled. */
const HEARTBEAT_MS = 1000;

type Imports = UploadImportStorage & Partial<Pick<LocalImports, "gate" | "settle">>;

function importsOf(ctx: ActionContext): Imports {
  return ctx.engine.uploadImports ?? localImports();
}

const RUNNING = Symbol.for("datastore-explorer.running-imports");

/**
 * What this process keeps: its imports running, by upload id, so that a DELETE or the client
 * leaving stops one at once; whether uploads left by an earlier run were swept. On
 * globalThis: Next may load a module more than once (the instrumentation hook's bundle has copies
 * of its own), and every copy must see the same imports.
 */
interface Here {
  running: Map<string, AbortController>;
  swept: boolean;
  warned: boolean;
}

function here(): Here {
  const g = globalThis as { [RUNNING]?: Here };
  return (g[RUNNING] ??= { running: new Map(), swept: false, warned: false });
}

/** Removes uploads and import states unused for DATASTORE_UPLOAD_TTL_SECONDS, but those being
 *  imported, on any app server. */
async function sweep(imports: Imports): Promise<void> {
  here().swept = true;
  try {
    sweepExpired(new Set(await imports.importing(STALE_SECONDS)));
    await imports.sweep(config.uploadTtlSeconds);
  } catch (e) {
    console.error("upload: sweeping expired uploads failed", e);
  }
}

/** An upload another app server imports, whose file this one does not see: said once. */
function unshared(): void {
  if (here().warned) return;
  here().warned = true;
  console.warn(`upload: an upload is being imported by another app server, but its file is not in DATASTORE_UPLOAD_DIR (${config.uploadDir}) here: app servers must share that directory`);
}

/** Uploads left by an earlier run of the server are swept on first use. */
async function firstUse(imports: Imports): Promise<void> {
  if (!here().swept) await sweep(imports);
}

function requireWriter(user: Principal, what: string): void {
  if (hasScope(user, "write")) return;
  throw DatastoreError.denied(user.scope === null ? `${what} requires an authenticated user with write scope` : `${what} requires a token with write scope`);
}

function importedAlready(id: string, row: UploadImport): DatastoreError {
  return DatastoreError.field("upload", `upload "${id}" was imported already, into resource "${row.resourceId}": nothing to cancel or import`);
}

/** The upload `id` of this caller; 409 when it was imported already; else 404 (another's
 *  upload is not found either). */
async function ownUpload(imports: Imports, id: string, owner: string): Promise<UploadRecord> {
  const upload = findUpload(id, owner);
  if (upload) return upload;
  const row = isUploadId(id) ? await imports.get(id) : undefined;
  if (row?.owner === owner && row.state === "imported") throw importedAlready(id, row);
  throw DatastoreError.notFound(`Upload "${id}" was not found.`);
}

/** A file as it arrives: its bytes, the length it declared (if any), and whether its sender is
 *  still there. */
export interface IncomingFile {
  chunks: () => AsyncIterable<Uint8Array>;
  declaredBytes?: number;
  signal?: AbortSignal;
}

/** Keeps a file for a later import and answers its preview (`filename`, and how to read it:
 *  `format`, `encoding`, `delimiter`). Nothing is kept when anything fails. */
export async function createUpload(ctx: ActionContext, params: Params, file: IncomingFile) {
  requireWriter(ctx.user, "Uploading a file");
  const bag = new ErrorBag();
  const read = readParams(params, bag);
  const filename = typeof params.filename === "string" && params.filename.trim() ? params.filename.trim() : "upload";
  bag.throwIfAny();

  const limit = config.maxUploadBytes;
  if ((file.declaredBytes ?? 0) > limit) throw new TooLarge(limit);
  await sweep(importsOf(ctx));

  const target = newUpload(filename);
  let size: number;
  try {
    size = await receive(file.chunks(), target.partial, limit);
  } catch (e) {
    throw !(e instanceof TooLarge) && file.signal?.aborted ? new CutOff() : e;
  }
  const kept = completeUpload(target);
  try {
    const preview = await previewFile(kept, read, { rows: PREVIEW_ROWS });
    // The client left while the file was read: no one will import or delete it.
    if (file.signal?.aborted) throw new CutOff();
    const record: UploadRecord = {
      id: target.id,
      owner: ownerOf(ctx.user),
      filename,
      size,
      format: preview.format,
      read: { encoding: read.encoding, delimiter: read.delimiter },
      columns: preview.columns.map((c) => c.id),
    };
    saveRecord(record);
    return {
      upload_id: record.id,
      filename,
      size,
      format: preview.format,
      columns: preview.columns,
      records: preview.records,
      notes: preview.notes,
      sampled_rows: preview.sampledRows,
    };
  } catch (e) {
    removeFile(kept);
    throw e;
  }
}

/** Drops an upload of the caller's. One being imported is cancelled, on whichever app server
 *  runs the import, and rolled back; one whose import has committed answers 409 and stays so. */
export async function deleteUpload(ctx: ActionContext, id: string): Promise<null> {
  requireWriter(ctx.user, "Deleting an upload");
  const imports = importsOf(ctx);
  await firstUse(imports);
  const owner = ownerOf(ctx.user);
  const upload = findUpload(id, owner);
  if (!isUploadId(id)) throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  const { row, cancelled } = await imports.cancel(id, owner);
  if (cancelled) {
    // Gone for everyone now; the import rolls back, and removes the file as it stops.
    removeRecord(id);
    here().running.get(id)?.abort();
    return null;
  }
  if (row?.owner === owner && row.state === "imported") throw importedAlready(id, row);
  if (!upload) throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  removeUpload(id);
  return null;
}

/** Where an upload of the caller's stands, as any app server sees it: `ready` to import,
 *  `importing` (with its last progress line), or `imported` (with the resource's id). */
export async function showUpload(ctx: ActionContext, id: string) {
  requireWriter(ctx.user, "Reading an upload");
  const imports = importsOf(ctx);
  const owner = ownerOf(ctx.user);
  const upload = findUpload(id, owner);
  const found = isUploadId(id) ? await imports.get(id) : undefined;
  const row = found?.owner === owner ? found : undefined;
  const importing = row?.state === "importing" && row.age <= STALE_SECONDS;
  if (!upload && !importing && row?.state !== "imported") throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  if (!upload && importing) unshared();
  const state = row?.state === "imported" ? "imported" : importing ? "importing" : "ready";
  return {
    upload_id: id,
    state,
    filename: upload?.filename ?? null,
    size: upload?.size ?? null,
    format: upload?.format ?? null,
    progress: state === "importing" ? (row!.progress ?? null) : null,
    resource_id: state === "imported" ? row!.resourceId : null,
  };
}

/** An import that was checked and holds its upload: `run` loads it (progress lines as it goes),
 *  `stop` ends it, writing nothing. */
export interface StartedImport {
  run(onProgress?: (line: ProgressLine) => void): Promise<Record<string, unknown>>;
  stop(): void;
}

/** Checks an import of upload `id` (the parameters of lib/upload/import-params.ts, the upload is
 *  the caller's, the resource an append or replace names) and takes the upload for it. */
export async function startImport(ctx: ActionContext, id: string, params: Params): Promise<StartedImport> {
  requireWriter(ctx.user, "Importing an upload");
  const imports = importsOf(ctx);
  await firstUse(imports);
  const owner = ownerOf(ctx.user);
  const upload = await ownUpload(imports, id, owner);
  const req = importRequest(params, upload);
  // An import is a datastore_create (new, replace) or an append's datastore_upsert, to a token limited to actions.
  requireAction(ctx, req.mode === "append" ? "datastore_upsert" : "datastore_create");
  if (req.mode !== "new") await findWritableResource(ctx, req.options.resourceId!);
  else requireWrite(ctx, req.options.resourceId ?? null, "Importing an upload");
  const claim = randomUUID();
  const row = await imports.claim(id, owner, claim, STALE_SECONDS);
  if (row.claim !== claim) throw row.state === "imported" ? importedAlready(id, row) : DatastoreError.field("upload", "this upload is being imported already");
  // A DELETE may have come while this request waited above.
  if (!findUpload(id, owner)) {
    await imports.end(id, claim);
    throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  }
  const abort = new AbortController();
  here().running.set(id, abort);

  const run = async (onProgress?: (line: ProgressLine) => void) => {
    const rate = new ProgressRate();
    let last: ProgressLine | null = null;
    // Its progress for every app server, and a cancel from any of them; one write at a time
    // (one held up by a lock must not take every connection).
    let writing = false;
    const beat = setInterval(() => {
      if (writing) return;
      writing = true;
      imports
        .report(id, claim, last)
        .then(
          (state) => state !== "importing" && abort.abort(),
          (e) => console.error("upload: writing an import's progress failed", e),
        )
        .finally(() => (writing = false));
    }, HEARTBEAT_MS);
    let result: ImportResult;
    try {
      result = await importUpload(dataPath(upload), { id, claim, gate: imports.gate?.(id, claim) }, { ...req.options, author: authorOf(ctx.user) }, {
        signal: abort.signal,
        onProgress: (p) => {
          const line = rate.next(p);
          if (!line) return;
          last = line;
          onProgress?.(line);
        },
      });
    } catch (e) {
      imports.settle?.(id, claim, null);
      // Stopped (the client left, or a cancel): nothing was written, and the file goes. A bad
      // value or key keeps the upload, so it can be imported again with other types.
      const was = await imports.end(id, claim).catch((err) => console.error("upload: ending an import failed", err));
      if (e instanceof ImportInterrupted || was === "cancelled") removeUpload(id);
      throw e;
    } finally {
      clearInterval(beat);
      here().running.delete(id);
    }
    imports.settle?.(id, claim, result.resourceId);
    removeUpload(id);
    return answer(result);
  };
  return { run, stop: () => abort.abort() };
}

function answer(r: ImportResult) {
  return {
    resource_id: r.resourceId,
    name: r.name,
    created: r.created,
    rows: r.rows,
    fields: r.fields,
    format: r.format,
    notes: r.notes,
    seconds: Math.round(r.seconds * 1000) / 1000,
  };
}
