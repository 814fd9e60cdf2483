// Pages in `_id` order under filters an index answers (a range, say). SQLite picks between
// walking the table in `_id` order and reading the index then sorting the matches, but it
// misjudges both ways: a sparse range walks the whole table where the index would find its few
// rows, and a dense one sorts every match where a walk would meet a page's worth at once (the
// bench's cases and timings: docs/performance.md). The index can say how dense the matches are,
// cheaply: a walk wins when it meets offset + limit matches in fewer rows than there are
// matches to sort, that is when matches > sqrt((offset + limit) × rows), so counting up to that
// bound decides. A walk has a small time budget: when the matches bunch up late in the table,
// it gives up for the index.
import type { Filter, SearchQuery } from "../engine";
import type { Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { countPlan, exactCount } from "./count";
import { pastWalk } from "./history";
import { DeadlineExceeded, within } from "./deadline";
import { schemaOf } from "./groups";
import { inIdOrder, pageSql, type ReadPlan } from "./read-plan";
import { quoteIdent as q } from "./sql";
import { Memo, valuesKey } from "./statement-cache";
import { Where } from "./where";

/** Past this the walk has met sparse rows, and the index is the better bet. */
const WALK_BUDGET_MS = 4;

/** A past version's index read costs several times today's (each match looked up in `_ver`,
 *  and the images' part merged in): its walk may go on longer before giving up for it. */
const PAST_WALK_BUDGET_MS = 4 * WALK_BUDGET_MS;

export interface IdOrderPage {
  rows: Stored[][];
  /** The exact total when the count on the way found it (sparse matches), else null. */
  total: number | null;
}

/** The page, chosen as above; null when the query is not of this kind (the caller's plan). */
/** `keep`: whether counts may be kept (count.ts exactCount). */
export function idOrderPage(c: Conn, r: Internal, plan: ReadPlan, query: SearchQuery, keep = true): IdOrderPage | null {
  if (!inIdOrder(query) || query.limit === 0) return null;
  // A list of `_id`s (a sample's picks): SQLite looks each one up, in `_id` order already.
  if (conjuncts(query.filters).some((f) => f.op === "in" && f.field === "_id")) return null;
  // A next_page walk's `_id` bound narrows where a walk starts, not how dense the matches are.
  const others = conjuncts(query.filters).filter((f) => !isIdBound(f));
  if (others.length === 0) return null; // `_id` bounds alone: SQLite seeks to them
  const page = (sql: string) => c.cache.get(sql, "raw").all(...plan.params, query.limit, plan.offset) as Stored[][];
  // A past version (as_of) is judged on today's table, whose matches are nearly the same: its
  // indexes tell the density as cheaply. Its view is walked as a view of its own (history.ts).
  const past = pastWalk(c, r);
  const table = past?.live ?? r;
  // An index that yields the matches in `_id` order already (equality on all its columns, as
  // within one value rows are in `_id` order) reads a page's worth: nothing to choose.
  const plain = pageSql(plan, false);
  const shape = planShape(c, schemaOf(table), past ? pageSql({ ...plan, from: `${q(table.table)} AS t` }, false) : plain, [...plan.params, query.limit, plan.offset]);
  if (shape === "index in order") return { rows: page(plain), total: null };
  const where = new Where(table);
  for (const f of others) where.filter(f);
  const how = countPlan(c, table, { ...plan, where }, { ...query, filters: others });
  if ("rows" in how || how.budgeted) return null; // the index cannot count them: density unknown
  const bound = Math.ceil(Math.sqrt((plan.offset + query.limit) * r.rowCount));
  // When the total is wanted anyway, count them all; else only as far as the bound. (Today's
  // count is not the past's total.)
  const whole = !past && query.includeTotal && others.length === conjuncts(query.filters).length;
  const seen = whole
    ? exactCount(c, r, how.sql, how.params, keep)
    : (c.cache
        .get(`SELECT count(*) FROM (SELECT 1 FROM ${q(table.table)} AS t WHERE ${where.sql(false)} LIMIT ?)`, "pluck")
        .get(...where.params, bound + 1) as number);
  const total = !past && (whole || (seen <= bound && others.length === conjuncts(query.filters).length)) ? seen : null;
  // SQLite's own plan when it reads an index then sorts (it stops each IN value's range early);
  // else `+` keeps it from reading the table in `_id` order: it reads the index, then sorts.
  const fromIndex = () => page(shape === "index, sorted" || past ? plain : pageSql({ ...plan, order: plan.order.map((o) => `+${o}`) }, false));
  if (seen <= bound) return { rows: fromIndex(), total };
  try {
    // NOT INDEXED keeps SQLite on the table's own b-tree, in `_id` order (seeking to a bound).
    const walk = past ? `${q(past.walk())} AS t` : `${plan.from} NOT INDEXED`;
    const walked = within(c.db, past ? PAST_WALK_BUDGET_MS : WALK_BUDGET_MS, () => page(pageSql({ ...plan, from: walk }, false)));
    return { rows: walked, total };
  } catch (e) {
    if (!(e instanceof DeadlineExceeded)) throw e;
    return { rows: fromIndex(), total };
  }
}

type Shape = "index in order" | "index, sorted" | "other";
const shapes = new WeakMap<Conn, Memo<Shape>>();

/** How SQLite's plan reads a page: an index in `_id` order (no sort), an index then a sort, or
 *  otherwise (a walk of the table). Kept per statement, values and schema: with ANALYZE's
 *  samples (STAT4) the plan depends on the values, and a new index changes it: the version of
 *  the schema the table lives in (`main`, or its group's: groups.ts). */
function planShape(c: Conn, schema: string, sql: string, params: unknown[]): Shape {
  let memo = shapes.get(c);
  if (!memo) shapes.set(c, (memo = new Memo()));
  const version = c.cache.get(`PRAGMA ${schema}.schema_version`, "pluck").get() as number;
  return memo.get(`${schema}\0${version}\0${sql}\0${valuesKey(params)}`, () => {
    const steps = (c.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((s) => s.detail);
    if (!/^SEARCH t USING (?:COVERING )?INDEX /.test(steps[0] ?? "")) return "other";
    if (steps.length === 1) return "index in order";
    return steps.length === 2 && steps[1] === "USE TEMP B-TREE FOR ORDER BY" ? "index, sorted" : "other";
  });
}

/** The ANDed filters, nested ANDs flattened. */
function conjuncts(filters: Filter[]): Filter[] {
  return filters.flatMap((f) => (f.op === "and" ? conjuncts(f.of) : [f]));
}

function isIdBound(f: Filter): boolean {
  return (f.op === "gt" || f.op === "gte" || f.op === "lt" || f.op === "lte") && f.field === "_id";
}
