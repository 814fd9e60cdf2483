// The spread of one numeric, date or timestamp field under a search (datastore_histogram):
// min and max, round bins between them (../histogram-axis.ts), and a count per bin. Bounded as
// value counts are: exact when it fits a time budget; otherwise over 20,000 rows spread through
// the table (or, when few of those match, the first rows) and `partial`.
import type Database from "better-sqlite3";
import type { HistogramOutput, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { axisFor, scaleOf, SQL_SNAP, type Axis } from "../histogram-axis";
import type { Internal } from "./catalog";
import type { Conn } from "./connection";
import { DeadlineExceeded, within } from "./deadline";
import { column } from "./schema";
import { spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";
import { Where } from "./where";

const BUDGET_MS = 120;
const ROW_BUDGET = 100_000;
const SAMPLE_ROWS = 20_000;
/** Fewer sampled matches than this: the first rows are read instead. */
const MIN_MATCHES = 1_000;

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

export function histogram(c: Conn, r: Internal, field: string, query: SearchQuery, bins: number): HistogramOutput {
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

  // Counting a whole big table cannot fit the budget even through an index, so unnarrowed
  // histograms there go straight to the first rows.
  const hopeless = query.filters.length === 0 && query.fts.length === 0 && r.rowCount > 5 * ROW_BUDGET;
  if (!hopeless) {
    try {
      return { ...within(c.db, BUDGET_MS, () => run("", [], "")), partial: false };
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
    }
  }
  // Rows spread through the table first (a table loaded in date order shows all its dates);
  // when a narrow search leaves too few of them, the first rows, as value counts read them.
  const sample = spreadSample(c, r, SAMPLE_ROWS);
  if (sample) {
    const out = within(c.db, c.limits.queryTimeoutMs, () => run(` AND ${sample.sql}`, sample.params, " NOT INDEXED"));
    const narrowed = query.filters.length > 0 || query.fts.length > 0;
    if (!narrowed || out.bins.reduce((n, b) => n + b.count, 0) >= MIN_MATCHES) return { ...out, partial: true };
  }
  const lastId = c.cache.get(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`, "pluck").get(ROW_BUDGET - 1) as number | undefined;
  const out = within(c.db, c.limits.queryTimeoutMs, () => (lastId === undefined ? run("", [], " NOT INDEXED") : run(" AND t._id <= ?", [lastId], " NOT INDEXED")));
  return { ...out, partial: true };
}
