// Whether a read is cheap (bounded: a few ms) or expensive (a scan, a sort or a count over many
// rows, a big page), by the shared rule (../read-cost-rule.ts), judged from PostgreSQL's own plan:
// EXPLAIN's nodes and estimated rows for the statements the read would run. Plans are kept per
// resource version, SQL text and values, so a repeated read is judged without a round trip.
import type { SearchQuery } from "../engine";
import { type Cost, type CostedRead, type Verdict, SMALL_TABLE_ROWS, CHEAP_PAGE_ROWS, CHEAP_ROWS, CHEAP_COUNT_ROWS, CHEAP_GROUP_ROWS, SLOW_MS, SLOW_STRIKES, SLOW_FOR_MS } from "../read-cost-rule";
import { countPlan, explained, matchesSql, type PlanNode } from "./count";
import { bestFirstRank, listKey, type RankedLists } from "./ranked";
import { limitParam, pageSql, planSearch, searchWhere, type ReadPlan } from "./read-plan";
import { source, type PgResource, type Queryable } from "./resource";

/** Verdicts kept (least recently used out). */
const KEPT = 1_000;

export class CostJudge {
  constructor(private readonly lists: RankedLists) {}

  private plans = new Map<string, PlanNode>();
  private slow = new Map<string, { strikes: number; until: number }>();

  /** `db`: the connection the read would run on (the plan is that server's). `plan`: a
   *  search's, when the caller built it already (it runs the search with it). */
  async judge(db: Queryable, r: PgResource, read: CostedRead, plan?: ReadPlan): Promise<Verdict> {
    const base = `${read.op}\0${r.table}\0${r.version}`;
    switch (read.op) {
      case "search": {
        const searchPlan = plan ?? planSearch(r, read.query);
        const page = pageSql(r, searchPlan, read.query.distinct);
        const shape = `${base}\0${read.query.includeTotal ? "total" : ""}\0${page}`;
        if (this.wasSlow(shape)) return { cost: "expensive", shape };
        return { cost: await this.searchCost(db, r, read.query, searchPlan), shape };
      }
      case "aggregate":
      case "valueCounts": {
        const where = searchWhere(r, read.query);
        const shape = `${base}\0${"field" in read ? read.field : ""}\0${where.sql()}`;
        if (this.wasSlow(shape)) return { cost: "expensive", shape };
        if (r.rowCount <= SMALL_TABLE_ROWS) return { cost: "cheap", shape };
        // Unnarrowed, a big table's counts read a sample or its first rows: expensive.
        if (where.empty) return { cost: "expensive", shape };
        const matches = await this.explain(db, r, `SELECT 1 FROM ${source(r)} AS t WHERE ${where.sql()}`, where.params);
        return { cost: rangeAtMost(matches, CHEAP_GROUP_ROWS) ? "cheap" : "expensive", shape };
      }
      case "histogram":
      case "summary":
        // Read every matching row within a budget, else a sample of thousands of rows.
        return { cost: r.rowCount <= SMALL_TABLE_ROWS ? "cheap" : "expensive", shape: base };
      case "stats":
        // PostgreSQL keeps sizes per file: nothing is read.
        return { cost: "cheap", shape: base };
    }
  }

  /** How long a read judged cheap took. When its plan misled (slow, twice running), reads of
   *  its shape wait their turn with the expensive ones for a while. */
  observe(shape: string, ms: number): void {
    if (ms <= SLOW_MS) {
      this.slow.delete(shape);
      return;
    }
    if (this.slow.size >= 256) this.slow.clear();
    const strikes = (this.slow.get(shape)?.strikes ?? 0) + 1;
    this.slow.set(shape, { strikes, until: strikes >= SLOW_STRIKES ? Date.now() + SLOW_FOR_MS : 0 });
  }

  private wasSlow(shape: string): boolean {
    return (this.slow.get(shape)?.until ?? 0) > Date.now();
  }

  private async searchCost(db: Queryable, r: PgResource, query: SearchQuery, plan: ReadPlan): Promise<Cost> {
    const limit = query.limit < 0 ? r.rowCount : Math.min(query.limit, r.rowCount);
    if (limit > CHEAP_PAGE_ROWS) return "expensive";
    if (r.rowCount <= SMALL_TABLE_ROWS) return "cheap";
    // Best-first: cheap once the list is kept; building it ranks every match.
    const rank = bestFirstRank(plan.where, query);
    if (rank !== null && this.lists.has(listKey(r, plan.where, rank))) return "cheap";
    const how = countPlan(r, plan, query);
    const counted = !query.includeTotal || "rows" in how;
    // No conditions, in `_id` order, not deep: the primary key's first rows.
    const byId = query.sort.length === 0 || (query.sort.length === 1 && query.sort[0].field === "_id");
    if (plan.where.empty && byId && !query.distinct && query.offset + limit <= CHEAP_ROWS && counted) return "cheap";
    if (limit > 0) {
      const page = await this.explain(db, r, pageSql(r, plan, query.distinct), [...plan.params, limitParam(query.limit), query.offset]);
      if (!pageCheap(page, query.offset + limit)) return "expensive";
    }
    if (counted) return "cheap";
    const matches = await this.explain(db, r, matchesSql(r, plan, query), plan.params);
    return countCheap(matches) ? "cheap" : "expensive";
  }

