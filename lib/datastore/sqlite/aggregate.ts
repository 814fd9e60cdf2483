// Rows grouped by one or two fields under a search (datastore_aggregate) in SQLite: the GROUP BY
// statements and the reads ../aggregate-groups.ts plans (exact, a spread sample, the first
// rows), which also merges the groups; the order, limit and `others` in ../aggregate-spec.ts.
import { column } from "../catalog-row";
import type { AggregateKey, AggregateMeasure, AggregateOutput, AggregatePeriod, AggregateSpec, SearchQuery } from "../engine";
import { AGGREGATE_BUDGET, aggregatePlan, measureDecoder, mergeGroups, sum, type AggregateBudget as Budget, type Merged } from "../aggregate-groups";
import { binStep, requireKeys } from "../aggregate-spec";
import { SQL_SNAP } from "../histogram-axis";
import { runNow } from "../stepwise";
import { fromStorage, isArrayType, type Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { nthId, spreadSample } from "./spread-sample";
import { schemaOf } from "./groups";
import { quoteIdent as q } from "./sql";
import { Memo, valuesKey } from "./statement-cache";
import { Where } from "./where";

/** How hard an aggregate tries to be exact (../aggregate-groups.ts), with SQLite's own sizes. */
export interface AggregateBudget extends Budget {
  /** Rows a bounded exact GROUP BY may sort: SQLite sorts them after the scan, past the
   *  deadline's reach, so more matching rows than this go to the sample, whose size is fixed. */
  sortRows: number;
  /** Rows of a whole table an index may group in its own order within a budget. */
  indexRows: number;
  /** `_id`s of the table a reader of an exact read groups per statement (readSpans). */
  spanIds: number;
  /** Rows picked by an index (pickedIds) a reader groups per statement. */
  spanPicked: number;
}

export const BUDGET: AggregateBudget = { ...AGGREGATE_BUDGET, sortRows: 200_000, indexRows: 2_000_000, spanIds: 65_536, spanPicked: 8_192 };

/** A span's groups at least this many times fewer than its rows, or a reader claims the rest
 *  of its share at once (readSpans). */
const SPAN_SHRINK = 8;
/** An index picks the rows when they are at most one in this many of the table's: past that,
 *  looking each row up costs more than reading the whole table. */
const PICK_SHARE = 20;

/** A day's, week's… start as ISO date text, from stored ISO date or timestamp text. Weeks start
 *  on Mondays ('weekday 0' moves to the Sunday ending the week, as histogram-axis.ts does). */
const PERIOD_SQL: Record<AggregatePeriod, (col: string) => string> = {
  day: (col) => `substr(${col}, 1, 10)`,
  week: (col) => `date(${col}, 'weekday 0', '-6 days')`,
  // The month's "-01" is added by the key's decoder: no string made per row (stored dates are
  // always YYYY-MM-DD…, types.ts).
  month: (col) => `substr(${col}, 1, 7)`,
  quarter: (col) => `substr(${col}, 1, 5) || printf('%02d-01', (CAST(substr(${col}, 6, 2) AS INTEGER) - 1) / 3 * 3 + 1)`,
  year: (col) => `substr(${col}, 1, 5) || '01-01'`,
};

interface KeyColumn {
  sql: string;
  params: unknown[];
  decode: (v: unknown) => unknown;
}

function keyColumn(r: Internal, key: AggregateKey, blankIsNull: boolean): KeyColumn {
  const f = column(r, key.field);
  const col = `t.${q(f.column)}`;
  if (key.period) {
    // Timestamps keep their stored shape, so a key can be sent back as a filter value.
    const suffix = `${key.period === "month" ? "-01" : ""}${f.type === "timestamp" ? "T00:00:00" : ""}`;
    return { sql: PERIOD_SQL[key.period](col), params: [], decode: (v) => (v === null ? null : `${v as string}${suffix}`) };
  }
  if (key.bin !== undefined) {
    const { mul, div } = binStep(key.bin);
    return { sql: `floor(${SQL_SNAP(`${col} * ?`)} / ?)`, params: [mul, div], decode: (v) => (v === null ? null : (Number(v) * div) / mul) };
  }
  // The plain column, so an index of it can give the groups in order; "" and [] join NULL in
  // the null group afterwards (mergeGroups), or here when a distinct count cannot be merged.
  const blank = f.type === "text" ? "" : isArrayType(f.type) ? "[]" : undefined;
  const sql = blankIsNull && blank !== undefined ? `NULLIF(${col}, '${blank}')` : col;
  return { sql, params: [], decode: (v) => (v === null || v === blank ? null : fromStorage(f.type, v as Stored)) };
}

/** A measure's value expression (its field's column, blanks as NULL for distinct counts) and
 *  whether it reads as text (a date's min or max). */
function measureColumn(r: Internal, m: AggregateMeasure): { sql: string; time: boolean } {
  if (m.field === null) return { sql: "NULL", time: false };
  const f = column(r, m.field);
  const col = `t.${q(f.column)}`;
  const blank = f.type === "text" ? "''" : isArrayType(f.type) ? "'[]'" : null;
  return { sql: m.fn === "count_distinct" && blank ? `NULLIF(${col}, ${blank})` : col, time: f.type === "date" || f.type === "timestamp" };
}

/** The statement's columns after the keys: rows, then per measure its rows with a value and
 *  its aggregate (mergeGroups' layout), over the value expressions `e`. */
function measuresSql(spec: AggregateSpec, e: string[]): string {
  const cols = spec.metrics.map((m, i) => {
    if (m.fn === "count") return "0, NULL";
    if (m.fn === "count_distinct") return `0, count(DISTINCT ${e[i]})`;
    const agg = m.fn === "min" ? "min" : m.fn === "max" ? "max" : "total";
    return `count(${e[i]}), ${agg}(${e[i]})`;
  });
  return ["count(*)", ...cols].join(", ");
}

interface Statement {
  sql: string;
  params: unknown[];
}

const sortingPlans = new WeakMap<Conn, Memo<boolean>>();

const pickingPlans = new WeakMap<Conn, Memo<boolean>>();
const fewPicked = new WeakMap<Conn, Memo<boolean>>();

/** Whether one index range answers `sql`'s conditions alone (no row is read to test them). */
function coveredRange(c: Conn, schema: string, sql: string, params: unknown[]): boolean {
  let memo = pickingPlans.get(c);
  if (!memo) pickingPlans.set(c, (memo = new Memo<boolean>()));
  // Per version of the schema the table lives in: a new index changes the plan.
  const version = c.cache.get(`PRAGMA ${schema}.schema_version`, "pluck").get() as number;
  return memo.get(`${schema}\0${version}\0${sql}`, () => {
    const steps = c.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return steps.length === 1 && steps[0].detail.startsWith("SEARCH t USING COVERING INDEX ");
  });
}

/**
 * The matching `_id`s, ascending, when one index range answers the filters and holds few of the
 * table's rows (PICK_SHARE); else null, and the readers read the table's `_id` range. The rows
 * are then looked up in `_id` order, page after page, where the plain statement looks them up
 * in the index's order.
 */
export function pickedIds(c: Conn, r: Internal, where: Where): Float64Array | null {
  if (where.parts.length === 0 || where.ftsJoin !== "") return null;
  const sql = `SELECT t._id FROM ${q(r.table)} AS t WHERE ${where.sql()}`;
  if (!coveredRange(c, schemaOf(r), sql, where.params)) return null;
  const most = Math.floor(r.rowCount / PICK_SHARE);
  // Counted no further than `most` rows, once per version of the table and filter values.
  let memo = fewPicked.get(c);
  if (!memo) fewPicked.set(c, (memo = new Memo<boolean>()));
  const few = memo.get(`${r.table}\0${r.version}\0${most}\0${sql}\0${valuesKey(where.params)}`, () => (c.cache.get(`SELECT count(*) FROM (${sql} LIMIT ?)`, "pluck").get(...where.params, most + 1) as number) <= most);
  if (!few) return null;
  return Float64Array.from(c.cache.get(sql, "pluck").all(...where.params) as number[]).sort();
}

/** Whether SQLite sorts the rows to group them (rather than reading an index in key order). */
function sorts(c: Conn, s: Statement): boolean {
  let memo = sortingPlans.get(c);
  if (!memo) sortingPlans.set(c, (memo = new Memo<boolean>()));
  return memo.get(s.sql, () =>
    (c.db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).some((step) => step.detail.startsWith("USE TEMP B-TREE FOR GROUP BY")),
  );
}

/** Part `index` of `of` of an exact read (a summary, a count): the matching rows in that
 *  share of the table's `_id`s, for read workers to read a big table side by side (engine.ts
 *  merges the parts: mergeTallies). */
export interface AggregatePart {
  index: number;
  of: number;
}

/** A reader's groups, and the units it claimed spans of: the readers' spans are one set only
 *  when every reader counted the same units (the same picked `_id`s, or the same `_id` range). */
export interface ReaderGroups {
  groups: Merged[];
  units: string;
}

/**
 * Reader `index` of `of` of an exact aggregate read side by side (engine.ts merges their
 * groups: mergeParts). Each reads its own share of the table span by span, as a part did, then
 * takes spans of the others' shares not yet read, from counters the readers share (`claims`,
 * over a SharedArrayBuffer): they end together however the matching rows lie in the table,
 * and one that starts late or runs slower (another read, another process on its core) leaves
 * its spans to the others. Each keeps to its own share first: reading spans far apart costs
 * more than reading them one after another.
 */
export interface AggregateReader {
  index: number;
  of: number;
  claims: Int32Array;
}

/** The counters of one aggregate's `of` readers: the next quarter span of each one's share. */
export function sharedClaims(of: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(of * Int32Array.BYTES_PER_ELEMENT));
}

