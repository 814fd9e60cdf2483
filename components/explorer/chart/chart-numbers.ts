// A chart's result as words and numbers: its caption, the notes on what it leaves out (a
// sample, values past the top ones), the numbers table and its CSV text. Pure, so the table,
// the download and the tests read the same figures.
import type { AggregateResult, DatastoreField, HistogramResult, SearchResult } from "@/lib/api-client";
import type { Period } from "@/lib/view-state";
import { english, type Translate } from "@/lib/i18n";
import { formatCount, totalText } from "../format";
import { fieldLabel, type ResolvedChart } from "./chart-fields";

/** A chart's result, tagged by the request that fetched it. */
export type ChartData =
  | { kind: "aggregate"; result: AggregateResult }
  | { kind: "scatter"; result: SearchResult }
  | { kind: "histogram"; result: HistogramResult };

export type Cell = string | number | boolean | null;

export type ChartNumbers = { columns: string[]; rows: Cell[][] };

/** A period's start ("2001-04-01") as its usual short name: 2001-04, 2001-Q2, 2001. */
export function periodText(key: unknown, period: Period | null): string {
  const s = String(key);
  const m = /^(\d{4})-(\d{2})-\d{2}/.exec(s);
  if (!m) return s;
  if (period === "year") return m[1];
  if (period === "quarter") return `${m[1]}-Q${Math.floor((Number(m[2]) - 1) / 3) + 1}`;
  if (period === "month") return `${m[1]}-${m[2]}`;
  return s.slice(0, 10);
}

/** The measure's column: "Rows", "Sum of Delay (min)", "Average Delay (min)". */
export function measureLabel(chart: ResolvedChart, fields: DatastoreField[], t: Translate = english): string {
  const y = fieldLabel(fields, chart.y);
  return chart.agg === "sum" ? t("chart.sumOf", { y }) : chart.agg === "avg" ? t("chart.averageOf", { y }) : t("summary.rows");
}

function keyCell(value: unknown): Cell {
  return value === null || value === undefined || value === "" ? null : (value as Cell);
}

export function chartNumbers(chart: ResolvedChart, data: ChartData, fields: DatastoreField[], t: Translate = english): ChartNumbers {
  const x = fieldLabel(fields, chart.x);
  if (data.kind === "aggregate") {
    const counted = chart.agg !== "count";
    const line = chart.type === "line";
    const groups = line ? data.result.groups.filter((g) => keyCell(g.key[0]) !== null) : data.result.groups;
    return {
      columns: [
        line && chart.period ? t("chart.col.periodOf", { period: t(`chart.period.${chart.period}`), x }) : x,
        measureLabel(chart, fields, t),
        ...(counted ? [t("summary.rows")] : []),
      ],
      rows: groups.map((g) => [
        line ? periodText(g.key[0], chart.period) : keyCell(g.key[0]),
        counted ? g.value : g.count,
        ...(counted ? [g.count] : []),
      ]),
    };
  }
  if (data.kind === "scatter") {
    const ids = chart.x === chart.y ? [chart.x!] : [chart.x!, chart.y!];
    return {
      columns: ["_id", ...ids.map((id) => fieldLabel(fields, id))],
      rows: data.result.records.map((r) => [r._id as Cell, ...ids.map((id) => keyCell(r[id]))]),
    };
  }
  return {
    columns: [t("chart.col.from", { x }), t("chart.col.to", { x }), t("summary.rows")],
    rows: data.result.bins.map((b) => [b.from, b.to, b.count]),
  };
}

