// A pool of read workers (worker_threads), each with its own SQLite connection. A read goes
// first to a free worker, which answers it if its plan says it is cheap (read-cost.ts), else
// hands it back to wait its client's turn in the expensive lane (../read-scheduler.ts). A task past
// the query timeout (plus a grace period for work SQLite does between deadline checks, like a
// big sort) has its worker terminated and replaced, and answers 409 "query took too long". A
// worker that cannot start is tried again twice, then the pool gives up: every read answers
// 503 (DatastoreUnavailable) saying why, rather than start workers forever.
import os from "node:os";
import { SHARE_ENV, type Worker } from "node:worker_threads";
import { sourceWorker } from "../../source-worker";
import type { AggregateSpec, SearchOutput, SearchQuery, SummaryOptions } from "../engine";
import type { AggregatePart, AggregateReader } from "./aggregate";
import { DatastoreError, DatastoreUnavailable, fromWire, type WireError } from "../errors";
import type { ReadLimits } from "../read-limits";
import { keysetPages } from "../keyset";
import { AnswerCache, PageCache } from "../page-cache";
import { ReadScheduler, type Lane } from "../read-scheduler";

export type NewReadTask = { resourceId: string } & (
  /** `apart`: judged expensive for a count that a second worker could read beside the page,
   *  it may come back as a ReadApart when the pool is otherwise idle (search-apart.ts).
   *  `kept`: the exact total the server kept for the resource's state `at`: used, not counted,
   *  when the search reads that state. */
  | { op: "search"; query: SearchQuery; apart?: boolean; kept?: { at: string; total: number } }
  /** A search's total alone, or a part's share of it, with the time it ran (search-apart.ts). */
  | { op: "count"; query: SearchQuery; part?: AggregatePart }
  | { op: "aggregate"; query: SearchQuery; spec: AggregateSpec; part?: AggregateReader }
  | { op: "valueCounts"; query: SearchQuery; field: string; limit: number; budgetMs: number | null }
  | { op: "histogram"; query: SearchQuery; field: string; bins: number; budgetMs: number | null }
  | { op: "summary"; query: SearchQuery; options: SummaryOptions; part?: AggregatePart }
  | { op: "stats" }
);
/** `judge`: the worker decides whether it is cheap enough to answer now (read-cost.ts);
 *  `limits`: the engine's read limits when the task was sent. */
export type ReadTask = NewReadTask & { id: number; judge: boolean; limits: ReadLimits };

type Reply = {
  id: number;
  result?: unknown;
  /** Judged expensive and not run: it waits in the expensive lane. */
  expensive?: true;
  /** With `expensive`, for a search sent `apart`: its total takes a count of its own, read
   *  whole (1) or in this many ranges of `_id` (search-apart.ts). */
  apart?: number;
  /** The datastore's error as it was (Retry-After included), or an unexpected one's message. */
  error?: { datastore?: WireError; message?: string };
};

/** The worker opened its connection and takes tasks. */
type Ready = { ready: true };

interface Slot {
  worker: Worker;
  busy: boolean;
  ready: boolean;
  /** Starts of this slot's worker that failed in a row. */
  failedStarts: number;
}

interface Pending {
  task: ReadTask;
  client: string;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  lane?: Lane;
  /** Part of a read the client's turn already let in: never refused (429). */
  admitted?: boolean;
  slot?: Slot;
  timer?: NodeJS.Timeout;
}

/** What a search sent `apart` answers when its page and its count are better read side by side:
 *  the caller sends them as reads of their own (search-apart.ts). */
export class ReadApart {
  /** `ranges`: 1 for a count read whole, else the ranges of `_id` it is read in. */
  constructor(readonly ranges: number) {}
}

const GRACE_MS = 2000;
/** Starts of one worker that may fail in a row before the pool gives up. */
const MAX_FAILED_STARTS = 3;
/** Bytes of kept totals: a thousand or so questions. */
const TOTALS_BYTES = 1 << 20;

export function defaultReadWorkers(): number {
  // One per core (at least two) for reads of any cost, and one more that expensive reads never
  // take, kept for cheap ones. Each costs an isolate and its page cache (docs/performance.md, "Cheap reads first").
  return Math.max(2, os.availableParallelism()) + 1;
}

/** Expensive reads that may run at once on `workers`: all but one, so one is always free for
 *  cheap reads (with a single worker, that one). */
export function defaultExpensiveReads(workers: number): number {
  return Math.max(1, workers - 1);
}

