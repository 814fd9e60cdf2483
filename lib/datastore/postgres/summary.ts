// The figures of a resource's fields under a search (datastore_summary) in PostgreSQL: the
// reads ../summary-plan.ts plans (exact, a spread sample, the first rows), each one statement
// whose rows are tallied in one pass, values turned into the form the SQLite engine stores.
import { column } from "../catalog-row";
import type { SearchQuery, SummaryOptions, SummaryOutput } from "../engine";
import { runLater } from "../stepwise";
import { SUMMARY_LIMITS, summaryPlan, tally, type SummaryLimits, type Tallied } from "../summary-plan";
import { isArrayType, type Stored, type TypeName } from "../types";
import { OVER_BUDGET, within } from "./budget";
import { searchWhere } from "./read-plan";
import { quoteIdent as q, source, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** A value as the SQLite engine stores it, which is what a Tally counts: booleans 1/0, arrays
 *  and json as JSON text. */
function storedForm(t: TypeName): (v: unknown) => Stored {
  if (t === "bool") return (v) => (v === null ? null : v ? 1 : 0);
  if (isArrayType(t)) return (v) => (v === null ? null : JSON.stringify(v));
  return (v) => v as Stored; // json is selected as its text
}

/** `db`: a client inside a transaction. */
export async function summary(db: Queryable, r: PgResource, query: SearchQuery, options: SummaryOptions, limits: SummaryLimits = { ...SUMMARY_LIMITS, budgetMs: options.budgetMs ?? SUMMARY_LIMITS.budgetMs }): Promise<SummaryOutput> {
  const fields = options.fields.map((id) => column(r, id));
  const types = fields.map((f) => f.type);
  const stored = types.map(storedForm);
  const where = searchWhere(r, query);
  const narrowed = !where.empty;
  const cols = fields.length ? fields.map((f) => (f.type === "json" ? `t.${q(f.column)}::text` : `t.${q(f.column)}`)).join(", ") : "1";
  const base = where.params.length;
  const countOf = async (text: string, values: unknown[]) => Number((await db.query<[unknown]>({ text, values, rowMode: "array" })).rows[0][0]);

  /** Reads rows; `extra` (values bound after the search's) narrows them, `limit` caps them. */
  const read = async (extra: string, extraParams: unknown[], limit?: number) => {
    const params = [...where.params, ...extraParams];
    if (limit !== undefined) params.push(limit);
    const sql = `SELECT ${cols} FROM ${source(r)} AS t WHERE ${where.sql()}${extra}${limit === undefined ? "" : ` LIMIT $${params.length}`}`;
    const { rows } = await db.query<unknown[]>({ text: sql, values: params, rowMode: "array" });
    return tally(types, rows, stored);
  };

  const steps = summaryPlan(options.fields, options, { rowCount: r.rowCount, narrowed }, limits, {
    // The total when the catalog knows it, or a count finds it within the budget (an index).
    counted: async () => {
      if (!narrowed) return r.rowCount;
      const n = await within(db, limits.budgetMs, () => countOf(`SELECT count(*)::int8 FROM ${source(r)} AS t WHERE ${where.sql()}`, where.params));
      return n === OVER_BUDGET ? null : n;
    },
    sample: async (rows) => {
      const sample = await spreadSample(db, r, rows, base + 1);
      return (
        sample && {
          read: () => read(` AND ${sample.sql}`, sample.params),
          present: () => countOf(`SELECT count(*)::int8 FROM ${source(r)} AS t WHERE ${sample.sql.replace(`$${base + 1}`, "$1")}`, sample.params),
        }
      );
    },
    capped: async (cap) => {
      const all = await within(db, limits.budgetMs, () => read("", [], cap));
      return all === OVER_BUDGET ? null : all;
    },
    // Every matching row, in chunks by _id (one snapshot: the read's transaction).
    all: async () => {
      let acc: Tallied | undefined;
      for (let last = 0; ; ) {
        const sql = `SELECT t._id, ${cols} FROM ${source(r)} AS t WHERE ${where.sql()} AND t._id > $${base + 1} ORDER BY t._id LIMIT $${base + 2}`;
        const { rows } = await db.query<unknown[]>({ text: sql, values: [...where.params, last, limits.chunkRows], rowMode: "array" });
        acc = tally(types, rows.map((row) => row.slice(1)), stored, acc);
        if (rows.length < limits.chunkRows) return acc;
        last = Number(rows[rows.length - 1][0]);
      }
    },
    first: async (rows) => {
      const lastId = await nthId(db, r, rows);
      return lastId === undefined ? undefined : read(` AND t._id <= $${base + 1}`, [lastId]);
    },
  });
  return runLater(steps);
}
