// Runs an upload's import on a worker thread with its own engine (import-worker.ts). In the
// server's process the SQLite engine makes every other caller wait while a transaction is open,
// so an import there would hold up every request for its whole length; on a thread of its own
// it is one more writer, like `npm run import`, and reads go on. The same under `npm start` and
// `next start`: the thread runs the worker's source (lib/source-worker.ts), not a bundle.
// Whether the import may commit is decided last, inside its transaction: by the store when it
// keeps uploads' imports (PostgreSQL), else by the gate it shares with this thread
// (local-imports.ts).
import { SHARE_ENV } from "node:worker_threads";
import { storeOptions } from "../datastore";
import type { EngineOptions } from "../datastore/open";
import { DatastoreError, fromWire, toWire, type WireError } from "../datastore/errors";
import { ImportInterrupted, type ImportOptions, type ImportProgress, type ImportResult } from "../import/importer";
import { ImportError } from "../import/source";
import { sourceWorker } from "../source-worker";

/** What the thread is given: plain data only (no callbacks, no signal). */
export interface ImportJob {
  file: string;
  store: EngineOptions;
  options: Omit<ImportOptions, "signal" | "onProgress" | "onNotice" | "beforeCommit">;
  /** The upload, the import attempt that holds it, and its gate where the store keeps none. */
  upload: { id: string; claim: string; gate?: Int32Array };
}

type ThreadError =
  | { type: "interrupted" }
  | { type: "import"; message: string }
  | ({ type: "datastore" } & WireError)
  | { type: "other"; message: string; stack?: string };

export type FromImportThread =
  | { kind: "progress"; progress: ImportProgress }
  | { kind: "done"; result: ImportResult }
  | { kind: "failed"; error: ThreadError };

export function toThreadError(e: unknown): ThreadError {
  if (e instanceof ImportInterrupted) return { type: "interrupted" };
  if (e instanceof ImportError) return { type: "import", message: e.message };
  if (e instanceof DatastoreError) return { type: "datastore", ...toWire(e) };
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
      return fromWire(e);
    case "other":
      return Object.assign(new Error(e.message), { stack: e.stack });
  }
}

export interface ImportCallbacks {
  onProgress?: (p: ImportProgress) => void;
  signal: AbortSignal;
}

/** Imports `file` as `importFile` does, on a thread of its own. */
export async function importUpload(file: string, upload: ImportJob["upload"], options: ImportJob["options"], on: ImportCallbacks): Promise<ImportResult> {
  const worker = sourceWorker("lib/upload/import-worker.ts", { esm: true, env: SHARE_ENV, workerData: { file, store: storeOptions(), options, upload } satisfies ImportJob });
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