/**
 * The spans of `units` reader `index` claims in turn: from its own share, `span` units at a
 * time; then from the others' shares, a quarter span at a time once little of a share is left
 * (so that the readers end together within a short span). Once `widen` is called, the rest of
 * its own share at once and half of what is left of another's. The counters count quarter
 * spans ("ticks"), so that they stay far within 32 bits for any table's `_id`s.
 */
export class SpanClaims {
  private readonly tick: number;
  private readonly ticks: number;
  private readonly perSpan: number;
  private wide = false;

  constructor(
    private readonly claims: Int32Array,
    private readonly units: number,
    span: number,
    private readonly index: number,
  ) {
    this.tick = Math.max(1, Math.floor(span / 4));
    this.perSpan = Math.max(1, Math.round(span / this.tick));
    this.ticks = Math.ceil(units / this.tick);
  }

  /** The first and last unit of the next span claimed, or null when every span is taken. */
  next(): [number, number] | null {
    const of = this.claims.length;
    for (let k = 0; k < of; k++) {
      const share = (this.index + k) % of;
      const start = Math.floor((share * this.ticks) / of);
      const size = Math.floor(((share + 1) * this.ticks) / of) - start;
      // What is left may be stale by another reader's claim: it only sizes this one.
      const left = size - Atomics.load(this.claims, share);
      if (left <= 0) continue;
      const own = k === 0;
      const take = this.wide ? (own ? left : Math.ceil(left / 2)) : own || left > 2 * this.perSpan ? this.perSpan : 1;
      const first = Atomics.add(this.claims, share, take);
      if (first >= size) continue;
      return [(start + first) * this.tick, Math.min(this.units, (start + Math.min(size, first + take)) * this.tick) - 1];
    }
    return null;
  }

