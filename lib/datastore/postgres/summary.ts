// The figures of a resource's fields under a search (datastore_summary), as the SQLite engine
// computes them (sqlite/summary.ts): rows read once, every field tallied in the same pass by
// ../summary-stats.ts. Exact when all matching rows fit a row and time budget; otherwise over a
// sample spread through the table (spread-sample.ts), or the first rows when it matches few.
import type { SearchQuery, SummaryOptions, SummaryOutput } from "../engine";
import { summarizeField, Tally } from "../summary-stats";
import { isArrayType, type Stored, type TypeName } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { column, searchWhere } from "./read-plan";
import { quoteIdent as q, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** The bounds of a summary (tests pass smaller ones); as sqlite/summary.ts's. */
export const SUMMARY_LIMITS = {
  /** Time for reading every matching row (the exact answer), and for counting them. */
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

/** A value as the SQLite engine stores it, which is what a Tally counts: booleans 1/0, arrays
 *  and json as JSON text. */
function storedForm(t: TypeName): (v: unknown) => Stored {
  if (t === "bool") return (v) => (v === null ? null : v ? 1 : 0);
  if (isArrayType(t)) return (v) => (v === null ? null : JSON.stringify(v));
  return (v) => v as Stored; // json is selected as its text
}

/** `db`: a client inside a transaction. */
export async function summary(db: Queryable, r: PgResource, query: SearchQuery, options: SummaryOptions, limits: SummaryLimits = SUMMARY_LIMITS): Promise<SummaryOutput> {
  const fields = options.fields.map((id) => column(r, id));
  const stored = fields.map((f) => storedForm(f.type));
  const where = searchWhere(r, query);
  const narrowed = !where.empty;
  const cols = fields.length ? fields.map((f) => (f.type === "json" ? `t.${q(f.column)}::text` : `t.${q(f.column)}`)).join(", ") : "1";
  const base = where.params.length;

  /** Reads rows; `extra` (values bound after the search's) narrows them, `limit` caps them. */
  const read = async (extra: string, extraParams: unknown[], limit?: number): Promise<Read> => {
    const params = [...where.params, ...extraParams];
    if (limit !== undefined) params.push(limit);
    const sql = `SELECT ${cols} FROM ${q(r.table)} AS t WHERE ${where.sql()}${extra}${limit === undefined ? "" : ` LIMIT $${params.length}`}`;
    const { rows } = await db.query<unknown[]>({ text: sql, values: params, rowMode: "array" });
    const tallies = fields.map((f) => new Tally(f.type));
    for (const row of rows) for (let j = 0; j < tallies.length; j++) tallies[j].add(stored[j](row[j]));
    return { rows: rows.length, tallies };
  };
  const answer = (got: Read, total: number, exact: boolean): SummaryOutput => ({
    total,
    rows: got.rows,
    partial: !exact,
    fields: fields.map((f, j) => summarizeField(f.id, got.tallies[j], { rows: got.rows, total, exact, top: options.top, bins: options.bins })),
  });

  // The total when the catalog knows it, or a count finds it within the budget (an index).
  let counted: number | null = narrowed ? null : r.rowCount;
  if (narrowed) {
    const n = await within(db, limits.budgetMs, async () => {
      const { rows } = await db.query<[unknown]>({ text: `SELECT count(*)::int8 FROM ${q(r.table)} AS t WHERE ${where.sql()}`, values: where.params, rowMode: "array" });
      return Number(rows[0][0]);
    });
    if (n !== OVER_BUDGET) counted = n;
  }
  const sampleRows = Math.min(limits.sampleRows, Math.max(MIN_SAMPLE_ROWS, Math.floor(SAMPLE_CELLS / Math.max(1, fields.length))));
  const sample = await spreadSample(db, r, sampleRows, base + 1);
  if (sample === null) {
    // No more rows than a sample: read them all, whatever the budget.
    const all = await read("", []);
    return answer(all, all.rows, true);
  }
  let sampled: Read | null = null;
  let present: number | null = null;
  /** Matching rows in the table, from the sample's share of them (its picks may hit gaps). */
  const fromSample = async (matched: number) => {
    if (present === null) {
      const { rows } = await db.query<[unknown]>({ text: `SELECT count(*)::int8 FROM ${q(r.table)} AS t WHERE ${sample.sql.replace(`$${base + 1}`, "$1")}`, values: sample.params, rowMode: "array" });
      present = Number(rows[0][0]);
    }
    return present > 0 ? Math.round((matched * r.rowCount) / present) : 0;
  };

  let expected = counted;
  if (expected === null && r.rowCount > limits.exactRows) {
    // Not counted, on a big table: the sample tells first whether every match could fit.
    sampled = await read(` AND ${sample.sql}`, sample.params);
    expected = await fromSample(sampled.rows);
  }
  let overflowed = false;
  if (expected === null || expected <= limits.exactRows) {
    const all = await within(db, limits.budgetMs, () => read("", [], limits.exactRows + 1));
    if (all !== OVER_BUDGET) {
      if (all.rows <= limits.exactRows) return answer(all, all.rows, true);
      overflowed = true;
    }
  }

  sampled ??= await read(` AND ${sample.sql}`, sample.params);
  let used = sampled;
  let firstEstimate = 0;
  if (sampled.rows < limits.minMatches && narrowed) {
    const lastId = await nthId(db, r, limits.firstRows);
    if (lastId === undefined) {
      const all = await read("", []);
      return answer(all, all.rows, true);
    }
    const first = await read(` AND t._id <= $${base + 1}`, [lastId]);
    firstEstimate = Math.round((first.rows * r.rowCount) / limits.firstRows);
    if (first.rows > sampled.rows) used = first;
  }
  const total = counted ?? (sampled.rows > 0 ? await fromSample(sampled.rows) : firstEstimate);
  return answer(used, Math.max(total, used.rows, overflowed ? limits.exactRows + 1 : 0), false);
}
