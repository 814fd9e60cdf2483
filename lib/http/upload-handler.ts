// The upload endpoint (docs/loading.md): POST /api/upload streams a file to disk and
// answers a preview, POST /api/upload/<id>/import loads it with the importer (optionally as a
// stream of NDJSON progress lines), DELETE /api/upload/<id> drops it. Write scope, and an
// upload is its token's alone. HTTP only: files live in lib/upload, reading in lib/import.
import type { Principal } from "../auth/principal";
import { config } from "../config";
import { getDatastore } from "../datastore";
import { findWritableResource, hasScope } from "../datastore/context";
import { DatastoreError, ErrorBag } from "../datastore/errors";
import { ImportInterrupted, type ImportResult } from "../import/importer";
import { previewFile } from "../import/preview";
import { ImportError } from "../import/source";
import { importRequest, readParams, type ImportRequest } from "../upload/import-params";
import { importUpload } from "../upload/import-thread";
import { ProgressRate } from "../upload/progress-rate";
import { TooLarge, clientGone, receive } from "../upload/receive";
import { completeUpload, dataPath, findUpload, newUpload, ownerOf, removeFile, removeUpload, saveRecord, sweepExpired, type UploadRecord } from "../upload/store";
import { errorStatus, failure, helpUrl, json, success } from "./envelope";
import { bodyParams, queryParams, type ApiRequest } from "./params";

const PREVIEW_ROWS = 20;

/** Imports running, by upload id: a second import of one upload waits its turn (409), and a
 *  DELETE stops the running one. */
const running = new Map<string, AbortController>();

/** Uploads left by an earlier run of the server go at start (the routes load at start). */
try {
  sweepExpired();
} catch (e) {
  console.error("upload: sweeping expired uploads failed", e);
}

async function writer(request: ApiRequest, what: string): Promise<Principal> {
  const { tokens } = await getDatastore();
  const user = await tokens.authenticate(request.headers.get("authorization"));
  if (!hasScope(user, "write")) {
    throw DatastoreError.denied(user.scope === null ? `${what} requires an authenticated user with write scope` : `${what} requires a token with write scope`);
  }
  return user;
}

/** An error answer after a body was left unread: the connection closes rather than take the
 *  rest of a file that was refused. */
function refuse(response: Response): Response {
  response.headers.set("connection", "close");
  return response;
}

function tooLarge(help: string, limit: number): Response {
  const message = `Upload is larger than the limit of ${limit} bytes (DATASTORE_MAX_UPLOAD_BYTES)`;
  return refuse(json({ help, success: false, error: { __type: "Request Entity Too Large", message } }, 413));
}

function invalid(message: string): DatastoreError {
  return new DatastoreError("validation", { message });
}

/** POST /api/upload?filename=…[&format=…&encoding=…&delimiter=…]: the raw body is the file. */
export async function handleUpload(request: ApiRequest): Promise<Response> {
  const help = helpUrl(request, "upload");
  let file: string | undefined;
  try {
    const user = await writer(request, "Uploading a file");
    const query = queryParams(new URL(request.url).searchParams);
    const bag = new ErrorBag();
    const read = readParams(query, bag);
    const filename = typeof query.filename === "string" && query.filename.trim() ? query.filename.trim() : "upload";
    bag.throwIfAny();

    const limit = config.maxUploadBytes;
    if (Number(request.headers.get("content-length") ?? 0) > limit) return tooLarge(help, limit);
    sweepExpired(new Set(running.keys()));

    const target = newUpload(filename);
    // A Fetch Request's body (`next start`, tests) is async-iterable in Node, if not in its types.
    const body = request.stream?.() ?? (request.body as AsyncIterable<Uint8Array> | null) ?? emptyBody();
    let size: number;
    try {
      size = await receive(body, target.partial, limit);
    } catch (e) {
      if (e instanceof TooLarge) return tooLarge(help, limit);
      if (clientGone(e) || request.signal?.aborted) return refuse(json("Bad request - the upload was cut off", 400));
      throw e;
    }
    file = completeUpload(target);

    const preview = await previewFile(file, read, { rows: PREVIEW_ROWS });
    // The client left while the file was read: no one will import or delete it.
    if (request.signal?.aborted) {
      removeFile(file);
      return refuse(json("Bad request - the upload was cut off", 400));
    }
    const record: UploadRecord = {
      id: target.id,
      owner: ownerOf(user),
      filename,
      size,
      format: preview.format,
      read: { encoding: read.encoding, delimiter: read.delimiter },
      columns: preview.columns.map((c) => c.id),
    };
    saveRecord(record);
    file = undefined; // kept: it is the upload now
    return success(help, {
      upload_id: record.id,
      filename,
      size,
      format: preview.format,
      columns: preview.columns,
      records: preview.records,
      notes: preview.notes,
      sampled_rows: preview.sampledRows,
    });
  } catch (e) {
    // A body refused before it was read (403, a bad parameter) is not read either.
    const refused = !file;
    if (file) removeFile(file);
    const response = failure(help, e instanceof ImportError ? invalid(e.message) : e);
    return refused && request.stream ? refuse(response) : response;
  }
}

