// Indexes follow use: the engine reports every read's time and query here; a field that a
// slow read filtered or sorted on without an index to start from counts as evidence, and a
// field with enough evidence (docs/performance.md "Indexes": by default 3 reads over 50 ms
// within ten minutes) gets an index, built by a worker thread (index-builder.ts) while the engine's write lock is held,
// one build at a time, within a per-resource budget. Evidence lives in memory: it is cheap to
// gather again after a restart, and recording it in the file would make every slow read a write.
import { SHARE_ENV, type Worker } from "node:worker_threads";
import { sourceWorker } from "../../source-worker";
import type { Filter, Resource, SearchQuery } from "../engine";
import { isArrayType } from "../types";
import type { BuilderTask } from "./index-builder";
import type { BuildOutcome, LearnLimits } from "./learned-indexes";
import type { WriteLock } from "./write-lock";

const WINDOW_MS = 10 * 60_000;
/** Fields followed at once; past this the oldest evidence is forgotten. */
const MAX_TRACKED = 10_000;
/** A scan of fewer rows takes a few ms: a slow read of such a table waited for something else. */
export const LEARN_MIN_ROWS = 10_000;

/** Index learning's settings (configuration: DATASTORE_ADAPTIVE_*), read as reads finish. */
export interface LearnSettings {
  /** Off: nothing is learned (the import rule, auto-index.ts, picks indexes instead). */
  readonly adaptiveIndexes: boolean;
  /** A read at least this slow is evidence for indexing the fields it filters or sorts on. */
  readonly adaptiveSlowMs: number;
  /** Slow reads of one field (within ten minutes) that earn it an index. */
  readonly adaptiveReads: number;
  /** Learned indexes one resource may have. */
  readonly adaptiveMaxIndexes: number;
  /** Learned indexes may take at most this share of their table's size (percent). */
  readonly adaptiveMaxSizePercent: number;
}

/** What the last build did, for tests and the bench (the catalog keeps the index itself). */
export interface LearnEvent {
  resourceId: string;
  field: string;
  outcome: "built" | "refused" | "failed";
  detail: string;
  /** How long the engine's write lock was held (ms), when it was taken. */
  lockMs?: number;
}

/**
 * Fields whose index could answer the read: those of the ANDed comparisons (an OR needs an
 * index for each branch, so it is left out; `x_not_in` and `x_empty` cannot seek), and the
 * first sort key when `sorted`. Ranges and sorts on arrays compare through a function, which a
 * plain index cannot serve.
 */
export function usedFields(r: Resource, query: SearchQuery, sorted: boolean): string[] {
  const types = new Map(r.fields.map((f) => [f.id, f.type]));
  const out = new Set<string>();
  const visit = (f: Filter): void => {
    if (f.op === "and") return f.of.forEach(visit);
    if (f.op === "or" || f.op === "not_in" || f.op === "empty") return;
    const t = types.get(f.field);
    if (!t) return;
    if (f.op === "eq" || f.op === "in" || (!isArrayType(t) && t !== "json")) out.add(f.field);
  };
  query.filters.forEach(visit);
  const first = sorted ? query.sort[0] : undefined;
  const t = first && types.get(first.field);
  if (first && t && !isArrayType(t) && t !== "json") out.add(first.field);
  return [...out];
}

/** Fields some index of the resource starts with, as the catalog knows them. */
function leadingFields(r: Resource): Set<string> {
  return new Set(["_id", ...r.primaryKey.slice(0, 1), ...r.indexes.map((ix) => ix[0]), ...(r.learnedIndexes ?? []).map((ix) => ix.fields[0])]);
}

export class IndexLearner {
  private evidence = new Map<string, number[]>();
  private resting = new Map<string, number>();
  private running: Promise<void> | null = null;
  /** True while a build holds the write lock: the engine's own connection is idle meanwhile. */
  building = false;
  readonly events: LearnEvent[] = [];

  constructor(
    private readonly file: string,
    private readonly lock: WriteLock,
    private readonly settings: LearnSettings,
  ) {}

