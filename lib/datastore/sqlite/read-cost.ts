// Whether a read is cheap (index-backed and bounded: a few ms) or expensive (a scan, a sort or
// a count over many rows, a big page), judged from SQLite's own plan on the read worker's
// connection just before it would run. Judging costs microseconds: plans are kept per SQL text,
// and the bounded probes that size an index range per resource version and values.
import type { SearchQuery } from "../engine";
import { type Cost, type CostedRead, type Verdict, SMALL_TABLE_ROWS, CHEAP_PAGE_ROWS, CHEAP_ROWS, CHEAP_COUNT_ROWS, CHEAP_GROUP_ROWS, SLOW_MS, SLOW_STRIKES, SLOW_FOR_MS } from "../read-cost-rule";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { countKept, countPlan } from "./count";
import { ftsTable } from "./fts-index";
import { bestFirstRank, hasRankedList } from "./ranked";
import { inIdOrder, pageSql, planSearch, type ReadPlan } from "./read-plan";
import { quoteIdent as q } from "./sql";
import { Memo, valuesKey } from "./statement-cache";
import { knowsSizes } from "./statistics";
import type { Where } from "./where";

export type { Cost, CostedRead, Verdict } from "../read-cost-rule";

const plans = new WeakMap<Conn, Memo<string[]>>();
const probes = new WeakMap<Conn, Memo<boolean>>();
const slowShapes = new WeakMap<Conn, Map<string, { strikes: number; until: number }>>();

function memo<V>(map: WeakMap<Conn, Memo<V>>, c: Conn): Memo<V> {
  let m = map.get(c);
  if (!m) map.set(c, (m = new Memo<V>()));
  return m;
}