  widen(): void {
    this.wide = true;
  }
}

/** The first and last `_id` of a part's share of the table's `_id`s; null for an empty table. */
export function partIds(c: Conn, r: Internal, part: AggregatePart): [number, number] | null {
  // Two subqueries: SQLite answers a lone min() or max() from the b-tree's ends, both at once by a scan.
  const [lo, hi] = c.cache.get(`SELECT (SELECT min(_id) FROM ${q(r.table)}), (SELECT max(_id) FROM ${q(r.table)})`, "raw").get() as [number | null, number | null];
  if (lo === null || hi === null) return null;
  const span = hi - lo + 1;
  return [lo + Math.floor((part.index * span) / part.of), lo + Math.floor(((part.index + 1) * span) / part.of) - 1];
}

/** The rows to read as `units` (the table's `_id`s, or picked ids), and the parameters that
 *  bound a statement to units `from` to `to`. */
interface Spans {
  units: number;
  bounds: (from: number, to: number) => unknown[];
}

/**
 * A reader's grouped rows, read a claimed span at a time (`s` ends in the condition
 * `spans.bounds` binds): SQLite sorts a statement's matching rows to group them, and many small
 * sorts stay within the CPU's caches where one sort of the whole part's rows does not;
 * mergeGroups adds up the spans' groups. When a span's groups are not several times fewer than
 * its rows (a key of many values), the reader claims the rest of its share at once, so that
 * the merge does not receive nearly every row.
 */
function* readSpans(c: Conn, s: Statement, spans: Spans, claims: SpanClaims, countAt: number): Generator<unknown[]> {
  const stmt = c.cache.get(s.sql, "raw");
  for (let claimed = claims.next(); claimed; claimed = claims.next()) {
    let rows = 0;
    let groups = 0;
    for (const row of stmt.iterate(...s.params, ...spans.bounds(...claimed)) as IterableIterator<unknown[]>) {
      rows += Number(row[countAt]);
      groups++;
      yield row;
    }
    if (groups * SPAN_SHRINK > rows) claims.widen();
  }
}

