// A pool of read workers (worker_threads), each with its own SQLite connection. Searches run
// there in parallel with each other and with the event loop; a task past the query timeout
// (plus a grace period for work SQLite does between deadline checks, like a big sort) has its
// worker terminated and replaced, and answers 409 "query took too long".
import os from "node:os";
import path from "node:path";
import { SHARE_ENV, Worker } from "node:worker_threads";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { DatastoreError, type ErrorKind } from "../errors";

export type NewReadTask = { resourceId: string } & (
  | { op: "search"; query: SearchQuery }
  | { op: "valueCounts"; query: SearchQuery; field: string; limit: number }
  | { op: "histogram"; query: SearchQuery; field: string; bins: number }
  | { op: "stats" }
);
export type ReadTask = NewReadTask & { id: number };

type Reply = { id: number; result?: unknown; error?: { kind?: ErrorKind; details?: Record<string, unknown>; message?: string } };

interface Slot {
  worker: Worker;
  busy: boolean;
}

interface Pending {
  task: ReadTask;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  slot?: Slot;
  timer?: NodeJS.Timeout;
}

const GRACE_MS = 2000;

export function defaultReadWorkers(): number {
  // One per core, at least two, so one slow query never leaves the others waiting. Each costs
  // an isolate and its page cache (README "Performance" has the memory figures).
  return Math.max(2, os.availableParallelism());
}

export class ReadPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private running = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private file: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    // The worker is TypeScript source, loaded through tsx, found from the project root: a
    // bundler (next build) moves this file, so a path relative to it would not survive.
    const file = path.join(process.cwd(), "lib/datastore/sqlite/read-worker.ts");
    // Workers read the same live environment, so configuration stays in one place.
    const options = { workerData: { file: this.file }, env: SHARE_ENV as typeof SHARE_ENV };
    const worker = new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(file)});`, { ...options, eval: true });
    const slot: Slot = { worker, busy: false };
    worker.unref();
    worker.on("message", (reply: Reply) => this.settle(slot, reply));
    worker.on("error", (err) => this.fail(slot, err));
    return slot;
  }

  run(task: NewReadTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { ...task, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (;;) {
      const job = this.queue[0];
      if (!job) return;
      const slot = this.slotFor(job.task);
      if (!slot) return;
      this.queue.shift();
      slot.busy = true;
      job.slot = slot;
      job.timer = setTimeout(() => this.timeout(job), config.queryTimeoutMs + GRACE_MS);
      this.running.set(job.task.id, job);
      slot.worker.postMessage(job.task);
    }
  }

  /**
   * A free worker for the task: for a best-first search, preferably the one its words hash to,
   * where its ranked list is likely kept already (each worker keeps its own); else any.
   */
  private slotFor(task: ReadTask): Slot | undefined {
    const free = this.slots.filter((s) => !s.busy);
    if (free.length === 0) return undefined;
    if (task.op !== "search" || task.query.fts.length === 0) return free[0];
    const key = `${task.resourceId}\0${JSON.stringify(task.query.fts)}`;
    let h = 0;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
    const preferred = this.slots[Math.abs(h) % this.slots.length];
    return preferred.busy ? free[0] : preferred;
  }

  private settle(slot: Slot, reply: Reply): void {
    const job = this.running.get(reply.id);
    slot.busy = false;
    if (job) {
      this.running.delete(reply.id);
      clearTimeout(job.timer);
      if (!reply.error) job.resolve(reply.result);
      else if (reply.error.kind) job.reject(new DatastoreError(reply.error.kind, reply.error.details ?? {}));
      else job.reject(new Error(reply.error.message));
    }
    this.dispatch();
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = this.spawn();
  }

  private timeout(job: Pending): void {
    this.running.delete(job.task.id);
    if (job.slot) {
      void job.slot.worker.terminate();
      this.replace(job.slot);
    }
    job.reject(DatastoreError.tooLong(config.queryTimeoutMs));
    this.dispatch();
  }

  private fail(slot: Slot, err: Error): void {
    for (const [id, job] of this.running) {
      if (job.slot !== slot) continue;
      this.running.delete(id);
      clearTimeout(job.timer);
      job.reject(err);
    }
    this.replace(slot);
    this.dispatch();
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
