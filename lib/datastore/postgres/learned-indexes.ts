// Learned indexes on PostgreSQL; which field earns one is the rule's (../index-learning-rule.ts).
// A build runs CREATE INDEX CONCURRENTLY on a connection of its own (it cannot run inside a
// transaction, and may take longer than the reads' statement_timeout), so writes go on while it
// builds; the catalog row then records it under the resource's lock. Several app servers may
// earn the same index at once: its name is the claim, as PostgreSQL lets one CREATE INDEX take
// a name and fails the others at once, and a build in progress shows in
// pg_stat_progress_create_index; no lock is held across statements (a session's advisory lock
// would not hold through a pooler). An index left invalid by a build that died is dropped before
// building again. Declared indexes, key and field changes keep the recorded list right
// (dropCovered, dropOnFields).
import pg from "pg";
import { now } from "../catalog-row";
import type { LearnedIndex } from "../engine";
import { budgetRefusal, countRefusal, IndexLearner, learnedName, type BuildOutcome, type LearnSettings, type LearnTask } from "../index-learning-rule";
import type { CostedRead } from "../read-cost-rule";
import { wrote } from "../resolved";
import { findResource, lockResource } from "./catalog";
import { APPLICATION_NAME } from "./connection";
import { codeOf } from "./errors";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";

/** B-tree leaf pages are filled to 90% when built (the default fillfactor). */
const FILL = 0.9;
/** Bytes an index entry takes besides its value: the tuple header, its line pointer, alignment. */
const ENTRY_OVERHEAD = 16;
/** How long recording the index waits for a writer of the resource. */
const LOCK_TIMEOUT_MS = 10_000;

/** Where an index stands, by its name: not there, being built, left invalid by a build that died, or usable. */
type IndexState = "none" | "building" | "invalid" | "valid";

export class PgIndexLearner extends IndexLearner {
  /** The server process of the build under way, and whether the store is closing. */
  private buildPid: number | null = null;
  private closing = false;

  constructor(
    private readonly primary: pg.Pool,
    /** The primary's URL, for the build's own connection. */
    private readonly url: string,
    private readonly schema: string,
    settings: LearnSettings,
  ) {
    super(settings);
  }

