// A read planned once for every engine and run by each (aggregate-groups.ts, summary-plan.ts):
// the plan is a generator that hands over each read it needs (`yield* got(reads.x())`) and gets
// its result back. SQLite answers at once (inside its read transaction, which cannot wait for a
// promise: runNow), PostgreSQL after a round trip (runLater). So the steps of a bounded read
// (exact within a budget, else a sample, else the first rows) are written once, and an engine
// only says how it reads.

/** What an engine's read gives: its result now, or a promise of it. */
export type Got<T> = T | Promise<T>;

/** A plan: what it yields is a read's Got, what it is sent back is that read's result. */
export type Plan<T> = Generator<unknown, T, never>;

/** Inside a plan: the read's result, however it comes. */
export function* got<T>(read: Got<T>): Generator<Got<T>, T, T> {
  return yield read;
}

/** Runs a plan whose reads answer at once. */
export function runNow<T>(plan: Plan<T>): T {
  let step = plan.next();
  while (!step.done) {
    if (step.value instanceof Promise) throw new Error("runNow: a read returned a promise; use runLater");
    step = plan.next(step.value as never);
  }
  return step.value;
}

/** Runs a plan whose reads may answer later. */
export async function runLater<T>(plan: Plan<T>): Promise<T> {
  let step = plan.next();
  while (!step.done) step = plan.next((await step.value) as never);
  return step.value;
}
