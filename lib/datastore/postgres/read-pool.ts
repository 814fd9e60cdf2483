// Data reads on PostgreSQL, scheduled as the SQLite engine schedules them: each read is judged
// cheap or expensive from PostgreSQL's own plan (read-cost.ts); cheap ones run at once, expensive
// ones wait their client's turn in the shared ReadScheduler (at most `expensiveLimit` at once),
// so connections beyond that stay free for cheap reads.
//
// Each read runs in one REPEATABLE READ READ ONLY transaction (one snapshot for a page and its
// total). With a replica, that transaction is on the replica and first reads the resource's
// version there: behind the version the engine just read from the primary (or missing), the
// replica has not replayed a write already acknowledged, and the read goes to the primary.
import type pg from "pg";
import type { AggregateOutput, AggregateSpec, HistogramOutput, ResourceStats, SearchOutput, SearchQuery, SummaryOptions, SummaryOutput, ValueCountsOutput } from "../engine";
import { keysetPages } from "../keyset";
import type { ReadLimits } from "../read-limits";
import { ReadScheduler } from "../read-scheduler";
import { aggregate } from "./aggregate";
import { isConnectionError } from "./errors";
import { histogram } from "./histogram";
import { observed, type PgIndexLearner } from "./learned-indexes";
import type { CostedRead, Verdict } from "../read-cost-rule";
import { CostJudge } from "./read-cost";
import { RankedLists } from "./ranked";
import { inIdOrder, planSearch, type ReadPlan } from "./read-plan";
import type { PgResource, Queryable } from "./resource";
import { cursorChunks, search } from "./search";
import { sizes } from "./statistics";
import { summary } from "./summary";
import { valueCounts } from "./value-counts";

export interface PgReadsOptions {
  primary: pg.Pool;
  replica?: pg.Pool;
  schema: string;
  expensiveLimit: number;
  limits: ReadLimits;
  learner?: PgIndexLearner;
}

/** Rows per chunk of a dump (as the SQLite engine's). */
const DUMP_CHUNK_ROWS = 1000;

type PoolName = "primary" | "replica";

/** A read's transaction: one snapshot, read only, under the query time limit in force now. */
const BEGIN_READ = (limits: ReadLimits) =>
  `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${Math.max(0, Math.round(limits.queryTimeoutMs))}`;

/** A connection in a read-only transaction, on the pool that serves the read. */
interface Session {
  db: pg.PoolClient;
  pool: PoolName;
}

export class PgReads {
  /** Reads served by each pool, for tests. */
  readonly served = { primary: 0, replica: 0 };
  /** Reads answered in each lane, for tests and the bench. */
  readonly answered = { cheap: 0, expensive: 0 };
  private readonly scheduler: ReadScheduler<() => void>;
  /** Best-first pages' ranked lists (ranked.ts), shared by every connection. */
  private readonly lists = new RankedLists();
  private readonly judge = new CostJudge(this.lists);
  private replicaDown = false;
  /** Expensive reads running (the scheduler counts them too, but does not say). */
  private runningExpensive = 0;

  constructor(private readonly opts: PgReadsOptions) {
    this.scheduler = new ReadScheduler(Math.max(1, opts.expensiveLimit));
  }

  /** The plan is built once: the judge reads it, then the search runs it. */
  async search(r: PgResource, q: SearchQuery, client: string): Promise<SearchOutput> {
    const plan = planSearch(r, q);
    return await this.read(r, client, { op: "search", query: q }, (db) => search(db, r, q, this.opts.limits, this.lists, plan), plan);
  }

  valueCounts(r: PgResource, field: string, q: SearchQuery, limit: number, client: string, budgetMs: number | null = null): Promise<ValueCountsOutput> {
    return this.read(r, client, { op: "valueCounts", query: q, field }, (db) => valueCounts(db, r, field, q, limit, budgetMs));
  }

  histogram(r: PgResource, field: string, q: SearchQuery, bins: number, client: string, budgetMs: number | null = null): Promise<HistogramOutput> {
    return this.read(r, client, { op: "histogram", query: q }, (db) => histogram(db, r, field, q, bins, budgetMs));
  }

  summary(r: PgResource, q: SearchQuery, options: SummaryOptions, client: string): Promise<SummaryOutput> {
    return this.read(r, client, { op: "summary", query: q }, (db) => summary(db, r, q, options));
  }

  aggregate(r: PgResource, q: SearchQuery, spec: AggregateSpec, client: string): Promise<AggregateOutput> {
    return this.read(r, client, { op: "aggregate", query: q }, (db) => aggregate(db, r, q, spec));
  }

  stats(r: PgResource, client: string): Promise<ResourceStats> {
    return this.read(r, client, { op: "stats" }, (db) => sizes(db, r));
  }

