// The index builder: a worker thread with a writable connection of its own, so building a
// learned index (seconds on millions of rows) never blocks the server's event loop or its
// readers. index-learning.ts sends `plan` (the budget, read without any lock), `build` once
// it holds the engine's write lock, then `checkpoint` after releasing it.
import { parentPort, workerData } from "node:worker_threads";
import { openWriter } from "./connection";
import { attachFor } from "./groups";
import type { LearnLimits } from "../index-learning-rule";
import { budgetRefusal, buildLearned } from "./learned-indexes";

export type BuilderTask = { op: "plan" | "build"; resourceId: string; field: string; reads: number; limits: LearnLimits } | { op: "checkpoint" };

// No read time limits: a build is bounded by its budget (learned-indexes.ts), not by a read's time.
const c = openWriter((workerData as { file: string }).file, { queryTimeoutMs: Infinity, countBudgetMs: Infinity });
// The build holds the write lock, so it is kept short: the index is sorted as declared ones
// are (schema.ts createIndex: small runs spilled to temporary files, faster than the writer's
// in-memory temporary store; docs/performance.md), with temporary files chosen here, as a
// transaction cannot change the store; and the write-ahead log is emptied after the lock is
// released (`checkpoint`), not in the commit.
c.db.pragma("temp_store = FILE");
c.db.pragma("wal_autocheckpoint = 0");

function run(task: BuilderTask): unknown {
  // The resource's group, attached before the transactions below (groups.ts).
  if (task.op !== "checkpoint") attachFor(c, [task.resourceId]);
  switch (task.op) {
    case "plan":
      return { refused: budgetRefusal(c, task.resourceId, task.field, task.limits) };
    case "build":
      return buildLearned(c, task.resourceId, task.field, task.reads, task.limits);
    case "checkpoint":
      c.db.pragma("wal_checkpoint(PASSIVE)");
      return {};
  }
}

parentPort!.on("message", (task: BuilderTask) => {
  try {
    parentPort!.postMessage({ result: run(task) });
  } catch (e) {
    parentPort!.postMessage({ error: { message: (e as Error).message, code: (e as { code?: string }).code } });
  }
});
parentPort!.postMessage({ ready: true });
