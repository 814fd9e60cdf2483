// Data reads on PostgreSQL, scheduled as the SQLite engine schedules them: each read is judged
// cheap or expensive from PostgreSQL's own plan (read-cost.ts); cheap ones run at once, expensive
// ones wait their client's turn in the shared ReadScheduler (at most `expensiveLimit` at once),
// so connections beyond that stay free for cheap reads.
//
// Most searches read in one statement, on a connection of their own without a transaction (one
// statement sees one snapshot; one-statement.ts). Other reads run in one REPEATABLE READ READ
// ONLY transaction (one snapshot for their statements). With a replica, a read goes there once
// the resource's version there is checked: behind the version the engine just read from the
// primary (or missing), the replica has not replayed a write already acknowledged, and the read
// goes to the primary. Without one, a search given the name its copy was looked up by checks,
// in the same round trip, that the copy is the catalog's current one (the engine keeps copies
// across requests); when it is not, it reads nothing and fails with DatastoreError.changed (or
// 404 when the resource is gone).
import type pg from "pg";
import type { AggregateOutput, AggregateSpec, HistogramOutput, ResourceStats, SearchOutput, SearchQuery, SummaryOptions, SummaryOutput, ValueCountsOutput } from "../engine";
import { keysetPages } from "../keyset";
import { PageCache } from "../page-cache";
import type { ReadLimits } from "../read-limits";
import { ReadScheduler } from "../read-scheduler";
import { DatastoreError } from "../errors";
import { aggregate } from "./aggregate";
import { findResource } from "./catalog";
import { readTimeout } from "./connection";
import { CopyChecks, copiesAreCurrent } from "./copy-checks";
import { codeOf, dumpIdle, isConnectionError } from "./errors";
import { histogram } from "./histogram";
import { observed, type PgIndexLearner } from "./learned-indexes";
import type { CostedRead, Verdict } from "../read-cost-rule";
import { CostJudge } from "./read-cost";
import { NOT_CURRENT, rankedOnce, searchOnce, type CopyCheckMode } from "./one-statement";
import { bestFirstRank, listKey, RankedLists } from "./ranked";
import { inIdOrder, planSearch, type ReadPlan } from "./read-plan";
import type { PgResource } from "./resource";
import { cursorChunks, inOneStatement, search } from "./search";
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
  /** Search answers kept (../page-cache.ts); 0 or unset: none. */
  pageCacheBytes?: number;
  /** A cursor dump left unread this long is ended (ms); default a minute. */
  dumpIdleMs?: number;
}

/** Rows per chunk of a dump (as the SQLite engine's). */
const DUMP_CHUNK_ROWS = 1000;

type PoolName = "primary" | "replica";

/** A read's transaction: one snapshot, read only, under the query time limit in force now. */
const BEGIN_READ = (limits: ReadLimits) =>
  `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${Math.max(0, Math.round(limits.queryTimeoutMs))}`;

/** A connection serving one read, on the pool that serves it: in a read-only transaction, or
 *  bare for a read in one statement. */
interface Session {
  db: pg.PoolClient;
  pool: PoolName;
  tx: boolean;
}

/** How a read runs. */
interface ReadHow {
  /** In a transaction (several statements over one snapshot), else one statement. */
  tx: boolean;
  /** The name the caller's copy was looked up by: the read checks the copy against the
   *  catalog's current row (on the primary; a replica checks versions alone). */
  name?: string;
  /** A search's plan, built once for the judge and the read. */
  plan?: ReadPlan;
  /** The primary only (the replica went away). */
  primary?: boolean;
}

/** A column or table the statement names is gone (undefined_column, undefined_table). */
const STALE_SHAPE = new Set(["42703", "42P01"]);