  /**
   * A dump's rows in chunks. In `_id` order, by keyset: each chunk a search of its own, scheduled
   * as any other, so a slow reader holds no connection or snapshot between chunks (as the SQLite
   * engine walks). In any other order, through a cursor in one transaction (one snapshot), with
   * no statement_timeout; the sort before its first chunk waits its turn as an expensive read.
   */
  async *iterate(r: PgResource, q: SearchQuery, client: string): AsyncIterableIterator<unknown[][]> {
    if (inIdOrder(q)) {
      const pages = keysetPages(q, DUMP_CHUNK_ROWS);
      for (let step = pages.next(); !step.done; ) {
        const out = await this.search(r, step.value, client);
        if (out.rows.length === 0) return;
        yield out.rows;
        step = pages.next({ rows: out.rows.length, lastId: out.lastId });
      }
      return;
    }
    await this.turn(client);
    let session: Session | null = null;
    let failure: unknown;
    let turnHeld = true;
    try {
      session = await this.open(r);
      await session.db.query("SET LOCAL statement_timeout = 0");
      this.served[session.pool]++;
      for await (const chunk of cursorChunks(session.db, r, q, DUMP_CHUNK_ROWS)) {
        // The cursor has sorted (its first chunk): later chunks only read on.
        if (turnHeld) {
          turnHeld = false;
          this.finished();
        }
        yield chunk;
      }
    } catch (e) {
      failure = e;
      throw e;
    } finally {
      if (turnHeld) this.finished();
      if (session) await this.end(session, failure);
    }
  }

  /** Nothing of its own to free: the engine ends the pools. */
  async close(): Promise<void> {}

  // ------------------------------------------------------------------------------ internals

  private read<T>(r: PgResource, client: string, costed: CostedRead, fn: (db: Queryable) => Promise<T>, plan?: ReadPlan): Promise<T> {
    return observed(this.opts.learner, r, costed, () => this.readNow(r, client, costed, fn, plan));
  }

  private async readNow<T>(r: PgResource, client: string, costed: CostedRead, fn: (db: Queryable) => Promise<T>, plan?: ReadPlan): Promise<T> {
    const session = await this.open(r);
    let verdict: Verdict;
    try {
      verdict = await this.judge.judge(session.db, r, costed, plan);
    } catch (e) {
      await this.end(session, e);
      throw e;
    }
    if (verdict.cost === "cheap") {
      const started = performance.now();
      const out = await this.run(session, fn);
      this.answered.cheap++;
      this.judge.observe(verdict.shape, performance.now() - started);
      return out;
    }
    // Expensive: the connection goes back while the read waits its turn (if it must wait).
    let kept: Session | null = session;
    if (!this.free()) {
      await this.end(session);
      kept = null;
    }
    await this.turn(client);
    try {
      const out = await this.run(kept ?? (await this.open(r)), fn);
      this.answered.expensive++;
      return out;
    } finally {
      this.finished();
    }
  }

  private async run<T>(session: Session, fn: (db: Queryable) => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await fn(session.db);
    } catch (e) {
      await this.end(session, e);
      throw e;
    }
    await this.end(session);
    this.served[session.pool]++;
    return out;
  }

  /** A read-only transaction on the replica when it has caught up with `r`, else the primary. */
  private async open(r: PgResource): Promise<Session> {
    const replica = this.opts.replica;
    if (replica && !this.replicaDown) {
      let c: pg.PoolClient | null = null;
      try {
        c = await replica.connect();
        await c.query(BEGIN_READ(this.opts.limits));
        const { rows } = await c.query<[unknown]>({ text: "SELECT version FROM datastore_resources WHERE id = $1", values: [r.id], rowMode: "array" });
        if (rows.length && Number(rows[0][0]) >= r.version) return { db: c, pool: "replica" };
        await c.query("ROLLBACK");
        c.release();
      } catch (e) {
        c?.release(isConnectionError(e) ? (e as Error) : true);
        // An unreachable replica: the primary serves until it answers again.
        if (isConnectionError(e)) this.markReplicaDown(e);
        else throw e;
      }
    }
    const c = await this.opts.primary.connect();
    try {
      await c.query(BEGIN_READ(this.opts.limits));
    } catch (e) {
      c.release(isConnectionError(e) ? (e as Error) : true);
      throw e;
    }
    return { db: c, pool: "primary" };
  }

  private markReplicaDown(e: unknown): void {
    if (this.replicaDown) return;
    this.replicaDown = true;
    console.error(`datastore: the PostgreSQL replica cannot be reached (${(e as Error)?.message}); reading from the primary for 10 s`);
    setTimeout(() => (this.replicaDown = false), 10_000).unref();
  }

  /** Ends the session's transaction and gives its connection back (dropped when broken). */
  private async end(session: Session, failure?: unknown): Promise<void> {
    if (failure !== undefined && isConnectionError(failure)) {
      session.db.release(failure as Error);
      return;
    }
    try {
      await session.db.query(failure === undefined ? "COMMIT" : "ROLLBACK");
      session.db.release();
    } catch (e) {
      session.db.release(e as Error);
    }
  }

  /** Whether an expensive read would start at once (a free place, and none waiting). */
  private free(): boolean {
    return this.runningExpensive < this.scheduler.expensiveLimit && this.scheduler.waiting.expensive === 0;
  }

  /** Waits for this client's turn in the expensive lane; `finished` ends it. */
  private turn(client: string): Promise<void> {
    return new Promise((resolve) => {
      this.scheduler.push(() => {
        this.runningExpensive++;
        resolve();
      }, "expensive", client);
      this.dispatch();
    });
  }

  private finished(): void {
    this.runningExpensive--;
    this.scheduler.finished("expensive");
    this.dispatch();
  }

  private dispatch(): void {
    for (let next = this.scheduler.next(); next; next = this.scheduler.next()) next.job();
  }
}
