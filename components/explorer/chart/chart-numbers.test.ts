import { describe, expect, it } from "vitest";
import type { AggregateResult, DatastoreField } from "@/lib/api-client";
import { translator } from "@/lib/i18n";
import type { ResolvedChart } from "./chart-fields";
import { chartCaption, chartFileName, chartNotes, chartNumbers, periodText, toCsv, type ChartData } from "./chart-numbers";

const FIELDS: DatastoreField[] = [
  { id: "date", type: "timestamp", info: { label: "Departure" } },
  { id: "delay", type: "int4", info: { label: "Delay (min)" } },
  { id: "distance", type: "int4" },
  { id: "origin", type: "text" },
];
const TITLE = "US flights (20,000)";

function aggregate(groups: [unknown, number, number | null][], extra: Partial<AggregateResult> = {}): ChartData {
  return {
    kind: "aggregate",
    result: {
      resource_id: "r",
      group_by: ["origin"],
      period: null,
      bin: null,
      metric: "count",
      field: null,
      total: 20000,
      rows: 20000,
      partial: false,
      groups: groups.map(([key, count, value], i) => ({ key: [key], count, value, _id: i + 1 })),
      others: { groups: 0, count: 0 },
      ...extra,
    },
  };
}

const BAR: ResolvedChart = { type: "bar", x: "origin", y: null, agg: "count", period: null };
const LINE: ResolvedChart = { type: "line", x: "date", y: null, agg: "count", period: "month" };

describe("caption and notes", () => {
  it("names the resource, what is counted and over how many rows", () => {
    expect(chartCaption(TITLE, BAR, aggregate([["DFW", 1103, 1103]]), FIELDS)).toBe("US flights (20,000): rows per origin, count, 20,000 rows");
    expect(chartCaption(TITLE, LINE, aggregate([["2001-01-01", 6937, 6937]]), FIELDS)).toBe(
      "US flights (20,000): rows per month of Departure, count, 20,000 rows",
    );
    const avg: ResolvedChart = { ...BAR, agg: "avg", y: "delay" };
    expect(chartCaption(TITLE, avg, aggregate([["DFW", 1103, 8.5]]), FIELDS)).toBe("US flights (20,000): Delay (min) per origin, average, 20,000 rows");
  });

  it("says when the counts come from a sample, and how many values the bars leave out", () => {
    const data = aggregate([["DFW", 110, 110]], { partial: true, rows: 100000, total: 3012345, others: { groups: 190, count: 6695 } });
    expect(chartCaption(TITLE, BAR, data, FIELDS)).toBe("US flights (20,000): rows per origin, count, a sample of 100,000 rows");
    expect(chartNotes(BAR, data, FIELDS)).toEqual([
      "Counted in a sample of 100,000 of about 3,010,000 rows.",
      "The top 1 value is shown, and 190 more values (6,695 rows).",
    ]);
  });

  it("a line leaves out rows without a date, and says so", () => {
    const data = aggregate([[null, 5, 5], ["2001-01-01", 6937, 6937]]);
    expect(chartNotes(LINE, data, FIELDS)).toEqual(["5 rows without Departure are left out."]);
    expect(chartNumbers(LINE, data, FIELDS).rows).toEqual([["2001-01", 6937]]);
  });

  it("scatter: 2,000 of the matching rows, spread through them", () => {
    const records = Array.from({ length: 2000 }, (_, i) => ({ _id: i + 1, distance: i, delay: 1 }));
    const data: ChartData = { kind: "scatter", result: { resource_id: "r", fields: [], records, limit: 2000, total: 19987 } };
    const chart: ResolvedChart = { type: "scatter", x: "distance", y: "delay", agg: "count", period: null };
    expect(chartCaption(TITLE, chart, data, FIELDS)).toBe("US flights (20,000): Delay (min) against distance, 2,000 of 19,987 matching rows, spread evenly");
    expect(chartCaption(TITLE, chart, data, FIELDS, translator("fr", "fr-FR"))).toMatch(/2\u202f000 des 19\u202f987 lignes correspondantes, réparties régulièrement$/);
    // The whole match read: no "of".
    const all: ChartData = { kind: "scatter", result: { ...data.result, total: 2000 } };
    expect(chartCaption(TITLE, chart, all, FIELDS)).toMatch(/against distance, 2,000 rows$/);
  });
});

describe("numbers and CSV", () => {
  it("bar: one row per value, empty values as empty cells; sums with their rows", () => {
    const numbers = chartNumbers(BAR, aggregate([["DFW", 1103, 1103], [null, 2, 2]]), FIELDS);
    expect(numbers).toEqual({ columns: ["origin", "Rows"], rows: [["DFW", 1103], [null, 2]] });
    expect(toCsv(numbers)).toBe("origin,Rows\r\nDFW,1103\r\n,2\r\n");
    const sum = chartNumbers({ ...BAR, agg: "sum", y: "delay" }, aggregate([["DFW", 1103, 9001]]), FIELDS);
    expect(sum).toEqual({ columns: ["origin", "Sum of Delay (min)", "Rows"], rows: [["DFW", 9001, 1103]] });
  });

  it("quotes what CSV must quote", () => {
    expect(toCsv({ columns: ['a "b"', "c,d"], rows: [["x\ny", 1.5], [true, null]] })).toBe('"a ""b""","c,d"\r\n"x\ny",1.5\r\ntrue,\r\n');
  });

  it("histogram: each bin's edges and count", () => {
    const data: ChartData = {
      kind: "histogram",
      result: { resource_id: "r", field: "delay", min: -10, max: 30, partial: false, bins: [{ from: -10, to: 10, count: 5 }, { from: 10, to: 30, count: 2 }] },
    };
    const chart: ResolvedChart = { type: "histogram", x: "delay", y: null, agg: "count", period: null };
    expect(chartNumbers(chart, data, FIELDS)).toEqual({
      columns: ["Delay (min) from", "Delay (min) to", "Rows"],
      rows: [[-10, 10, 5], [10, 30, 2]],
    });
    expect(chartCaption(TITLE, chart, data, FIELDS)).toBe("US flights (20,000): distribution of Delay (min), 7 rows with a value");
  });

  it("names periods as people write them", () => {
    expect(periodText("2001-04-01", "month")).toBe("2001-04");
    expect(periodText("2001-04-01T00:00:00", "quarter")).toBe("2001-Q2");
    expect(periodText("2001-01-01", "year")).toBe("2001");
    expect(periodText("2001-01-08T00:00:00", "week")).toBe("2001-01-08");
  });

  it("file names from the title, without characters file systems refuse", () => {
    expect(chartFileName(TITLE, BAR, FIELDS, "png")).toBe("US flights (20,000) - rows per origin, count.png");
    expect(chartFileName('a/b: "c"?', BAR, FIELDS, "csv")).toBe("a-b- -c- - rows per origin, count.csv");
  });
});
