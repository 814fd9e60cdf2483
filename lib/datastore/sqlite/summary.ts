// The figures of a resource's fields under a search (datastore_summary) in SQLite: the reads
// ../summary-plan.ts plans (exact, a spread sample, the first rows), each one statement whose
// rows are read once, as raw arrays, every field tallied in the same pass.
import { column } from "../catalog-row";
import type { SearchQuery, SummaryOptions, SummaryOutput } from "../engine";
import { runNow } from "../stepwise";
import { SUMMARY_LIMITS, summaryPlan, tally, type SummaryLimits, type Tallied } from "../summary-plan";
import { partIds, type AggregatePart } from "./aggregate";
import { allOf } from "../where";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { countPlan } from "./count";
import { DEADLINE_CHECK, DeadlineExceeded, within } from "./deadline";
import { ftsTable } from "./fts-index";
import { planSearch } from "./read-plan";
import { nthId, spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";

export function summary(c: Conn, r: Internal, query: SearchQuery, options: SummaryOptions, limits?: SummaryLimits): SummaryOutput;
export function summary(c: Conn, r: Internal, query: SearchQuery, options: SummaryOptions, limits: SummaryLimits, part: AggregatePart): Tallied;
export function summary(
  c: Conn,
  r: Internal,
  query: SearchQuery,
  options: SummaryOptions,
  limits: SummaryLimits = { ...SUMMARY_LIMITS, budgetMs: options.budgetMs ?? SUMMARY_LIMITS.budgetMs },
  part?: AggregatePart,
): SummaryOutput | Tallied {
  const fields = options.fields.map((id) => column(r, id));
  const types = fields.map((f) => f.type);
  const narrowing = { ...query, columns: [], sort: [], distinct: false, offset: 0 };
  const plan = planSearch(c, r, narrowing);
  const where = plan.where;
  const cols = fields.length ? fields.map((f) => `t.${q(f.column)}`).join(", ") : "1";
  // The deadline check first: after a condition, it would only see the rows that pass it, and a
  // scan for rare rows would run past every budget.
  const cond = allOf([DEADLINE_CHECK, ...where.parts]);

  const read = (extra: string, extraParams: unknown[], limit?: number, hint = "") => {
    const sql = `SELECT ${cols} FROM ${q(r.table)} AS t${hint} ${where.ftsJoin} WHERE ${cond}${extra}${limit === undefined ? "" : " LIMIT ?"}`;
    const params = limit === undefined ? [...where.params, ...extraParams] : [...where.params, ...extraParams, limit];
    return tally(types, c.cache.get(sql, "raw").iterate(...params) as IterableIterator<unknown[]>);
  };

  if (part) {
    // A part of an exact summary: its rows tallied, for engine.ts to add up (mergeTallies).
    const ids = partIds(c, r, part);
    return within(c.db, c.limits.queryTimeoutMs, () => (ids ? read(" AND t._id BETWEEN ? AND ?", ids) : tally(types, [])));
  }
  const steps = summaryPlan(options.fields, options, { rowCount: r.rowCount, narrowed: where.parts.length > 0 || where.ftsJoin !== "" }, limits, {
    counted: () => {
      // The total, when the catalog or one index answers it (a few ms even for millions of rows).
      const how = countPlan(c, r, plan, narrowing);
      return "rows" in how ? how.rows : how.budgeted ? null : (c.cache.get(how.sql, "pluck").get(...how.params) as number);
    },
    sample: (rows) => {
      const sample = spreadSample(c, r, rows);
      return (
        sample && {
          read: () => read(` AND ${sample.sql}`, sample.params),
          present: () => c.cache.get(`SELECT count(*) FROM ${q(r.table)} AS t WHERE ${sample.sql}`, "pluck").get(...sample.params) as number,
        }
      );
    },
    capped: (cap) => {
      try {
        return within(c.db, limits.budgetMs, () => read("", [], cap));
      } catch (e) {
        if (e instanceof DeadlineExceeded) return null;
        throw e;
      }
    },
    all: () => read("", []),
    first: (rows) => {
      const lastId = nthId(c, r, rows);
      if (lastId === undefined) return undefined;
      // NOT INDEXED reads the range by _id rather than walking an index of a filtered field;
      // full text walks its own matches, so its rowid is bounded too, or it would walk them all.
      const bound = where.ftsJoin ? ` AND t._id <= ? AND ${q(ftsTable(r.table))}.rowid <= ?` : " AND t._id <= ?";
      return read(bound, where.ftsJoin ? [lastId, lastId] : [lastId], undefined, " NOT INDEXED");
    },
  });
  return within(c.db, c.limits.queryTimeoutMs, () => runNow(steps));
}
