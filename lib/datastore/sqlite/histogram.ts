// The spread of one numeric, date or timestamp field under a search (datastore_histogram) in
// SQLite: min and max, round bins between them (../histogram-axis.ts), and a count per bin,
// over the rows ../bounded-read.ts says (exact; under a caller's budget, a spread sample or
// the first rows, counts scaled).
import { column } from "../catalog-row";
import type Database from "better-sqlite3";
import type { HistogramOutput, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { boundedPlan, scaledCounts } from "../bounded-read";
import { axisFor, scaleOf, SQL_SNAP, type Axis } from "../histogram-axis";
import { runNow } from "../stepwise";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { nthId, spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { Where } from "./where";

/** A value's position on the axis (histogram-axis.ts): dates and timestamps are ISO text. */
const POSITION: Record<Axis["unit"], (col: string) => string> = {
  number: (col) => col,
  second: (col) => `unixepoch(${col})`,
  month: (col) => `(CAST(substr(${col}, 1, 4) AS INTEGER) * 12 + CAST(substr(${col}, 6, 2) AS INTEGER) - 1)`,
};

/**
 * `ds_bin_counts(bin)`: the rows per bin, as a JSON list (missing bins null). One pass, where
 * GROUP BY would sort every row after the scan, beyond the reach of the deadline checks.
 */
export function installBinCounts(db: Database.Database): void {
  db.aggregate<number[]>("ds_bin_counts", {
    deterministic: true,
    start: () => [],
    step: (counts, bin) => {
      counts[bin] = (counts[bin] ?? 0) + 1;
    },
    result: (counts) => JSON.stringify(counts),
  });
}

export function histogram(c: Conn, r: Internal, field: string, query: SearchQuery, bins: number, budgetMs: number | null = null): HistogramOutput {
  const f = column(r, field);
  const scale = scaleOf(f.type);
  if (!scale) throw DatastoreError.field("field", `field "${field}" is ${f.type}: a histogram needs a number, date or timestamp field`);
  const where = new Where(r);
  for (const flt of query.filters) where.filter(flt);
  where.fullText(query.fts);
  const col = `t.${q(f.column)}`;
  // `extra` narrows to the first rows; NOT INDEXED then reads them by _id rather than walking
  // an index of the column (as SQLite would, to group by it).
  const from = (extra: string, hint: string) => `FROM ${q(r.table)} AS t${hint} ${where.ftsJoin} WHERE ${where.sql()} AND ${col} IS NOT NULL${extra}`;

  const run = (extra: string, extraParams: unknown[], hint: string): Omit<HistogramOutput, "partial"> => {
    const params = [...where.params, ...extraParams];
    // Two single-aggregate subqueries: each is one step through an index of the column, if any.
    const [min, max] = c.cache
      .get(`SELECT (SELECT min(${col}) ${from(extra, hint)}), (SELECT max(${col}) ${from(extra, hint)})`, "raw")
      .get(...params, ...params) as [number | string | null, number | string | null];
    if (min === null || max === null) return { min: null, max: null, bins: [] };
    const axis = axisFor(scale, min, max, bins);
    const last = axis.bins.length - 1;
    const bin = last === 0 ? "0" : `max(0, min(?, floor(${SQL_SNAP(`(${POSITION[axis.unit](col)} - ?) * ?`)} / ?) - ?))`;
    const binParams = last === 0 ? [] : [last, axis.offset, axis.mul, axis.div, axis.first];
    const counts = JSON.parse(c.cache.get(`SELECT ds_bin_counts(${bin}) ${from(extra, hint)}`, "pluck").get(...binParams, ...params) as string) as (number | null)[];
    return { min, max, bins: axis.bins.map((edges, i) => ({ ...edges, count: counts[i] ?? 0 })) };
  };

  const read = (extra: string, params: unknown[]) => within(c.db, c.limits.queryTimeoutMs, () => run(extra, params, " NOT INDEXED"));
  const plan = boundedPlan(
    { rowCount: r.rowCount, narrowed: query.filters.length > 0 || query.fts.length > 0 },
    budgetMs,
    {
      exact: (ms) => {
        if (ms === null) return within(c.db, c.limits.queryTimeoutMs, () => run("", [], ""));
        try {
          return within(c.db, ms, () => run("", [], ""));
        } catch (e) {
          if (e instanceof DeadlineExceeded) return null;
          throw e;
        }
      },
      sample: (rows) => {
        const sample = spreadSample(c, r, rows);
        return sample && read(` AND ${sample.sql}`, sample.params);
      },
      first: (rows) => {
        const lastId = nthId(c, r, rows);
        return lastId === undefined ? read("", []) : read(" AND t._id <= ?", [lastId]);
      },
    },
    (out) => out.bins.reduce((n, b) => n + b.count, 0),
  );
  const { out, partial, sampled } = runNow(plan);
  return partial ? { ...out, bins: scaledCounts(out.bins, sampled, r.rowCount), partial } : { ...out, partial };
}