function emptyBody(): AsyncIterable<Uint8Array> {
  return (async function* () {})();
}

/** The upload `id` of this caller, or 404. */
function ownUpload(id: string, user: Principal): UploadRecord {
  const upload = findUpload(id, ownerOf(user));
  if (!upload) throw DatastoreError.notFound(`Upload "${id}" was not found.`);
  return upload;
}

/** DELETE /api/upload/<id>: removes the file (and stops an import of it that is running). */
export async function handleUploadDelete(request: ApiRequest, id: string): Promise<Response> {
  const help = helpUrl(request, "upload_delete");
  try {
    const user = await writer(request, "Deleting an upload");
    ownUpload(id, user);
    const job = running.get(id);
    if (job) job.abort(); // the import removes the files as it stops
    else removeUpload(id);
    return success(help, null);
  } catch (e) {
    return failure(help, e);
  }
}

/** POST /api/upload/<id>/import: the JSON body says how (lib/upload/import-params.ts). */
export async function handleUploadImport(request: ApiRequest, id: string): Promise<Response> {
  const help = helpUrl(request, "upload_import");
  let req: ImportRequest;
  let upload: UploadRecord;
  try {
    const user = await writer(request, "Importing an upload");
    const params = await bodyParams(request);
    upload = ownUpload(id, user);
    req = importRequest(params, upload);
    const { engine, tokens } = await getDatastore();
    if (req.mode !== "new") await findWritableResource({ engine, tokens, user }, req.options.resourceId!);
    // A DELETE may have come while this request waited above.
    ownUpload(id, user);
    if (running.has(id)) throw DatastoreError.field("upload", "this upload is being imported already");
  } catch (e) {
    return failure(help, e);
  }

  const abort = new AbortController();
  running.set(id, abort);
  const file = dataPath(upload);
  const run = async (onProgress?: (line: string) => void): Promise<ImportResult> => {
    const { engine } = await getDatastore();
    const rate = new ProgressRate();
    try {
      const result = await importUpload(engine, file, req.options, {
        signal: abort.signal,
        onProgress: onProgress
          ? (p) => {
              const line = rate.next(p);
              if (line) onProgress(JSON.stringify({ progress: line }));
            }
          : undefined,
      });
      removeUpload(id);
      return result;
    } catch (e) {
      // Stopped (the client left, or DELETE): nothing was written, and the file goes. A bad
      // value or key keeps the upload, so it can be imported again with other types.
      if (e instanceof ImportInterrupted) removeUpload(id);
      throw e;
    } finally {
      running.delete(id);
    }
  };
  const answer = (r: ImportResult) => ({
    resource_id: r.resourceId,
    name: r.name,
    created: r.created,
    rows: r.rows,
    fields: r.fields,
    format: r.format,
    notes: r.notes,
    seconds: Math.round(r.seconds * 1000) / 1000,
  });

  if (!(request.headers.get("accept") ?? "").includes("application/x-ndjson")) {
    const onGone = () => abort.abort();
    request.signal?.addEventListener("abort", onGone);
    try {
      return success(help, answer(await run()));
    } catch (e) {
      return failure(help, asDatastoreError(e));
    } finally {
      request.signal?.removeEventListener("abort", onGone);
    }
  }

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: string) => {
        try {
          controller.enqueue(encoder.encode(`${line}\n`));
        } catch {
          /* the stream was cancelled: the import is stopping */
        }
      };
      try {
        send(JSON.stringify({ success: true, result: answer(await run(send)) }));
      } catch (e) {
        send(JSON.stringify({ success: false, error: errorBody(asDatastoreError(e)) }));
      }
      try {
        controller.close();
      } catch {
        /* cancelled */
      }
    },
    cancel() {
      abort.abort(); // the client went away
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson;charset=utf-8", "cache-control": "no-store" } });
}

/** An importer's complaint as CKAN's Validation Error; other errors as they are. */
function asDatastoreError(e: unknown): unknown {
  return e instanceof ImportError ? invalid(e.message) : e;
}

/** The `error` of a final NDJSON line: as the envelope's, with a `message` always. */
function errorBody(e: unknown): Record<string, unknown> {
  if (e instanceof DatastoreError) return { __type: errorStatus(e).type, message: e.message, ...e.details };
  console.error("upload: import failed", e);
  return { __type: "Internal Server Error", message: "Internal Server Error" };
}