export class ReadPool {
  private slots: Slot[] = [];
  private scheduler: ReadScheduler<Pending>;
  private running = new Map<number, Pending>();
  /** Reads in the scheduler's lanes, for `others`. */
  private queued = new Set<Pending>();
  private nextId = 1;
  /** Reads answered in each lane, for tests and the bench. */
  readonly answered = { cheap: 0, expensive: 0 };
  /** Workers started, for tests. */
  started = 0;
  /** Searches answered ReadApart, for tests. */
  searchesApart = 0;
  /** Workers ready for reads, for tests. */
  get ready(): number {
    return this.slots.filter((s) => s.ready).length;
  }
  /** Set once workers cannot start: every read answers it. */
  private broken?: DatastoreUnavailable;
  /** Workers to start once the first is ready. */
  private later = 0;
  private closed = false;

  /** Answers to searches, per resource version (../page-cache.ts). */
  readonly pages: PageCache;
  /** Exact totals counted apart from their pages, per resource version (search-apart.ts). */
  readonly totals = new AnswerCache<unknown, number>(TOTALS_BYTES, () => 8);

  constructor(
    private file: string,
    size: number,
    /** Expensive reads that may run at once (an exact aggregate is split into as many parts). */
    readonly expensiveLimit = defaultExpensiveReads(size),
    readonly limits: ReadLimits,
    pageCacheBytes = 0,
  ) {
    this.pages = new PageCache(pageCacheBytes);
    this.scheduler = new ReadScheduler(Math.max(1, expensiveLimit));
    // One worker first, the others once it is ready: starting together, they share the cores
    // with each other and with the server's own start, and the first read waits for them all.
    this.slots.push(this.spawn());
    this.later = size - 1;
  }

  private spawn(failedStarts = 0): Slot {
    const worker = sourceWorker("lib/datastore/sqlite/read-worker.ts", { workerData: { file: this.file }, env: SHARE_ENV });
    this.started++;
    const slot: Slot = { worker, busy: false, ready: false, failedStarts };
    worker.unref();
    worker.on("message", (m: Reply | Ready) => {
      if (!("ready" in m)) return this.settle(slot, m);
      slot.ready = true;
      if (!this.closed) for (; this.later > 0; this.later--) this.slots.push(this.spawn());
      this.dispatch();
    });
    worker.on("error", (err) => this.fail(slot, err));
    return slot;
  }

