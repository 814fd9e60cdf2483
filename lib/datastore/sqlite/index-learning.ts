// SQLite's part of learning indexes (the rule is ../index-learning-rule.ts): a build runs on an
// index-builder worker thread with a connection of its own, so it never blocks the server's
// event loop or its readers. The budget is planned there without any lock, the index built while
// the engine's write lock is held (one build at a time), and the write-ahead log emptied after.
import { SHARE_ENV, type Worker } from "node:worker_threads";
import { sourceWorker } from "../../source-worker";
import { IndexLearner, type BuildOutcome, type LearnEvent, type LearnSettings, type LearnTask } from "../index-learning-rule";
import type { BuilderTask } from "./index-builder";
import type { WriteLock } from "./write-lock";

export class SqliteIndexLearner extends IndexLearner {
  /** True while a build holds the write lock: the engine's own connection is idle meanwhile. */
  building = false;

  constructor(
    private readonly file: string,
    private readonly lock: WriteLock,
    settings: LearnSettings,
  ) {
    super(settings);
  }

  protected async build(task: LearnTask, event: LearnEvent): Promise<BuildOutcome> {
    const builder = await Builder.start(this.file);
    try {
      const plan = (await builder.ask({ op: "plan", ...task })) as { refused: string | null };
      if (plan.refused) return { refused: plan.refused };
      const outcome = await this.lock.run(async () => {
        const started = performance.now();
        this.building = true;
        try {
          return (await builder.ask({ op: "build", ...task })) as BuildOutcome;
        } finally {
          this.building = false;
          event.lockMs = Math.round(performance.now() - started);
        }
      });
      if ("built" in outcome) await builder.ask({ op: "checkpoint" });
      return outcome;
    } finally {
      await builder.stop();
    }
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