/** The steps of SQLite's plan for `sql` (EXPLAIN QUERY PLAN), once per SQL text. */
function planSteps(c: Conn, sql: string, params: unknown[]): string[] {
  return memo(plans, c).get(sql, () => (c.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((s) => s.detail));
}

/** Whether at most `n` rows match `sql`'s rows (a `SELECT 1 …`), counting no further than n + 1. */
function atMost(c: Conn, r: Internal, sql: string, params: unknown[], n: number): boolean {
  const key = `${r.table}\0${r.version}\0${n}\0${sql}\0${valuesKey(params)}`;
  return memo(probes, c).get(key, () => (c.cache.get(`SELECT count(*) FROM (${sql} LIMIT ?)`, "pluck").get(...params, n + 1) as number) <= n);
}

function ftsMatchesAtMost(c: Conn, r: Internal, match: string, n: number): boolean {
  const fts = q(ftsTable(r.table));
  return atMost(c, r, `SELECT 1 FROM ${fts} WHERE ${fts} MATCH ?`, [match], n);
}

/** Index-only (the count plan says one covering index range answers the filters) and at most n. */
function indexRangeAtMost(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery, n: number): boolean {
  const how = countPlan(c, r, plan, query);
  if ("rows" in how) return r.rowCount <= n;
  if (how.budgeted) return false;
  const where: Where = plan.where;
  if (where.parts.length === 0 && where.ftsMatch !== null) return ftsMatchesAtMost(c, r, where.ftsMatch, n);
  return atMost(c, r, `SELECT 1 FROM ${q(r.table)} AS t WHERE ${where.sql(false)}`, where.params, n);
}

function wasSlow(c: Conn, shape: string): boolean {
  return (slowShapes.get(c)?.get(shape)?.until ?? 0) > Date.now();
}

/** How long a read judged cheap took. When its plan misled (slow, twice running), reads of its
 *  shape wait their turn with the expensive ones for a while. */
export function observe(c: Conn, shape: string, ms: number): void {
  let m = slowShapes.get(c);
  if (ms <= SLOW_MS) {
    m?.delete(shape);
    return;
  }
  if (!m) slowShapes.set(c, (m = new Map()));
  if (m.size >= 256) m.clear();
  const strikes = (m.get(shape)?.strikes ?? 0) + 1;
  m.set(shape, { strikes, until: strikes >= SLOW_STRIKES ? Date.now() + SLOW_FOR_MS : 0 });
}

/** A verdict; a search's comes with its plan, which then runs it (built once). */
export type Judged = Verdict & { plan?: ReadPlan };

export function judge(c: Conn, r: Internal, read: CostedRead): Judged {
  const base = `${read.op}\0${r.table}\0${r.version}`;
  switch (read.op) {
    case "search": {
      const plan = planSearch(c, r, read.query);
      const shape = `${base}\0${read.query.includeTotal ? "total" : ""}\0${pageSql(plan, read.query.distinct)}`;
      if (wasSlow(c, shape)) return { cost: "expensive", shape };
      return { cost: searchCost(c, r, read.query, plan), shape, plan };
    }
    // An aggregate as value counts: a narrow index range is cheap to group; else a sample is read.
    case "aggregate":
    case "valueCounts": {
      const plan = planSearch(c, r, { ...read.query, columns: [], sort: [], distinct: false, offset: 0 });
      const shape = `${base}\0${"field" in read ? read.field : ""}\0${plan.where.sql()}`;
      if (wasSlow(c, shape)) return { cost: "expensive", shape };
      if (r.rowCount <= SMALL_TABLE_ROWS) return { cost: "cheap", shape };
      // Unnarrowed, a big table's counts read its first 100,000 rows (value-counts.ts).
      const narrowed = plan.where.parts.length > 0 || plan.where.ftsJoin !== "";
      const cheap = narrowed && indexRangeAtMost(c, r, plan, { ...read.query, distinct: false }, CHEAP_GROUP_ROWS);
      return { cost: cheap ? "cheap" : "expensive", shape };
    }
    case "histogram":
      // Its min and max may walk a whole index, even under a narrow filter.
      return { cost: r.rowCount <= SMALL_TABLE_ROWS ? "cheap" : "expensive", shape: base };
    case "summary":
      // Reads every matching row within its budget, else a sample of thousands of rows.
      return { cost: r.rowCount <= SMALL_TABLE_ROWS ? "cheap" : "expensive", shape: base };
    case "stats":
      // Sizes read every page of the resource, unless this connection has them already.
      return { cost: r.rowCount <= SMALL_TABLE_ROWS || knowsSizes(c, r) ? "cheap" : "expensive", shape: base };
  }
}

function searchCost(c: Conn, r: Internal, query: SearchQuery, plan: ReadPlan): Cost {
  const limit = query.limit < 0 ? r.rowCount : Math.min(query.limit, r.rowCount);
  if (limit > CHEAP_PAGE_ROWS) return "expensive";
  if (r.rowCount <= SMALL_TABLE_ROWS) return "cheap";
  const where = plan.where;
  const rank = bestFirstRank(where, query);
  if (rank !== null) {
    // Best-first: cheap when this worker ranked the matches already, or they are few.
    return hasRankedList(c, r, where, rank) || (where.ftsMatch !== null && ftsMatchesAtMost(c, r, where.ftsMatch, CHEAP_ROWS)) ? "cheap" : "expensive";
  }
  if (limit > 0 && !pageCheap(c, r, query, plan, limit)) return "expensive";
  if (!query.includeTotal) return "cheap";
  const how = countPlan(c, r, plan, query);
  if ("rows" in how) return "cheap";
  // A count this connection kept for the version (and filters) is answered from memory: a past
  // version's filtered total (over its view, never index-only) was judged expensive every time.
  if (query.totalEstimationThreshold == null && countKept(c, r, how.sql, how.params)) return "cheap";
  if (how.budgeted) return "expensive";
  return indexRangeAtMost(c, r, plan, query, CHEAP_COUNT_ROWS) ? "cheap" : "expensive";
}

/**
 * The page alone: bounded when SQLite reads no more than offset + limit rows of a table or
 * index in order (no conditions to skip rows over), or searches an index range without
 * sorting it, or sorts a range known to be small.
 */
function pageCheap(c: Conn, r: Internal, query: SearchQuery, plan: ReadPlan, limit: number): boolean {
  const where = plan.where;
  const conditions = where.parts.length > 0 || where.ftsJoin !== "";
  const countable = () => {
    const how = countPlan(c, r, plan, query);
    return !("rows" in how) && !how.budgeted;
  };
  // In `_id` order under filters one index counts, id-scan.ts bounds the page itself.
  if (inIdOrder(query) && conditions && countable()) return true;
  const steps = planSteps(c, pageSql(plan, query.distinct), [...plan.params, limit, plan.offset]);
  const fts = ftsTable(r.table);
  const sorts = steps.some((s) => s.startsWith("USE TEMP B-TREE"));
  if (steps.some((s) => s.startsWith(`SCAN ${fts} `) || s.startsWith(`SCAN "${fts}"`))) {
    // Full text joined with filters or sorted otherwise: every match is visited.
    return where.ftsMatch !== null && ftsMatchesAtMost(c, r, where.ftsMatch, CHEAP_ROWS);
  }
  if (steps.some((s) => s === "SCAN t" || s.startsWith("SCAN t "))) {
    return !conditions && !sorts && !query.distinct && plan.offset + limit <= CHEAP_ROWS;
  }
  if (sorts || query.distinct) return countable() && indexRangeAtMost(c, r, plan, query, CHEAP_ROWS);
  return plan.offset + limit <= CHEAP_ROWS;
}
