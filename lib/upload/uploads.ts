// Uploads as the API offers them (docs/loading.md), without HTTP: who may (write
// scope, and an upload is its sender's alone), the size limit, the preview, and the imports
// running, one at a time per upload, each on a thread of its own (import-thread.ts). The rules
// are decided here once; lib/http/upload-handler.ts only reads requests and writes answers.
import type { Principal } from "../auth/principal";
import { config } from "../config";
import { findWritableResource, hasScope, type ActionContext } from "../datastore/context";
import { DatastoreError, ErrorBag } from "../datastore/errors";
import type { Params } from "../datastore/validate";
import { ImportInterrupted, type ImportResult } from "../import/importer";
import { previewFile } from "../import/preview";
import { importRequest, readParams } from "./import-params";
import { importUpload } from "./import-thread";
import { ProgressRate, type ProgressLine } from "./progress-rate";
import { CutOff, TooLarge, receive } from "./receive";
import { completeUpload, dataPath, findUpload, newUpload, ownerOf, removeFile, removeUpload, saveRecord, sweepExpired, type UploadRecord } from "./store";

const PREVIEW_ROWS = 20;

const RUNNING = Symbol.for("datastore-explorer.running-imports");

/**
 * Imports running, by upload id: a second import of one upload is refused (409), a DELETE
 * stops the running one, and a sweep spares its files. One map per process, on globalThis:
 * Next may load a module more than once (the instrumentation hook's bundle has copies of its
 * own), and every copy must see the same imports. Uploads left by an earlier run of the
 * server are swept on first use.
 */
function running(): Map<string, AbortController> {
  const g = globalThis as { [RUNNING]?: Map<string, AbortController> };
  if (!g[RUNNING]) {
    g[RUNNING] = new Map();
    try {
      sweepExpired();
    } catch (e) {
      console.error("upload: sweeping expired uploads failed", e);
    }
  }
  return g[RUNNING];
}

function requireWriter(user: Principal, what: string): void {
  if (hasScope(user, "write")) return;
  throw DatastoreError.denied(user.scope === null ? `${what} requires an authenticated user with write scope` : `${what} requires a token with write scope`);
}

/** The upload `id` of this caller, or 404 (another's upload is not found either). */
function ownUpload(id: string, user: Principal): UploadRecord {
  const upload = findUpload(id, ownerOf(user));
  if (!upload) throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  return upload;
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
  sweepExpired(new Set(running().keys()));

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

/** Drops an upload of the caller's, stopping an import of it that is running. */
export async function deleteUpload(ctx: ActionContext, id: string): Promise<null> {
  requireWriter(ctx.user, "Deleting an upload");
  ownUpload(id, ctx.user);
  const job = running().get(id);
  if (job) job.abort(); // the import removes the files as it stops
  else removeUpload(id);
  return null;
}

/** An import that was checked and holds its upload: `run` loads it (progress lines as it goes),
 *  `stop` ends it, writing nothing. */
export interface StartedImport {
  run(onProgress?: (line: ProgressLine) => void): Promise<Record<string, unknown>>;
  stop(): void;
}

/** Checks an import of upload `id` (the parameters of lib/upload/import-params.ts, the upload is
 *  the caller's, the resource an append or replace names) and holds the upload for it. */
export async function startImport(ctx: ActionContext, id: string, params: Params): Promise<StartedImport> {
  requireWriter(ctx.user, "Importing an upload");
  const upload = ownUpload(id, ctx.user);
  const req = importRequest(params, upload);
  if (req.mode !== "new") await findWritableResource(ctx, req.options.resourceId!);
  // A DELETE may have come while this request waited above.
  ownUpload(id, ctx.user);
  const jobs = running();
  if (jobs.has(id)) throw DatastoreError.field("upload", "this upload is being imported already");
  const abort = new AbortController();
  jobs.set(id, abort);

  const run = async (onProgress?: (line: ProgressLine) => void) => {
    const rate = new ProgressRate();
    try {
      const result = await importUpload(dataPath(upload), req.options, {
        signal: abort.signal,
        onProgress: onProgress
          ? (p) => {
              const line = rate.next(p);
              if (line) onProgress(line);
            }
          : undefined,
      });
      removeUpload(id);
      return answer(result);
    } catch (e) {
      // Stopped (the client left, or DELETE): nothing was written, and the file goes. A bad
      // value or key keeps the upload, so it can be imported again with other types.
      if (e instanceof ImportInterrupted) removeUpload(id);
      throw e;
    } finally {
      jobs.delete(id);
    }
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
