// A time budget for one step of a read (a count, an exact summary…), as sqlite/deadline.ts's
// `within`: the step runs under its own short statement_timeout inside a savepoint, so running
// out cancels only that step and the read goes on (with a sample, or an estimate). Reads always
// run inside a transaction (read-pool.ts, or the caller's write transaction), and a read changes
// nothing, so the savepoint is always rolled back: that also undoes the SET LOCAL.
import { config } from "../../config";
import { codeOf } from "./errors";
import type { Queryable } from "./resource";

/** The step ran out of its budget (statement_timeout, SQLSTATE 57014). */
export const OVER_BUDGET = Symbol("over budget");

let savepoints = 0;

/**
 * Runs `fn` on `db` (a client inside a transaction) with every statement limited to `ms`.
 * Returns OVER_BUDGET when a statement ran out of time; other failures are thrown.
 */
export async function within<T>(db: Queryable, ms: number, fn: () => Promise<T>): Promise<T | typeof OVER_BUDGET> {
  // Never past the query's own time limit: running out of that one is the read's failure
  // (409 "query took too long"), not the step's.
  // No time at all (DATASTORE_COUNT_BUDGET_MS=0): over at once, as SQLite's deadline would be.
  if (ms <= 0) return OVER_BUDGET;
  const timeout = config.queryTimeoutMs;
  const queryLimited = timeout > 0 && timeout <= ms;
  const name = `budget_${++savepoints}`;
  await db.query(`SAVEPOINT ${name}; SET LOCAL statement_timeout = ${Math.max(1, Math.round(queryLimited ? timeout : ms))}`);
  let out: T | typeof OVER_BUDGET;
  try {
    out = await fn();
  } catch (e) {
    if (codeOf(e) !== "57014" || queryLimited) {
      await db.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`).catch(() => undefined);
      throw e;
    }
    out = OVER_BUDGET;
  }
  await db.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
  return out;
}
