// Time budgets for reads. better-sqlite3 has no sqlite3_interrupt, so a read's WHERE calls
// `ds_deadline()` on a fraction of the rows it visits, and that function throws once the
// connection's deadline has passed, which stops the statement.
import type Database from "better-sqlite3";

/** Thrown from inside SQLite (by `ds_deadline()`) when a read runs past its time budget of `ms`. */
export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super("deadline");
  }
}

const deadlines = new WeakMap<Database.Database, { at: number; ms: number }>();

export function installDeadline(db: Database.Database): void {
  if (deadlines.has(db)) return;
  const state = { at: Infinity, ms: Infinity };
  deadlines.set(db, state);
  db.function("ds_deadline", { deterministic: false }, () => {
    if (Date.now() > state.at) throw new DeadlineExceeded(state.ms);
    return 1;
  });
}

/** Runs fn with reads on `db` limited to `ms` (nested budgets keep the earlier deadline). */
export function within<T>(db: Database.Database, ms: number, fn: () => T): T {
  const state = deadlines.get(db)!;
  const saved = { ...state };
  const at = Date.now() + ms;
  if (at < state.at) Object.assign(state, { at, ms });
  try {
    return fn();
  } finally {
    Object.assign(state, saved);
  }
}

/** The check added to a WHERE: on about one row in 251 (a prime, so that no regular pattern
 *  in the rows a filter keeps can skip every check). */
export const DEADLINE_CHECK = "(t._id % 251 != 0 OR ds_deadline())";