  /**
   * Runs a read; `client` (a token id or an address) is whose turn it takes when expensive.
   * `admitted`: part of a read the client's turn already let in (search-apart.ts), which no
   * later 429 may throw away; with `expensive`, it waits in the expensive lane unjudged.
   */
  run(task: NewReadTask, client = "", admitted?: { expensive: boolean }): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      const limits = { queryTimeoutMs: this.limits.queryTimeoutMs, countBudgetMs: this.limits.countBudgetMs };
      const job: Pending = { task: { ...task, id: this.nextId++, judge: true, limits }, client, resolve, reject, admitted: admitted !== undefined };
      this.queue(job, admitted?.expensive ? "expensive" : "cheap");
      this.dispatch();
    });
  }

  private queue(job: Pending, lane: Lane): void {
    this.queued.add(job);
    this.scheduler.push(job, lane, job.client);
  }

  /**
   * A dump's rows in `_id` order (read-plan.ts inIdOrder), chunk by chunk by keyset, each chunk
   * a search of its own on the pool, scheduled as any other: a chunk an index bounds is cheap,
   * one that scans for its rows waits its client's turn. Rows written meanwhile ahead of the
   * walk are included (search.ts keysetChunks, the same walk on one connection).
   */
  async *keysetChunks(resourceId: string, query: SearchQuery, chunkRows: number, client = ""): AsyncGenerator<unknown[][]> {
    const pages = keysetPages(query, chunkRows);
    for (let step = pages.next(); !step.done; ) {
      const out = (await this.run({ op: "search", resourceId, query: step.value }, client)) as SearchOutput;
      if (out.rows.length === 0) return;
      yield out.rows;
      step = pages.next({ rows: out.rows.length, lastId: out.lastId });
    }
  }

  /**
   * Whether a read of `client` may take more than one worker: no read waits, no other client's
   * runs, and two workers are free. A client alone gets every core; under contention each read
   * takes one worker and its turn, as the scheduler shares them.
   */
  spare(client: string): boolean {
    const waiting = this.scheduler.waiting;
    if (waiting.cheap + waiting.expensive > 0) return false;
    for (const job of this.running.values()) if (job.client !== client) return false;
    return this.slots.filter((s) => s.ready && !s.busy).length >= 2;
  }

  /** Whether a read of another client than `client` waits or runs. */
  others(client: string): boolean {
    for (const job of this.running.values()) if (job.client !== client) return true;
    for (const job of this.queued) if (job.client !== client) return true;
    return false;
  }

  /** Hands waiting reads to ready workers: a read waits for the first worker up, not for the
   *  one it happened to be given while they were starting. */
  private dispatch(): void {
    while (this.slots.some((s) => s.ready && !s.busy)) {
      const next = this.scheduler.next();
      if (!next) return;
      const job = next.job;
      this.queued.delete(job);
      job.lane = next.lane;
      job.task.judge = next.lane === "cheap";
      const slot = this.slotFor(job.task)!;
      slot.busy = true;
      job.slot = slot;
      this.running.set(job.task.id, job);
      this.arm(job);
      slot.worker.postMessage(job.task);
    }
  }

  /**
   * A free worker for the task: for a best-first search, preferably the one its words hash to,
   * where its ranked list is likely kept already (each worker keeps its own); else any.
   */
  private slotFor(task: ReadTask): Slot | undefined {
    const free = this.slots.filter((s) => s.ready && !s.busy);
    if (free.length === 0) return undefined;
    if (task.op !== "search" || task.query.fts.length === 0) return free[0];
    const key = `${task.resourceId}\0${JSON.stringify(task.query.fts)}`;
    let h = 0;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
    const preferred = this.slots[Math.abs(h) % this.slots.length];
    return preferred.ready && !preferred.busy ? preferred : free[0];
  }

  /** Starts the job's time budget: once its worker runs it, not while the worker starts (a
   *  slow start on a busy machine is no slow read, and is no failed start either). */
  private arm(job: Pending): void {
    job.timer = setTimeout(() => this.timeout(job), job.task.limits.queryTimeoutMs + GRACE_MS);
  }

  /** Ends a running job's hold on its worker and its lane. */
  private release(job: Pending): void {
    this.running.delete(job.task.id);
    clearTimeout(job.timer);
    this.scheduler.finished(job.lane!, job.client);
  }

  private settle(slot: Slot, reply: Reply): void {
    const job = this.running.get(reply.id);
    slot.busy = false;
    if (job) {
      this.release(job);
      const refused = reply.expensive && !job.admitted ? this.scheduler.refusal(job.client) : undefined;
      if (refused) job.reject(refused);
      else if (reply.apart && this.spare(job.client)) {
        this.searchesApart++;
        job.resolve(new ReadApart(reply.apart));
      } else if (reply.expensive) this.queue(job, "expensive");
      else {
        this.answered[job.lane!]++;
        if (!reply.error) job.resolve(reply.result);
        else if (reply.error.datastore) job.reject(fromWire(reply.error.datastore));
        else job.reject(new Error(reply.error.message));
      }
    }
    this.dispatch();
  }

  private replace(slot: Slot): void {
    if (this.broken) return;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = this.spawn(slot.ready ? 0 : slot.failedStarts + 1);
  }

  private timeout(job: Pending): void {
    this.release(job);
    if (job.slot) {
      void job.slot.worker.terminate();
      this.replace(job.slot);
    }
    job.reject(DatastoreError.tooLong(job.task.limits.queryTimeoutMs));
    this.dispatch();
  }

  private fail(slot: Slot, err: Error): void {
    // After giving up, a late error from a worker being terminated changes nothing.
    if (this.broken) return;
    // Reads go to ready workers only (dispatch): one that never started had none.
    for (const job of [...this.running.values()]) {
      if (job.slot !== slot) continue;
      this.release(job);
      job.reject(err);
    }
    if (!slot.ready && slot.failedStarts + 1 >= MAX_FAILED_STARTS) return this.giveUp(err);
    this.replace(slot);
    this.dispatch();
  }

  /** Workers cannot start (the file unreadable, a missing dependency): every read, waiting or
   *  to come, answers so, once the reason is logged. */
  private giveUp(err: Error): void {
    const why = err.message || String((err as { code?: string }).code ?? err);
    this.broken = new DatastoreUnavailable(`read workers cannot start (${MAX_FAILED_STARTS} tries): ${why}`);
    console.error(`datastore: ${this.broken.message}; reads fail until the server restarts`);
    for (const job of this.running.values()) clearTimeout(job.timer);
    const waiting = [...this.running.values()];
    this.running.clear();
    for (let next = this.scheduler.next(); next; next = this.scheduler.next()) waiting.push(next.job);
    this.queued.clear();
    for (const job of waiting) job.reject(this.broken);
    void this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