export function aggregate(c: Conn, r: Internal, query: SearchQuery, spec: AggregateSpec, budget?: AggregateBudget): AggregateOutput;
export function aggregate(c: Conn, r: Internal, query: SearchQuery, spec: AggregateSpec, budget: AggregateBudget, reader: AggregateReader): ReaderGroups;
export function aggregate(c: Conn, r: Internal, query: SearchQuery, spec: AggregateSpec, budget: AggregateBudget = BUDGET, reader?: AggregateReader): AggregateOutput | ReaderGroups {
  requireKeys(spec);
  const distinct = spec.metrics.some((m) => m.fn === "count_distinct");
  const keys = spec.keys.map((k) => keyColumn(r, k, distinct));
  const measures = spec.metrics.map((m) => measureColumn(r, m));
  const where = new Where(r);
  for (const flt of query.filters) where.filter(flt);
  where.fullText(query.fts);
  const narrowed = where.parts.length > 0 || where.ftsJoin !== "";
  const keyParams = keys.flatMap((k) => k.params);

  /** The grouping statement (none: every row as one group); `extra` narrows the rows (a
   *  sample), `cap` bounds the rows sorted. */
  const statement = (extra = "", extraParams: unknown[] = [], hint = "", cap?: number, grouped = keys): Statement => {
    const from = `FROM ${q(r.table)} AS t${hint} ${where.ftsJoin} WHERE ${where.sql()}${extra}`;
    const params = [...(grouped.length ? keyParams : []), ...where.params, ...extraParams];
    const groupBy = grouped.length ? ` GROUP BY ${grouped.map((_, i) => i + 1).join(", ")}` : "";
    const keySql = grouped.map((k) => `${k.sql}, `).join("");
    if (cap === undefined) {
      return { sql: `SELECT ${keySql}${measuresSql(spec, measures.map((m) => m.sql))}, min(t._id) ${from}${groupBy}`, params };
    }
    // The cap sits under the GROUP BY, so at most cap rows reach its sort.
    const inner = `SELECT ${grouped.map((k, i) => `${k.sql} AS k${i}, `).join("")}${measures.map((m, i) => `${m.sql} AS m${i}`).join(", ")}, t._id AS id ${from} LIMIT ?`;
    const outer = `SELECT ${grouped.map((_, i) => `k${i}, `).join("")}${measuresSql(spec, measures.map((_, i) => `m${i}`))}, min(id) FROM (${inner})${groupBy}`;
    return { sql: outer, params: [...params, cap] };
  };
  const decode = keys.map((k) => k.decode);
  const decodeMeasures = measures.map((m) => measureDecoder(m.time));
  const read = (s: Statement, ms = c.limits.queryTimeoutMs, decoders = decode) =>
    within(c.db, ms, () => mergeGroups(c.cache.get(s.sql, "raw").iterate(...s.params) as IterableIterator<unknown[]>, decoders, spec, decodeMeasures));

  if (reader) {
    const ids = partIds(c, r, { index: 0, of: 1 }); // the whole table's
    if (!ids) return { groups: [], units: "none" };
    return within(c.db, c.limits.queryTimeoutMs, () => {
      const picked = pickedIds(c, r, where);
      const units = picked ? `picked ${picked.length}` : `ids ${ids[0]}-${ids[1]}`;
      // NOT INDEXED: the picked rows by `_id`, never by walking an index of a filter or a key.
      const [s, spans, span] = picked
        ? [statement(" AND t._id IN (SELECT value FROM json_each(?))", [], " NOT INDEXED"), { units: picked.length, bounds: (from: number, to: number) => [JSON.stringify(Array.from(picked.subarray(from, to + 1)))] }, budget.spanPicked]
        : [statement(" AND t._id BETWEEN ? AND ?"), { units: ids[1] - ids[0] + 1, bounds: (from: number, to: number) => [ids[0] + from, ids[0] + to] }, budget.spanIds];
      return { groups: mergeGroups(readSpans(c, s, spans, new SpanClaims(reader.claims, spans.units, span, reader.index), keys.length), decode, spec, decodeMeasures), units };
    });
  }
  const whole = statement();
  const plan = aggregatePlan(spec, { rowCount: r.rowCount, narrowed, wholeRows: spec.budgetMs === null || !sorts(c, whole) ? budget.indexRows : budget.sortRows }, budget, {
    exact: () => {
      const indexed = !sorts(c, whole);
      try {
        const groups = read(indexed ? whole : statement("", [], "", budget.sortRows + 1), spec.budgetMs!);
        return indexed || sum(groups) <= budget.sortRows ? groups : null;
      } catch (e) {
        if (e instanceof DeadlineExceeded) return null;
        throw e;
      }
    },
    // NOT INDEXED: the sample is read by _id lookups, the first rows by _id, never by walking
    // an index of a filter's or a key's column.
    sample: () => {
      const sample = spreadSample(c, r, budget.sampleRows);
      return sample && { groups: read(statement(` AND ${sample.sql}`, sample.params, " NOT INDEXED")), picked: sample.picked };
    },
    first: (rows) => {
      const last = nthId(c, r, rows);
      return last === undefined ? undefined : read(statement(" AND t._id <= ?", [last], " NOT INDEXED"));
    },
    all: () => read(spec.budgetMs === null ? whole : statement("", [], " NOT INDEXED")),
    overall: () => read(statement("", [], "", undefined, []), c.limits.queryTimeoutMs, [])[0],
  });
  return runNow(plan);
}
