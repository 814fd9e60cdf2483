// The spread of one numeric, date or timestamp field under a search (datastore_histogram) in
// PostgreSQL: min and max, round bins between them (../histogram-axis.ts), a count per bin,
// over the rows ../bounded-read.ts says (exact; under a caller's budget, a spread sample or
// the first rows, counts scaled).
import { column } from "../catalog-row";
import type { HistogramOutput, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { boundedPlan, scaledCounts } from "../bounded-read";
import { axisFor, scaleOf, SQL_SNAP, type Axis } from "../histogram-axis";
import { runLater } from "../stepwise";
import { OVER_BUDGET, within } from "./budget";
import { searchWhere } from "./read-plan";
import { quoteIdent as q, source, type PgResource, type Queryable } from "./resource";
import { nthId, spreadSample } from "./spread-sample";

/** A value's position on the axis (histogram-axis.ts), in numeric: exact decimal arithmetic
 *  before the snap, as JavaScript's doubles come close enough to agree on every bin. */
const POSITION: Record<Axis["unit"], (col: string) => string> = {
  number: (col) => `${col}::numeric`,
  // Seconds since 1970-01-01 of the value read as UTC (a timestamp without time zone is).
  second: (col) => `extract(epoch from ${col}::timestamp)`,
  month: (col) => `(extract(year from ${col}) * 12 + extract(month from ${col}) - 1)`,
};

type Counted = Omit<HistogramOutput, "partial">;

/** `db`: a client inside a transaction. */
export async function histogram(db: Queryable, r: PgResource, field: string, query: SearchQuery, bins: number, budgetMs: number | null = null): Promise<HistogramOutput> {
  const f = column(r, field);
  const scale = scaleOf(f.type);
  if (!scale) throw DatastoreError.field("field", `field "${field}" is ${f.type}: a histogram needs a number, date or timestamp field`);
  const where = searchWhere(r, query);
  const col = `t.${q(f.column)}`;
  const base = where.params.length;
  const from = (extra: string) => `FROM ${source(r)} AS t WHERE ${where.sql()} AND ${col} IS NOT NULL${extra}`;

  /** `extra` narrows the rows; its values are bound after the search's. */
  const run = async (extra: string, extraParams: unknown[]): Promise<Counted> => {
    const params = [...where.params, ...extraParams];
    const { rows } = await db.query<[number | string | null, number | string | null]>({ text: `SELECT min(${col}), max(${col}) ${from(extra)}`, values: params, rowMode: "array" });
    const [min, max] = rows[0];
    if (min === null || max === null) return { min: null, max: null, bins: [] };
    const axis = axisFor(scale, min, max, bins);
    const last = axis.bins.length - 1;
    let counts: number[];
    if (last === 0) {
      const { rows: n } = await db.query<[unknown]>({ text: `SELECT count(*)::int8 ${from(extra)}`, values: params, rowMode: "array" });
      counts = [Number(n[0][0])];
    } else {
      const p = (i: number) => `$${params.length + i}`;
      const position = `(${POSITION[axis.unit](col)} - ${p(1)}::numeric) * ${p(2)}::numeric`;
      const bin = `greatest(0, least(${p(5)}::int8, floor(${SQL_SNAP(position)} / ${p(3)}::numeric) - ${p(4)}::numeric))`;
      const { rows: grouped } = await db.query<[unknown, unknown]>({
        text: `SELECT ${bin} AS b, count(*)::int8 ${from(extra)} GROUP BY 1`,
        values: [...params, axis.offset, axis.mul, axis.div, axis.first, last],
        rowMode: "array",
      });
      counts = axis.bins.map(() => 0);
      for (const [b, n] of grouped) counts[Number(b)] = Number(n);
    }
    return { min, max, bins: axis.bins.map((edges, i) => ({ ...edges, count: counts[i] ?? 0 })) };
  };

  const plan = boundedPlan(
    { rowCount: r.rowCount, narrowed: query.filters.length > 0 || query.fts.length > 0 },
    budgetMs,
    {
      exact: async (ms) => {
        if (ms === null) return run("", []);
        const exact = await within(db, ms, () => run("", []));
        return exact === OVER_BUDGET ? null : exact;
      },
      sample: async (rows) => {
        const sample = await spreadSample(db, r, rows, base + 1);
        return sample && run(` AND ${sample.sql}`, sample.params);
      },
      first: async (rows) => {
        const lastId = await nthId(db, r, rows);
        return lastId === undefined ? run("", []) : run(` AND t._id <= $${base + 1}`, [lastId]);
      },
    },
    (out) => out.bins.reduce((n, b) => n + b.count, 0),
  );
  const { out, partial, sampled } = await runLater(plan);
  return partial ? { ...out, bins: scaledCounts(out.bins, sampled, r.rowCount), partial } : { ...out, partial };
}
