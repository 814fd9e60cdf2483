// The full-text index of an off-thread bulk load into an empty resource, built on a thread of
// its own (fts-worker.ts) while this thread copies the rows: each part taken is handed over,
// and the finished index is adopted in whole (fts-index.ts adoptFts). So reading the file,
// copying its rows and indexing them for full text run side by side, on as many cores.
import { SHARE_ENV, type Worker } from "node:worker_threads";
import { sourceWorker } from "../../source-worker";
import type { StoredField } from "./catalog";
import type { FtsSettings } from "./fts-index";

export interface FtsBuildSpec {
  /** The scratch file the index is built in. */
  file: string;
  table: string;
  /** The index's CREATE VIRTUAL TABLE, as the resource has it. */
  ftsSql: string;
  fields: StoredField[];
  /** The resource's full-text language: the view's spelling of its text (fts-text.ts). */
  language: string;
  /** The name of the table in each part (bulk-sink.ts). */
  partTable: string;
  /** The index's options besides FTS5's version, to set first (fts-index.ts ftsOptionsSet). */
  options: Record<string, unknown>;
  /** The merge settings to leave it with, as the main thread's load leaves them. */
  settings: FtsSettings;
}

export type ToFtsWorker = { op: "part"; file: string } | { op: "finish" };
export type FromFtsWorker =
  | { kind: "done"; rows: number }
  | { kind: "failed"; error: { message: string; code?: string } };

export class FtsBuild {
  private readonly worker: Worker;
  private failure: Error | null = null;
  private built: number | null = null;
  private wake: (() => void) | null = null;

  constructor(spec: FtsBuildSpec) {
    this.worker = sourceWorker("lib/datastore/sqlite/fts-worker.ts", { workerData: spec, env: SHARE_ENV });
    this.worker.on("message", (m: FromFtsWorker) => {
      if (m.kind === "done") this.built = m.rows;
      else this.failure ??= Object.assign(new Error(m.error.message), { code: m.error.code });
      this.poke();
    });
    this.worker.on("error", (e) => {
      this.failure ??= e;
      this.poke();
    });
    this.worker.on("exit", (code) => {
      this.failure ??= new Error(`the full-text thread exited (${code})`);
      this.poke();
    });
  }

  private poke(): void {
    this.wake?.();
    this.wake = null;
  }

  /** Hands a part's file to the thread, which removes it once open; throws what failed there
   *  so far (the rest surfaces at finish()). */
  add(file: string): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ op: "part", file } satisfies ToFtsWorker);
  }

  /** Waits for every part to be indexed; returns the rows the index holds. */
  async finish(): Promise<number> {
    this.worker.postMessage({ op: "finish" } satisfies ToFtsWorker);
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.built !== null) return this.built;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Ends the thread, done or not (its file is the caller's to remove). */
  async stop(): Promise<void> {
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }
}