  protected async build(task: LearnTask): Promise<BuildOutcome> {
    const plan = await planBuild(this.primary, task);
    if ("refused" in plan) return plan;
    const { r, column, name } = plan;
    const qualified = `${q(this.schema)}.${q(name)}`;
    const client = new pg.Client({ connectionString: this.url, application_name: APPLICATION_NAME });
    client.on("error", (e) => console.error(`datastore: the learned index build's connection was lost: ${e.message}`));
    await client.connect();
    try {
      // A statement, not a start-up parameter, which a pooler may refuse; the session ends with the build.
      await client.query("SET statement_timeout = 0");
      this.buildPid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
      const drop = () => client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${qualified}`);
      let buildMs = 0; // an index built before, never recorded (its server stopped), is taken as it is
      if (plan.state !== "valid") {
        if (plan.state === "invalid") await drop();
        const started = performance.now();
        try {
          await client.query(`CREATE INDEX CONCURRENTLY ${q(name)} ON ${q(this.schema)}.${q(r.table)} (${q(column)})`);
        } catch (e) {
          if (nameTaken(e)) return { refused: "another app server is building it" };
          // A failed concurrent build leaves its index behind, invalid; when closing, the next build drops it.
          if (!this.closing) await drop().catch(() => undefined);
          throw e;
        }
        buildMs = Math.round(performance.now() - started);
      }
      let recorded: Recorded;
      try {
        recorded = await record(this.primary, task, r, column, name, buildMs);
      } catch (e) {
        await drop().catch(() => undefined);
        throw e;
      }
      if (recorded.drop) await drop();
      return recorded.outcome;
    } finally {
      this.buildPid = null;
      await client.end().catch(() => undefined);
    }
  }

  /** A build can wait long (CONCURRENTLY waits for every older transaction in the database):
   *  closing cancels it rather than waiting. */
  override async close(): Promise<void> {
    this.closing = true;
    if (this.buildPid !== null) await this.primary.query("SELECT pg_cancel_backend($1)", [this.buildPid]).catch(() => undefined);
    await super.close();
  }
}

/** Times a read for the learner: a search's sort order is the read's own, other reads' is not. */
export async function observed<T>(learner: IndexLearner | undefined, r: PgResource, costed: CostedRead, read: () => Promise<T>): Promise<T> {
  if (!learner || costed.op === "stats") return read();
  const started = performance.now();
  try {
    return await read();
  } finally {
    learner.observe(r, costed.query, performance.now() - started, costed.op === "search");
  }
}

/** Another CREATE INDEX has the name: PostgreSQL says so as the relation existing, or, while
 *  that build's first transaction is open, as a duplicate in its own catalog. */
function nameTaken(e: unknown): boolean {
  const code = codeOf(e);
  return code === "42P07" || (code === "23505" && /pg_class_relname_nsp_index/.test((e as Error)?.message ?? ""));
}

/** Columns some usable index of the table starts with, whoever made it (but `except`). */
async function leadingColumns(db: Queryable, table: string, except?: string): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
     WHERE i.indrelid = to_regclass($1) AND i.indisvalid AND i.indexrelid IS DISTINCT FROM to_regclass($2)`,
    [q(table), except ? q(except) : null],
  );
  return new Set(["_id", ...rows.map((x) => x.name)]);
}

async function indexState(db: Queryable, name: string): Promise<IndexState> {
  const { rows } = await db.query<{ valid: boolean; building: boolean }>(
    `SELECT i.indisvalid AS valid, EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid) AS building
     FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
    [q(name)],
  );
  if (!rows.length) return "none";
  return rows[0].valid ? "valid" : rows[0].building ? "building" : "invalid";
}

type Plan = { r: PgResource; column: string; name: string; state: IndexState } | { refused: string };

/** Why the field's index may not be learned: the rule's count and overlap, with the catalog's
 *  learned indexes and the table's usable indexes but `name` (this one, if there). */
async function refusal(db: Queryable, r: PgResource | undefined, field: string, name: string, task: LearnTask): Promise<string | null> {
  const leading = r?.active ? await leadingColumns(db, r.table, name) : new Set<string>();
  for (const ix of r?.learnedIndexes ?? []) leading.add(r!.columns.get(ix.fields[0])?.column ?? "");
  return countRefusal(r, field, leading, task.limits);
}

/**
 * Whether an index on the field may be built now, read without any lock: the rule's count and
 * budget (its size estimated from its values' average stored size over the first 10,000 rows,
 * times the rows), and whether it is being built or was left behind.
 */
async function planBuild(db: Queryable, task: LearnTask): Promise<Plan> {
  const { field, limits } = task;
  const r = await findResource(db, task.resourceId);
  const column = r?.columns.get(field)?.column ?? "";
  const name = r ? learnedName(r.table, column) : "";
  const refused = await refusal(db, r, field, name, task);
  if (refused || !r) return { refused: refused ?? "the resource is gone" };
  const state = await indexState(db, name);
  if (state === "building") return { refused: "another app server is building it" };
  if (state === "valid") return { r, column, name, state };
  const { rows } = await db.query<{ avg: number | null; table_bytes: string }>(
    `SELECT (SELECT avg(coalesce(pg_column_size(${q(column)}), 0))::float8 FROM (SELECT ${q(column)} FROM ${q(r.table)} ORDER BY _id LIMIT 10000) AS s) AS avg,
            pg_table_size(to_regclass($1))::text AS table_bytes`,
    [q(r.table)],
  );
  const estimate = (r.rowCount * ((rows[0].avg ?? 0) + ENTRY_OVERHEAD)) / FILL;
  const over = budgetRefusal(r, field, estimate, Number(rows[0].table_bytes), limits);
  return over ? { refused: over } : { r, column, name, state };
}

/** What recording did, and whether the index must go (it no longer belongs). */
interface Recorded {
  outcome: BuildOutcome;
  drop: boolean;
}

/**
 * Adds the built index to the catalog row, under the resource's lock, unless another app
 * server recorded it first, or the resource changed meanwhile so that it no longer belongs (a
 * new table, the field gone, a declared index now on the field, the most learned indexes
 * reached). The version goes up, so every app server's copy of the resource learns of it.
 */
async function record(primary: pg.Pool, task: LearnTask, built: PgResource, column: string, name: string, buildMs: number): Promise<Recorded> {
  const db = await primary.connect();
  try {
    await db.query(`BEGIN; SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
    const r = await lockResource(db, task.resourceId);
    const same = r && r.active && r.table === built.table && r.columns.get(task.field)?.column === column;
    if (same && r.learnedIndexes.some((ix) => ix.fields[0] === task.field)) {
      await db.query("ROLLBACK");
      return { outcome: { refused: "another app server built it" }, drop: false };
    }
    const refused = same ? await refusal(db, r, task.field, name, task) : "the resource changed while the index was built";
    if (refused) {
      await db.query("ROLLBACK");
      return { outcome: { refused }, drop: true };
    }
    const sized = await db.query<{ bytes: string }>("SELECT pg_relation_size(to_regclass($1))::text AS bytes", [q(name)]);
    const ix: LearnedIndex = { fields: [task.field], created: now(), reads: task.reads, buildMs, bytes: Number(sized.rows[0].bytes) };
    await db.query("UPDATE datastore_resources SET learned_indexes = $1, version = version + 1 WHERE id = $2", [JSON.stringify([...r!.learnedIndexes, ix]), r!.id]);
    await db.query("COMMIT");
    wrote();
    return { outcome: { built: ix }, drop: false };
  } catch (e) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    db.release();
  }
}

/** Keeps the learned indexes for which `keep` holds; drops the others' indexes. In the
 *  caller's write transaction, with the resource locked. */
async function keepWhere(db: Queryable, r: PgResource, keep: (ix: LearnedIndex) => boolean): Promise<void> {
  if (!r.learnedIndexes.length) return;
  const kept = r.learnedIndexes.filter(keep);
  if (kept.length === r.learnedIndexes.length) return;
  for (const ix of r.learnedIndexes) {
    const f = r.columns.get(ix.fields[0]);
    if (!kept.includes(ix) && f) await db.query(`DROP INDEX IF EXISTS ${q(learnedName(r.table, f.column))}`);
  }
  await db.query("UPDATE datastore_resources SET learned_indexes = $1 WHERE id = $2", [JSON.stringify(kept), r.id]);
  r.learnedIndexes = kept;
}

/** After the declared indexes or the key changed: a learned index that one of them now starts
 *  with the same field as is redundant, and goes (the declared one wins). */
export function dropCovered(db: Queryable, r: PgResource): Promise<void> {
  return keepWhere(db, r, (ix) => r.primaryKey[0] !== ix.fields[0] && !r.indexes.some((d) => d[0] === ix.fields[0]));
}

/** Before fields are dropped: their learned indexes go (PostgreSQL would drop them with the
 *  column; the catalog's list must say so too). */
export function dropOnFields(db: Queryable, r: PgResource, fields: string[]): Promise<void> {
  return keepWhere(db, r, (ix) => !ix.fields.some((f) => fields.includes(f)));
}
