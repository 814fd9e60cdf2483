// A kept answer is given again only after a statement on the primary has found its catalog
// copy still current (read-pool.ts), so a write committed through any app server is never
// hidden. That statement is a round trip, about half the time of a kept answer. Checks asked in
// the same turn of the event loop share one statement, sent at the end of that turn: after each
// was asked, so each answer is as fresh as with a statement of its own, and no check waits for
// another statement to come back (waiting for one already sent cost more than it saved).
import type pg from "pg";
import { copyCheck } from "./catalog";
import { prepared } from "./connection";
import type { PgResource } from "./resource";

/** Distinct copies checked in one statement at most (each shape is prepared once per connection). */
export const CHECKS_PER_STATEMENT = 16;

interface Waiting {
  r: PgResource;
  name: string;
  done: (current: boolean) => void;
  fail: (e: unknown) => void;
}

/** Whether each copy is still the catalog's current one for its name (catalog.ts copyCheck), in
 *  one statement. */
export async function copiesAreCurrent(db: pg.PoolClient, copies: { r: PgResource; name: string }[]): Promise<boolean[]> {
  const values: unknown[] = [];
  const columns = copies.map(({ r, name }) => `coalesce((SELECT ok FROM (${copyCheck(r, name, values)}) AS k), false)`);
  const { rows } = await db.query<boolean[]>({ ...prepared(db, `SELECT ${columns.join(", ")}`), values, rowMode: "array" });
  return rows[0];
}

export class CopyChecks {
  private waiting: Waiting[] = [];
  /** Statements sent, for tests. */
  statements = 0;

  /** `run` checks distinct copies in one statement. */
  constructor(private readonly run: (copies: { r: PgResource; name: string }[]) => Promise<boolean[]>) {}

  check(r: PgResource, name: string): Promise<boolean> {
    return new Promise((done, fail) => {
      if (this.waiting.push({ r, name, done, fail }) === 1) setImmediate(() => this.send());
    });
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    // The same copy asked by several requests is checked once.
    const keys = new Map<string, { r: PgResource; name: string; asked: Waiting[] }>();
    for (const w of batch) {
      const key = `${w.name}\0${w.r.id}\0${w.r.table}\0${w.r.version}\0${w.r.private}`;
      const entry = keys.get(key);
      if (entry) entry.asked.push(w);
      else keys.set(key, { r: w.r, name: w.name, asked: [w] });
    }
    const copies = [...keys.values()];
    for (let i = 0; i < copies.length; i += CHECKS_PER_STATEMENT) {
      const part = copies.slice(i, i + CHECKS_PER_STATEMENT);
      this.statements++;
      this.run(part).then(
        (current) => part.forEach((c, k) => c.asked.forEach((w) => w.done(current[k]))),
        (e: unknown) => part.forEach((c) => c.asked.forEach((w) => w.fail(e))),
      );
    }
  }
}
