// Runs an upload's import on a worker thread with its own engine (import-worker.ts). In the
// server's process the SQLite engine makes every other caller wait while a transaction is open,
// so an import there would hold up every request for its whole length; on a thread of its own
// it is one more writer, like `npm run import`, and reads go on. Without the worker's source
// (a `next start` bundle) the import runs in-process on the server's engine.
import fs from "node:fs";
import path from "node:path";
import { SHARE_ENV, Worker } from "node:worker_threads";
import { storeOptions } from "../datastore";
import type { DatastoreEngine } from "../datastore/engine";
import type { EngineOptions } from "../datastore/open";
import { DatastoreError, type ErrorDetails, type ErrorKind } from "../datastore/errors";
import { ImportInterrupted, importFile, type ImportOptions, type ImportProgress, type ImportResult } from "../import/importer";
import { ImportError } from "../import/source";

/** What the thread is given: plain data only (no callbacks, no signal). */
export interface ImportJob {
  file: string;
  store: EngineOptions;
  options: Omit<ImportOptions, "signal" | "onProgress" | "onNotice">;
}

type ThreadError =
  | { type: "interrupted" }
  | { type: "import"; message: string }
  | { type: "datastore"; kind: ErrorKind; details: ErrorDetails; message: string; retryAfter?: number }
  | { type: "other"; message: string; stack?: string };

export type FromImportThread =
  | { kind: "progress"; progress: ImportProgress }
  | { kind: "done"; result: ImportResult }
  | { kind: "failed"; error: ThreadError };

export function toThreadError(e: unknown): ThreadError {
  if (e instanceof ImportInterrupted) return { type: "interrupted" };
  if (e instanceof ImportError) return { type: "import", message: e.message };
  if (e instanceof DatastoreError) return { type: "datastore", kind: e.kind, details: e.details, message: e.message, retryAfter: e.retryAfter };
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: "other", message: err.message, stack: err.stack };
}

function revive(e: ThreadError): Error {
  switch (e.type) {
    case "interrupted":
      return new ImportInterrupted();
    case "import":
      return new ImportError(e.message);
    case "datastore":
      return Object.assign(new DatastoreError(e.kind, e.details, e.message), { retryAfter: e.retryAfter });
    case "other":
      return Object.assign(new Error(e.message), { stack: e.stack });
  }
}

const ENTRY = path.join(__dirname, "import-worker.ts");

export interface ImportCallbacks {
  onProgress?: (p: ImportProgress) => void;
  signal: AbortSignal;
}

/** Imports `file` as `importFile` does, on a thread of its own when it can. */
export async function importUpload(engine: DatastoreEngine, file: string, options: ImportJob["options"], on: ImportCallbacks): Promise<ImportResult> {
  if (!fs.existsSync(ENTRY)) return importFile(engine, file, { ...options, offThread: false, signal: on.signal, onProgress: on.onProgress });
  const boot = `require("tsx/cjs/api").register(); import("tsx/esm/api").then((tsx) => { tsx.register(); require(${JSON.stringify(ENTRY)}); });`;
  const worker = new Worker(boot, { eval: true, env: SHARE_ENV, workerData: { file, store: storeOptions(), options } satisfies ImportJob });
  const onAbort = () => worker.postMessage({ kind: "abort" });
  on.signal.addEventListener("abort", onAbort);
  if (on.signal.aborted) onAbort();
  try {
    return await new Promise<ImportResult>((resolve, reject) => {
      worker.on("message", (m: FromImportThread) => {
        if (m.kind === "progress") on.onProgress?.(m.progress);
        else if (m.kind === "done") resolve(m.result);
        else reject(revive(m.error));
      });
      worker.on("error", reject);
      worker.on("exit", (code) => reject(new Error(`the import thread exited (${code})`)));
    });
  } finally {
    on.signal.removeEventListener("abort", onAbort);
    worker.removeAllListeners();
    await worker.terminate();
  }
}