  /** EXPLAIN's plan of a statement, kept per resource version, SQL and values. */
  private async explain(db: Queryable, r: PgResource, sql: string, params: unknown[]): Promise<PlanNode> {
    const key = `${r.table}\0${r.version}\0${sql}\0${JSON.stringify(params)}`;
    const hit = this.plans.get(key);
    if (hit) {
      this.plans.delete(key);
      this.plans.set(key, hit);
      return hit;
    }
    const { rows } = await db.query<[unknown]>({ text: `EXPLAIN (FORMAT JSON) ${sql}`, values: params, rowMode: "array" });
    const plan = explained(rows[0][0]).Plan;
    if (this.plans.size >= KEPT) this.plans.delete(this.plans.keys().next().value!);
    this.plans.set(key, plan);
    return plan;
  }
}

// Reading a plan as sqlite/read-cost.ts reads SQLite's: a scan of the table is cheap only when
// it reads the page's rows in order and stops (no condition to skip rows over, nothing to sort);
// a sort, a DISTINCT or a grouping is cheap only over few rows; an index range only when short.

/** Nodes that read all their input before giving a row: a LIMIT above them stops nothing. */
const BLOCKING = new Set(["Sort", "Incremental Sort", "Aggregate", "Hash", "SetOp", "Unique", "WindowAgg", "Materialize", "Gather Merge"]);
/** Nodes that read rows of a table (or of an index and the table). */
const SCANS = new Set(["Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Bitmap Index Scan", "Sample Scan"]);

function children(node: PlanNode): PlanNode[] {
  return node.Plans ?? [];
}

/** Every node with whether a blocking node sits above it. */
function* walk(node: PlanNode, blocked = false): Generator<{ node: PlanNode; blocked: boolean }> {
  yield { node, blocked };
  const below = blocked || BLOCKING.has(node["Node Type"]);
  for (const child of children(node)) yield* walk(child, below);
}

/** Rows a node reads from its input (a scan: the rows it visits, as far as the plan says). */
function inputRows(node: PlanNode): number {
  const kids = children(node);
  if (node["Node Type"] === "Bitmap Heap Scan") return Math.max(node["Plan Rows"], ...kids.map(inputRows));
  if (kids.length === 0) return node["Plan Rows"];
  return kids.reduce((n, k) => n + k["Plan Rows"], 0);
}

/** The page statement: bounded when it reads at most `want` rows of a table or index in order
 *  (nothing to filter them, nothing blocking above), or sorts, dedupes or reads a short range. */
function pageCheap(plan: PlanNode, want: number): boolean {
  for (const { node, blocked } of walk(plan)) {
    const type = node["Node Type"];
    if (type === "Seq Scan" || type === "Sample Scan") {
      // SQLite's "SCAN t": cheap only as the table's first rows, unfiltered and unsorted.
      if (blocked || node.Filter !== undefined || want > CHEAP_ROWS) return false;
    } else if (type === "Index Scan" || type === "Index Only Scan") {
      // In index order, stopping after `want` rows; else the whole range it reads.
      const reads = blocked || node.Filter !== undefined ? node["Plan Rows"] * (node.Filter !== undefined ? 2 : 1) : Math.min(want, node["Plan Rows"]);
      if (reads > CHEAP_ROWS) return false;
    } else if (BLOCKING.has(type) || SCANS.has(type)) {
      if (inputRows(node) > CHEAP_ROWS) return false;
    }
  }
  return true;
}

/** A count: cheap when an index range of at most CHEAP_COUNT_ROWS rows answers it. */
function countCheap(plan: PlanNode): boolean {
  return rangeAtMost(plan, CHEAP_COUNT_ROWS);
}

/** No table scan, and every index range at most `n` rows. */
function rangeAtMost(plan: PlanNode, n: number): boolean {
  for (const { node } of walk(plan)) {
    const type = node["Node Type"];
    if (type === "Seq Scan" || type === "Sample Scan") return false;
    if (SCANS.has(type) && inputRows(node) > n) return false;
  }
  return true;
}
