// The request budgets every app server shares on PostgreSQL (../rate-budget.ts): one row per
// bucket, its level as of its last lease, refilled and taken from in one statement on the
// database's clock, so app servers need no clock of their own in common. App servers lease
// slices, so this costs a round trip per slice, not per request. The table is UNLOGGED and made
// on first use, not by a migration: a budget is a few seconds' state, and losing it in a crash
// only gives every client a full bucket.
import type pg from "pg";
import type { BudgetStore, Lease, RatePolicy } from "../rate-budget";
import { createPool } from "./connection";
import { codeOf } from "./errors";

const TABLE = `CREATE UNLOGGED TABLE IF NOT EXISTS rate_budgets (
  key text PRIMARY KEY,
  level double precision NOT NULL,
  at double precision NOT NULL,
  granted double precision NOT NULL
)`;

const NOW = "extract(epoch FROM statement_timestamp())";
// The existing row's level now: refilled at $3 a second up to the burst ($2), less the debt ($4).
const LEVEL = `LEAST($2::float8, b.level + GREATEST(0, ${NOW} - b.at) * $3::float8) - $4::float8`;
const GRANT = (level: string) => `LEAST($5::float8, GREATEST(floor(${level}), 0))`;
const FRESH = "$2::float8 - $4::float8";

/** $1 key, $2 burst, $3 units a second, $4 debt, $5 units wanted. */
const LEASE = `INSERT INTO rate_budgets AS b (key, level, at, granted)
  VALUES ($1, ${FRESH} - ${GRANT(FRESH)}, ${NOW}, ${GRANT(FRESH)})
  ON CONFLICT (key) DO UPDATE SET level = ${LEVEL} - ${GRANT(LEVEL)}, at = ${NOW}, granted = ${GRANT(LEVEL)}
  RETURNING granted, level`;

/** A bucket untouched this long is full again (every burst refills within a minute or a few). */
const IDLE_SECONDS = 600;
const SWEEP_EVERY_MS = 5 * 60_000;

export class PgBudgets implements BudgetStore {
  private ready?: Promise<void>;
  private lastSweep = 0;

  constructor(private readonly pool: pg.Pool) {}

  async lease(key: string, p: RatePolicy, debt: number, want: number): Promise<Lease> {
    await (this.ready ??= this.create());
    const { rows } = await this.pool.query<{ granted: number; level: number }>(LEASE, [`${p.name}:${key}`, p.burst, p.perMinute / 60, debt, want]);
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) this.sweep();
    return { granted: Number(rows[0].granted), level: Number(rows[0].level) };
  }

  private async create(): Promise<void> {
    try {
      await this.pool.query(TABLE);
    } catch (e) {
      // Two app servers creating it at once: the other one's is as good.
      if (codeOf(e) === "23505" || codeOf(e) === "42P07") return;
      this.ready = undefined;
      throw e;
    }
  }

  private sweep(): void {
    this.lastSweep = Date.now();
    this.pool.query(`DELETE FROM rate_budgets WHERE at < ${NOW} - ${IDLE_SECONDS}`).catch(() => undefined);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** The shared budgets of the PostgreSQL store at `url`: a small pool of their own on the primary,
 *  so a lease never waits behind reads for a connection. */
export function openPgBudgets(url: string, schema: string): PgBudgets {
  return new PgBudgets(createPool({ url, schema, size: 2, role: "rate budgets", statementTimeoutMs: 5000 }));
}