/** Whether copy `r` is still the catalog's current one for `name` (catalog.ts copyCheck). */
async function copyIsCurrent(db: pg.PoolClient, r: PgResource, name: string): Promise<boolean> {
  return (await copiesAreCurrent(db, [{ r, name }]))[0];
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
  /** Answers of searches on checked copies, by the copy's table and version: one answers again
   *  once a statement that reads nothing else has found the copy still current. */
  private readonly pages: PageCache;
  /** Kept answers' checks, several to a statement (copy-checks.ts). */
  readonly checks = new CopyChecks((copies) => this.checkCopies(copies));
  private replicaDown = false;
  /** Expensive reads running (the scheduler counts them too, but does not say). */
  private runningExpensive = 0;

  constructor(private readonly opts: PgReadsOptions) {
    this.scheduler = new ReadScheduler(Math.max(1, opts.expensiveLimit));
    this.pages = new PageCache(opts.pageCacheBytes ?? 0);
  }

  /** The plan is built once: the judge reads it, then the search runs it. `name`: the name the
   *  copy `r` was looked up by, to check it against the catalog (see top). */
  async search(r: PgResource, q: SearchQuery, client: string, name?: string): Promise<SearchOutput> {
    if (name === undefined || this.opts.replica) return this.searchNow(r, q, client, name);
    const state = `${r.table}\0${r.version}`;
    const kept = this.pages.get(state, q);
    if (kept) {
      if (await this.current(r, name)) return kept;
      throw await this.notCurrent(name);
    }
    const out = await this.searchNow(r, q, client, name);
    this.pages.keep(state, q, out);
    return out;
  }

  private async searchNow(r: PgResource, q: SearchQuery, client: string, name?: string): Promise<SearchOutput> {
    const plan = planSearch(r, q);
    const costed: CostedRead = { op: "search", query: q };
    const check = (s: Session): CopyCheckMode => (s.pool === "primary" && name !== undefined ? { name } : "none");
    const rank = bestFirstRank(plan.where, q);
    const list = rank === null ? undefined : this.lists.get(listKey(r, plan.where, rank));
    if (list) return await this.read(r, client, costed, (s) => rankedOnce(s.db, r, q, plan, list, check(s)), { tx: false, name, plan });
    if (inOneStatement(r, q, plan)) return await this.read(r, client, costed, (s) => searchOnce(s.db, r, q, plan, check(s)), { tx: false, name, plan });
    return await this.read(r, client, costed, (s) => search(s.db, r, q, this.opts.limits, this.lists, plan), { tx: true, name, plan });
  }

  valueCounts(r: PgResource, field: string, q: SearchQuery, limit: number, client: string, budgetMs: number | null = null): Promise<ValueCountsOutput> {
    return this.read(r, client, { op: "valueCounts", query: q, field }, (s) => valueCounts(s.db, r, field, q, limit, budgetMs), { tx: true });
  }

  histogram(r: PgResource, field: string, q: SearchQuery, bins: number, client: string, budgetMs: number | null = null): Promise<HistogramOutput> {
    return this.read(r, client, { op: "histogram", query: q }, (s) => histogram(s.db, r, field, q, bins, budgetMs), { tx: true });
  }

  summary(r: PgResource, q: SearchQuery, options: SummaryOptions, client: string): Promise<SummaryOutput> {
    return this.read(r, client, { op: "summary", query: q }, (s) => summary(s.db, r, q, options), { tx: true });
  }

  aggregate(r: PgResource, q: SearchQuery, spec: AggregateSpec, client: string): Promise<AggregateOutput> {
    return this.read(r, client, { op: "aggregate", query: q }, (s) => aggregate(s.db, r, q, spec), { tx: true });
  }

  stats(r: PgResource, client: string): Promise<ResourceStats> {
    return this.read(r, client, { op: "stats" }, (s) => sizes(s.db, r), { tx: true });
  }

  /**
   * A dump's rows in chunks. In `_id` order, by keyset: each chunk a search of its own, scheduled
   * as any other, so a slow reader holds no connection or snapshot between chunks (as the SQLite
   * engine walks). In any other order, through a cursor in one transaction (one snapshot), with
   * no statement_timeout; the sort before its first chunk waits its turn as an expensive read.
   * A client that stops reading would hold that connection and snapshot for ever: left unread
   * past dumpIdleMs, the connection is closed (the server ends its transaction), and the dump
   * fails when next read.
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
    const refused = this.scheduler.refusal(client);
    if (refused) throw refused;
    await this.turn(client);
    let session: Session | null = null;
    let failure: unknown;
    let turnHeld = true;
    let closed = false;
    const idleMs = this.opts.dumpIdleMs ?? 60_000;
    try {
      session = await this.open(r, { tx: true });
      await session.db.query("SET LOCAL statement_timeout = 0");
      this.served[session.pool]++;
      const db = session.db;
      for await (const chunk of cursorChunks(db, r, q, DUMP_CHUNK_ROWS)) {
        // The cursor has sorted (its first chunk): later chunks only read on.
        if (turnHeld) {
          turnHeld = false;
          this.finished(client);
        }
        const idle = setTimeout(() => {
          closed = true;
          db.release(dumpIdle(idleMs));
        }, idleMs);
        try {
          yield chunk;
        } finally {
          clearTimeout(idle);
        }
        if (closed) throw dumpIdle(idleMs);
      }
    } catch (e) {
      failure = e;
      throw e;
    } finally {
      if (turnHeld) this.finished(client);
      if (session && !closed) await this.end(session, failure);
    }
  }

  /** The replica serves another database (health.ts checkReplica): the primary serves every
   *  read from now on. */
  dropReplica(): void {
    this.opts.replica = undefined;
  }

  /** Nothing of its own to free: the engine ends the pools. */
  async close(): Promise<void> {}

  // ------------------------------------------------------------------------------ internals

  private read<T>(r: PgResource, client: string, costed: CostedRead, fn: (s: Session) => Promise<T | typeof NOT_CURRENT>, how: ReadHow): Promise<T> {
    return observed(this.opts.learner, r, costed, () => this.readNow(r, client, costed, fn, how));
  }

  private async readNow<T>(r: PgResource, client: string, costed: CostedRead, fn: (s: Session) => Promise<T | typeof NOT_CURRENT>, how: ReadHow): Promise<T> {
    const session = await this.open(r, how);
    let verdict: Verdict;
    try {
      verdict = await this.judge.judge(session.db, r, costed, how.plan);
    } catch (e) {
      await this.end(session, e);
      throw await this.staleOr(e, how);
    }
    if (verdict.cost === "cheap") {
      const started = performance.now();
      const out = await this.run(r, session, fn, how);
      this.answered.cheap++;
      this.judge.observe(verdict.shape, performance.now() - started);
      return out;
    }
    const refused = this.scheduler.refusal(client);
    if (refused) {
      await this.end(session);
      throw refused;
    }
    // Expensive: the connection goes back while the read waits its turn (if it must wait).
    let kept: Session | null = session;
    if (!this.free()) {
      await this.end(session);
      kept = null;
    }
    await this.turn(client);
    try {
      const out = await this.run(r, kept ?? (await this.open(r, how)), fn, how);
      this.answered.expensive++;
      return out;
    } finally {
      this.finished(client);
    }
  }

  private async run<T>(r: PgResource, session: Session, fn: (s: Session) => Promise<T | typeof NOT_CURRENT>, how: ReadHow): Promise<T> {
    let out: T | typeof NOT_CURRENT;
    try {
      out = await fn(session);
    } catch (e) {
      await this.end(session, e);
      // One statement on the replica, which went away: the primary answers it instead.
      if (!session.tx && session.pool === "replica" && isConnectionError(e)) {
        this.markReplicaDown(e);
        return this.run(r, await this.open(r, { ...how, primary: true }), fn, how);
      }
      throw await this.staleOr(e, how);
    }
    await this.end(session);
    if (out === NOT_CURRENT) throw await this.notCurrent(how.name ?? r.id);
    this.served[session.pool]++;
    return out;
  }

  /** A connection for the read: bare (readTimeout) for one statement, else in a read-only
   *  transaction. On the replica when there is one and it has the copy's version; else the
   *  primary, where a transaction checks the copy against `how.name` when given (one statement
   *  checks it in itself). */
  private async open(r: PgResource, how: ReadHow): Promise<Session> {
    const replica = this.opts.replica;
    if (replica && !this.replicaDown && !how.primary) {
      let c: pg.PoolClient | null = null;
      try {
        c = await replica.connect();
        // Its version first, on its own: a statement naming the resource's table or columns
        // would fail on a replica that has not replayed their creation yet.
        if (how.tx) await c.query(BEGIN_READ(this.opts.limits));
        else await readTimeout(c, this.opts.limits.queryTimeoutMs);
        const { rows } = await c.query<[unknown]>({ text: "SELECT version FROM datastore_resources WHERE id = $1", values: [r.id], rowMode: "array" });
        if (rows.length && Number(rows[0][0]) >= r.version) return { db: c, pool: "replica", tx: how.tx };
        if (how.tx) await c.query("ROLLBACK");
        c.release();
      } catch (e) {
        c?.release(isConnectionError(e) ? (e as Error) : true);
        // An unreachable replica: the primary serves until it answers again.
        if (isConnectionError(e)) this.markReplicaDown(e);
        else throw e;
      }
    }
    const c = await this.opts.primary.connect();
    let current = true;
    try {
      if (!how.tx) {
        await readTimeout(c, this.opts.limits.queryTimeoutMs);
        return { db: c, pool: "primary", tx: false };
      }
      await c.query(BEGIN_READ(this.opts.limits));
      if (how.name !== undefined) {
        current = await copyIsCurrent(c, r, how.name);
      }
    } catch (e) {
      c.release(isConnectionError(e) ? (e as Error) : true);
      throw e;
    }
    const session: Session = { db: c, pool: "primary", tx: true };
    if (current) return session;
    await this.end(session);
    throw await this.notCurrent(how.name!);
  }

  /** Whether copy `r` is still the catalog's current one for `name` (a kept answer's check,
   *  shared with the checks asked at the same time: copy-checks.ts). */
  private current(r: PgResource, name: string): Promise<boolean> {
    return this.checks.check(r, name);
  }

  private async checkCopies(copies: { r: PgResource; name: string }[]): Promise<boolean[]> {
    const c = await this.opts.primary.connect();
    try {
      await readTimeout(c, this.opts.limits.queryTimeoutMs);
      const current = await copiesAreCurrent(c, copies);
      c.release();
      return current;
    } catch (e) {
      c.release(isConnectionError(e) ? (e as Error) : true);
      throw e;
    }
  }

  /** A checked copy's statement naming a column or table dropped since: the copy is behind
   *  (a replica is never given a name to check). Else `e`. */
  private async staleOr(e: unknown, how: ReadHow): Promise<unknown> {
    return how.name !== undefined && STALE_SHAPE.has(codeOf(e)) ? await this.notCurrent(how.name) : e;
  }

  /** The failure of a read on a copy behind the catalog: 404 when the resource is gone, else
   *  DatastoreError.changed (the caller looks it up again: ../context.ts readResource). */
  private async notCurrent(name: string): Promise<DatastoreError> {
    const now = await findResource(this.opts.primary, name);
    return now?.active ? DatastoreError.changed() : DatastoreError.notFound(`Resource "${name}" was not found.`);
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
    if (!session.tx) {
      session.db.release();
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

  private finished(client: string): void {
    this.runningExpensive--;
    this.scheduler.finished("expensive", client);
    this.dispatch();
  }

  private dispatch(): void {
    for (let next = this.scheduler.next(); next; next = this.scheduler.next()) next.job();
  }
}