  /** A read finished (or failed) after `ms`; `sorted`: its sort order was the read's own. */
  observe(r: Resource, query: SearchQuery, ms: number, sorted: boolean): void {
    const settings = this.settings;
    if (!settings.adaptiveIndexes || ms < settings.adaptiveSlowMs || r.rowCount < LEARN_MIN_ROWS) return;
    const limits = { maxIndexes: settings.adaptiveMaxIndexes, maxSizePercent: settings.adaptiveMaxSizePercent };
    if ((r.learnedIndexes?.length ?? 0) >= limits.maxIndexes) return;
    const indexed = leadingFields(r);
    const now = Date.now();
    for (const field of usedFields(r, query, sorted)) {
      if (indexed.has(field)) continue;
      const key = `${r.id}\u0000${field}`;
      const times = (this.evidence.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
      times.push(now);
      if (times.length > 1000) times.shift();
      this.evidence.delete(key); // re-inserted last: the map stays in order of last use
      this.evidence.set(key, times);
      if (this.evidence.size > MAX_TRACKED) this.evidence.delete(this.evidence.keys().next().value!);
      if (times.length < settings.adaptiveReads || this.running || (this.resting.get(key) ?? 0) > now) continue;
      this.running = this.learn(r.id, field, times.length, limits)
        .catch((e) => console.error("datastore: learning an index failed", e))
        .finally(() => (this.running = null));
    }
  }

  /** Plans (budget), then builds under the write lock, then empties the log; never throws
   *  at a reader: a failure is logged, and the field rests for a while. */
  private async learn(resourceId: string, field: string, reads: number, limits: LearnLimits): Promise<void> {
    const key = `${resourceId}\u0000${field}`;
    const builder = await Builder.start(this.file);
    const event: LearnEvent = { resourceId, field, outcome: "failed", detail: "" };
    try {
      const task = { resourceId, field, reads, limits };
      const plan = (await builder.ask({ op: "plan", ...task })) as { refused: string | null };
      let outcome: BuildOutcome = plan.refused ? { refused: plan.refused } : { refused: "" };
      if (!plan.refused) {
        outcome = await this.lock.run(async () => {
          const started = performance.now();
          this.building = true;
          try {
            return (await builder.ask({ op: "build", ...task })) as BuildOutcome;
          } finally {
            this.building = false;
            event.lockMs = Math.round(performance.now() - started);
          }
        });
      }
      if ("built" in outcome) {
        Object.assign(event, { outcome: "built", detail: `${outcome.built.buildMs} ms, ${outcome.built.bytes} bytes` });
        this.evidence.delete(key);
        console.info(`datastore: learned an index on "${field}" of ${resourceId} after ${reads} slow reads (${event.detail})`);
        await builder.ask({ op: "checkpoint" });
      } else {
        Object.assign(event, { outcome: "refused", detail: outcome.refused });
        this.resting.set(key, Date.now() + WINDOW_MS);
      }
    } catch (e) {
      event.detail = (e as Error).message;
      this.resting.set(key, Date.now() + WINDOW_MS);
      throw e;
    } finally {
      this.events.push(event);
      if (this.events.length > 100) this.events.shift();
      await builder.stop();
    }
  }

  /** Waits for a build under way (seconds at most), so the file closes with it done. */
  async close(): Promise<void> {
    await this.running;
  }
}

/** One index-builder worker: questions answered in order, one at a time. */
class Builder {
  private waiting: ((reply: { result?: unknown; error?: { message: string } }) => void) | null = null;

  private constructor(private worker: Worker) {
    worker.on("message", (reply) => this.waiting?.(reply));
    worker.on("error", (err) => this.waiting?.({ error: { message: err.message } }));
    worker.on("exit", () => this.waiting?.({ error: { message: "the index builder stopped" } }));
  }

  static async start(file: string): Promise<Builder> {
    const worker = sourceWorker("lib/datastore/sqlite/index-builder.ts", { workerData: { file }, env: SHARE_ENV });
    worker.unref();
    const builder = new Builder(worker);
    await new Promise<void>((resolve, reject) => {
      builder.waiting = (reply) => (reply.error ? reject(new Error(reply.error.message)) : resolve());
    });
    return builder;
  }

  ask(task: BuilderTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting = (reply) => {
        this.waiting = null;
        if (reply.error) reject(new Error(reply.error.message));
        else resolve(reply.result);
      };
      this.worker.postMessage(task);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
