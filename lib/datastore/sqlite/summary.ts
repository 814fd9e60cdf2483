// The figures of a resource's fields under a search (datastore_summary). Rows are read once, as
// raw arrays, and every field is tallied in the same pass (../summary-stats.ts): one statement,
// not one per field. Exact when all matching rows fit a row and time budget; otherwise over a
// sample spread through the table (spread-sample.ts), or the first rows when it matches few.
import { config } from "../../config";
import type { SearchQuery, SummaryOptions, SummaryOutput } from "../engine";
import { summarizeField, Tally } from "../summary-stats";
import type { Stored } from "../types";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { countPlan } from "./count";
import { DEADLINE_CHECK, DeadlineExceeded, within } from "./deadline";
import { ftsTable } from "./fts-index";
import { planSearch } from "./read-plan";
import { column } from "./schema";
import { spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { allOf } from "./where";

/** The bounds of a summary (tests pass smaller ones). */
export const SUMMARY_LIMITS = {
  /** Time for reading every matching row (the exact answer). */
  budgetMs: 120,
  /** Matching rows the exact answer may read; past them the summary is sampled. */
  exactRows: 50_000,
  /** Rows in the spread sample (fewer for wide tables: SAMPLE_CELLS). */
  sampleRows: 10_000,
  /** A sample matching fewer rows than this gives way to the first matching rows… */
  minMatches: 1_000,
  /** …among the first rows by `_id` (as value counts read them). */
  firstRows: 100_000,
};
export type SummaryLimits = typeof SUMMARY_LIMITS;

/** Values a sample may read: wide tables get fewer rows, never under MIN_SAMPLE_ROWS. */
const SAMPLE_CELLS = 200_000;
const MIN_SAMPLE_ROWS = 1_000;

interface Read {
  rows: number;
  tallies: Tally[];
}

export function summary(c: Conn, r: Internal, query: SearchQuery, options: SummaryOptions, limits: SummaryLimits = SUMMARY_LIMITS): SummaryOutput {
  const fields = options.fields.map((id) => column(r, id));
  const narrowing = { ...query, columns: [], sort: [], distinct: false, offset: 0 };
  const plan = planSearch(c, r, narrowing);
  const where = plan.where;

  const narrowed = where.parts.length > 0 || where.ftsJoin !== "";
  const cols = fields.length ? fields.map((f) => `t.${q(f.column)}`).join(", ") : "1";
  // The deadline check first: after a condition, it would only see the rows that pass it, and a
  // scan for rare rows would run past every budget.
  const cond = allOf([DEADLINE_CHECK, ...where.parts]);

  const read = (extra: string, extraParams: unknown[], limit?: number, hint = ""): Read => {
    const tallies = fields.map((f) => new Tally(f.type));
    const sql = `SELECT ${cols} FROM ${q(r.table)} AS t${hint} ${where.ftsJoin} WHERE ${cond}${extra}${limit === undefined ? "" : " LIMIT ?"}`;
    const params = limit === undefined ? [...where.params, ...extraParams] : [...where.params, ...extraParams, limit];
    let rows = 0;
    for (const row of c.cache.get(sql, "raw").iterate(...params) as IterableIterator<Stored[]>) {
      rows++;
      for (let j = 0; j < tallies.length; j++) tallies[j].add(row[j]);
    }
    return { rows, tallies };
  };
  const answer = (got: Read, total: number, exact: boolean): SummaryOutput => ({
    total,
    rows: got.rows,
    partial: !exact,
    fields: fields.map((f, j) => summarizeField(f.id, got.tallies[j], { rows: got.rows, total, exact, top: options.top, bins: options.bins })),
  });

  return within(c.db, config.queryTimeoutMs, () => {
    // The total, when the catalog or one index answers it (a few ms even for millions of rows).
    const how = countPlan(c, r, plan, narrowing);
    const counted = "rows" in how ? how.rows : how.budgeted ? null : (c.cache.get(how.sql, "pluck").get(...how.params) as number);
    const sampleRows = Math.min(limits.sampleRows, Math.max(MIN_SAMPLE_ROWS, Math.floor(SAMPLE_CELLS / Math.max(1, fields.length))));
    const sample = spreadSample(c, r, sampleRows);
    if (sample === null) {
      // No more rows than a sample: read them all, whatever the budget.
      const all = read("", []);
      return answer(all, all.rows, true);
    }
    let sampled: Read | null = null;
    let present: number | null = null;
    /** Matching rows in the table, from the sample's share of them (its picks may hit gaps). */
    const fromSample = (matched: number) => {
      present ??= c.cache.get(`SELECT count(*) FROM ${q(r.table)} AS t WHERE ${sample.sql}`, "pluck").get(...sample.params) as number;
      return present > 0 ? Math.round((matched * r.rowCount) / present) : 0;
    };

    let expected = counted;
    if (expected === null && r.rowCount > limits.exactRows) {
      // Not counted, on a big table: the sample tells first whether every match could fit.
      sampled = read(` AND ${sample.sql}`, sample.params);
      expected = fromSample(sampled.rows);
    }
    let overflowed = false;
    if (expected === null || expected <= limits.exactRows) {
      try {
        const all = within(c.db, limits.budgetMs, () => read("", [], limits.exactRows + 1));
        if (all.rows <= limits.exactRows) return answer(all, all.rows, true);
        overflowed = true;
      } catch (e) {
        if (!(e instanceof DeadlineExceeded)) throw e;
      }
    }

    sampled ??= read(` AND ${sample.sql}`, sample.params);
    let used = sampled;
    let firstEstimate = 0;
    if (sampled.rows < limits.minMatches && narrowed) {
      const lastId = c.cache.get(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`, "pluck").get(limits.firstRows - 1) as number | undefined;
      if (lastId === undefined) {
        const all = read("", []);
        return answer(all, all.rows, true);
      }
      // NOT INDEXED reads the range by _id rather than walking an index of a filtered field;
      // full text walks its own matches, so its rowid is bounded too, or it would walk them all.
      const bound = where.ftsJoin ? ` AND t._id <= ? AND ${q(ftsTable(r.table))}.rowid <= ?` : " AND t._id <= ?";
      const first = read(bound, where.ftsJoin ? [lastId, lastId] : [lastId], undefined, " NOT INDEXED");
      firstEstimate = Math.round((first.rows * r.rowCount) / limits.firstRows);
      if (first.rows > sampled.rows) used = first;
    }
    const total = counted ?? (sampled.rows > 0 ? fromSample(sampled.rows) : firstEstimate);
    return answer(used, Math.max(total, used.rows, overflowed ? limits.exactRows + 1 : 0), false);
  });
}
