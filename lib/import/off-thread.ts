// Loading on two threads: a worker (load-worker.ts) reads the file, shapes and casts the rows
// and writes them through the engine's BulkSink in parts; this thread takes each part into the
// resource (engine.ts OffThreadLoad), full text included, while the worker reads on. Parts
// shrink towards the end of the file, so little is left to take once the worker is done.
import { SHARE_ENV } from "node:worker_threads";
import type { BulkSinkSpec, OffThreadLoad, SealedPart } from "../datastore/engine";
import { sourceWorker } from "../source-worker";
import type { Plan, RowRules } from "./rows";
import { ImportError, ImportInterrupted, RestartImport, type ReadOptions } from "./source";

/** What the worker is given: the file to read as the main thread read it, and where to write. */
export interface WorkerJob {
  file: string;
  read: ReadOptions;
  /** Column renames (rename.ts), applied as the main thread applies them. */
  names?: Record<string, string>;
  plan: Plan;
  rules: RowRules;
  sink: BulkSinkSpec;
}

/** An error thrown in the worker, as it crosses to this thread. */
export type WorkerError =
  | { type: "import"; message: string }
  | { type: "restart"; reason: string; change: RestartImport["change"] }
  | { type: "other"; message: string; code?: string; stack?: string };

export type FromWorker =
  | { kind: "progress"; rows: number; fraction: number }
  | { kind: "part"; part: SealedPart }
  | { kind: "notice"; message: string }
  | { kind: "done"; rows: number }
  | { kind: "failed"; error: WorkerError };

export function toWorkerError(e: unknown): WorkerError {
  if (e instanceof RestartImport) return { type: "restart", reason: e.reason, change: e.change };
  if (e instanceof ImportError) return { type: "import", message: e.message };
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: "other", message: err.message, code: (err as NodeJS.ErrnoException).code, stack: err.stack };
}

function revive(e: WorkerError): Error {
  if (e.type === "restart") return new RestartImport(e.reason, e.change);
  if (e.type === "import") return new ImportError(e.message);
  return Object.assign(new Error(e.message), { code: e.code, stack: e.stack });
}

export interface OffThreadCallbacks {
  onProgress: (rows: number, fraction: number) => void;
  onNotice: (message: string) => void;
  signal?: AbortSignal;
}

/** Runs the worker to the end of the file and takes every part it writes; returns the rows loaded. */
export async function loadOffThread(load: OffThreadLoad, job: Omit<WorkerJob, "sink">, on: OffThreadCallbacks): Promise<number> {
  // Both of tsx's hooks: the readers are imported on demand (open.ts).
  const worker = sourceWorker("lib/import/load-worker.ts", {
    esm: true,
    env: SHARE_ENV,
    // Reading makes short-lived strings by the million: a young generation this size collects
    // them with less work than V8's default for a worker (docs/performance.md "Import").
    resourceLimits: { maxYoungGenerationSizeMb: 128 },
    workerData: { ...job, sink: load.sink } satisfies WorkerJob,
  });
  const inbox: (FromWorker | { kind: "crashed"; error: Error } | { kind: "aborted" })[] = [];
  let wake: (() => void) | null = null;
  const deliver = (m: (typeof inbox)[number]) => {
    inbox.push(m);
    wake?.();
    wake = null;
  };
  worker.on("message", deliver);
  worker.on("error", (error) => deliver({ kind: "crashed", error }));
  worker.on("exit", (code) => deliver({ kind: "crashed", error: new Error(`the load worker exited (${code})`) }));
  const onAbort = () => deliver({ kind: "aborted" });
  on.signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      if (on.signal?.aborted) throw new ImportInterrupted();
      if (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const m = inbox.shift()!;
      switch (m.kind) {
        case "progress":
          on.onProgress(m.rows, m.fraction);
          break;
        case "notice":
          on.onNotice(m.message);
          break;
        case "part":
          await load.take(m.part);
          break;
        case "done":
          return m.rows;
        case "failed":
          throw revive(m.error);
        case "crashed":
          throw m.error;
        case "aborted":
          throw new ImportInterrupted();
      }
    }
  } finally {
    on.signal?.removeEventListener("abort", onAbort);
    worker.removeAllListeners("exit");
    await worker.terminate();
  }
}