function csvCell(value: Cell): string {
  if (value === null) return "";
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180: one line per row, each ended by CRLF. */
export function csvText(rows: Cell[][]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

/** A header line, then one line per row. */
export function toCsv(numbers: ChartNumbers): string {
  return csvText([numbers.columns, ...numbers.rows]);
}

/** What the chart shows, in a few words: "rows per origin, count". */
export function chartWhat(chart: ResolvedChart, fields: DatastoreField[], t: Translate = english): string {
  const x = fieldLabel(fields, chart.x);
  const y = fieldLabel(fields, chart.y);
  const agg = t(`chart.aggWord.${chart.agg}`);
  const measured = chart.agg === "count" ? t("chart.rowsWord") : y;
  switch (chart.type) {
    case "bar":
      return t("chart.what.bar", { measured, x, agg });
    case "line":
      return t("chart.what.line", { measured, period: t(`chart.periodWord.${chart.period ?? "none"}`), x, agg });
    case "scatter":
      return t("chart.what.scatter", { y, x });
    case "histogram":
      return t("chart.what.histogram", { x });
  }
}

/** How many rows the figures cover: "20,000 rows", "2,000 of 19,987 matching rows, spread evenly". */
function rowsText(data: ChartData, t: Translate): string {
  const rows = (count: number) => t("count.rows", { count });
  switch (data.kind) {
    case "aggregate":
      return data.result.partial ? t("chart.sampleOf", { rows: rows(data.result.rows) }) : rows(data.result.total);
    case "scatter": {
      const shown = data.result.records.length;
      const total = data.result.total ?? shown;
      const estimated = Boolean(data.result.total_was_estimated);
      if (shown >= total && !estimated) return rows(shown);
      return t("chart.spreadOf", { shown: formatCount(shown, t.locale), total: totalText(total, estimated, t) });
    }
    case "histogram": {
      const counted = data.result.bins.reduce((n, b) => n + b.count, 0);
      return t("chart.withValue", { rows: rows(counted) });
    }
  }
}

/** The figure's caption: "US flights: rows per origin, count, 20,000 rows". */
export function chartCaption(title: string, chart: ResolvedChart, data: ChartData, fields: DatastoreField[], t: Translate = english): string {
  return `${title}: ${chartWhat(chart, fields, t)}, ${rowsText(data, t)}`;
}

/** What the chart leaves out or estimates, as sentences. `total` is the search's count, for a
 *  histogram drawn from a sample (its result has none). */
export function chartNotes(
  chart: ResolvedChart,
  data: ChartData,
  fields: DatastoreField[],
  total?: { n: number; estimated: boolean },
  t: Translate = english,
): string[] {
  const notes: string[] = [];
  const rows = (count: number) => t("count.rows", { count });
  const n = (count: number) => formatCount(count, t.locale);
  if (data.kind === "aggregate") {
    const r = data.result;
    if (r.partial) notes.push(t("chart.note.sample", { rows: n(r.rows), total: totalText(r.total, true, t) }));
    if (chart.type === "bar" && r.others.groups > 0) {
      const shown = r.groups.length;
      notes.push(
        t("chart.note.top", {
          count: shown,
          values: t("chart.values", { count: shown }),
          more: t("chart.moreValues", { count: r.others.groups }),
          rows: rows(r.others.count),
        }),
      );
    }
    if (chart.type === "line") {
      const empty = r.groups.filter((g) => keyCell(g.key[0]) === null).reduce((n, g) => n + g.count, 0);
      if (empty > 0) notes.push(t("chart.note.empty", { count: empty, rows: rows(empty), x: fieldLabel(fields, chart.x) }));
      if (r.others.groups > 0) {
        const periods = chart.period
          ? t(`period.${chart.period}`, { count: r.groups.length })
          : `${n(r.groups.length)} ${t("chart.periodWord.none")}`;
        notes.push(t("chart.note.firstPeriods", { periods, more: n(r.others.groups) }));
      }
    }
  } else if (data.kind === "histogram" && data.result.partial) {
    const counted = data.result.bins.reduce((n, b) => n + b.count, 0);
    notes.push(
      total
        ? t("chart.note.sample", { rows: n(counted), total: totalText(total.n, total.estimated, t) })
        : t("chart.note.sampleOnly", { rows: n(counted) }),
    );
  }
  return notes;
}

/** A file name from the resource's title and what the chart shows; no characters a file
 *  system refuses. */
export function chartFileName(title: string, chart: ResolvedChart, fields: DatastoreField[], ext: string): string {
  return safeFileName(`${title || "chart"} - ${chartWhat(chart, fields)}`, ext);
}

/** A file name from any text: no characters a file system refuses, at most 150 before the extension. */
export function safeFileName(text: string, ext: string): string {
  const name = text
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "-")
    .replace(/\s+/g, " ")
    .trim();
  return `${name.slice(0, 150)}.${ext}`;
}
