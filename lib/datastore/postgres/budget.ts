// A time budget for one step of a read (a count, an exact summary…), as sqlite/deadline.ts's
// `within`: the step runs under its own short statement_timeout inside a savepoint, so running
// out cancels only that step and the read goes on (with a sample, or an estimate). Reads always
// run inside a transaction (read-pool.ts, or the caller's write transaction), and a read changes
// nothing, so the savepoint is always rolled back: that also undoes the local setting.
import type pg from "pg";
import { codeOf } from "./errors";
import type { Queryable } from "./resource";

/** The step ran out of its budget (statement_timeout, SQLSTATE 57014). */
export const OVER_BUDGET = Symbol("over budget");

let savepoints = 0;

/**
 * The step's statement_timeout: `ms`, unless the read's own limit in force (0: none) is no
 * longer. Running out of that one is the read's failure (409 "query took too long"), not the
 * step's; `read_limited` says which it is.
 */
const stepTimeout = (ms: number) => `SELECT (t > 0 AND t <= ${ms})::int AS read_limited,
  set_config('statement_timeout', (CASE WHEN t > 0 AND t <= ${ms} THEN t ELSE ${ms} END)::text, true)
  FROM (SELECT ceil(extract(epoch FROM current_setting('statement_timeout')::interval) * 1000)::int8 AS t) AS s`;

/**
 * Runs `fn` on `db` (a client inside a transaction) with every statement limited to `ms`.
 * Returns OVER_BUDGET when a statement ran out of time; other failures are thrown.
 */
export async function within<T>(db: Queryable, ms: number, fn: () => Promise<T>): Promise<T | typeof OVER_BUDGET> {
  // No time at all (a count budget of 0): over at once, as SQLite's deadline would be.
  if (ms <= 0) return OVER_BUDGET;
  const name = `budget_${++savepoints}`;
  const set = (await db.query(`SAVEPOINT ${name}; ${stepTimeout(Math.max(1, Math.round(ms)))}`)) as unknown as pg.QueryResult<{ read_limited: number }>[];
  const readLimited = Number(set[1].rows[0].read_limited) === 1;
  let out: T | typeof OVER_BUDGET;
  try {
    out = await fn();
  } catch (e) {
    if (codeOf(e) !== "57014" || readLimited) {
      await db.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`).catch(() => undefined);
      throw e;
    }
    out = OVER_BUDGET;
  }
  await db.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
  return out;
}
