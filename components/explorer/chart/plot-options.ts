// A chart's Observable Plot specification for a width: horizontal bars per value, a line over
// periods, dots for a pair of numbers, bars over bins. Marks only: the caption, the numbers and
// their table are the figure's, in HTML.
import { english, type Translate } from "@/lib/i18n";
import * as Plot from "@observablehq/plot";
import type { DatastoreField } from "@/lib/api-client";
import { fieldLabel, isTemporal, parseTime, type ResolvedChart } from "./chart-fields";
import { measureLabel, periodText, type ChartData } from "./chart-numbers";

/** Reads on white and on the dark theme's near-black alike (contrast above 3:1 on both). */
export const CHART_COLOR = "#3b82f6";
const HEIGHT = 380;
const LABEL_CHARS = 28;
const EMPTY = "(empty)";
// The SVG is one image named by the caption (its numbers are in the table): its marks are
// hidden from assistive technology, where Plot's names for them ("bar", "dot") say nothing.
const HIDDEN = { ariaHidden: "true" } as const;

const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Axis numbers: 20B, not 20,000,000,000 (which overlap their neighbours). */
function tick(v: number): string {
  return Math.abs(v) >= 100_000 ? compact.format(v) : plain.format(v);
}

function shorten(text: string, max = LABEL_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function keyLabel(value: unknown): string {
  return value === null || value === undefined || value === "" ? EMPTY : String(value);
}

export function plotOptions(chart: ResolvedChart, data: ChartData, fields: DatastoreField[], width: number, t: Translate = english): Plot.PlotOptions {
  const xLabel = fieldLabel(fields, chart.x);
  const measure = measureLabel(chart, fields, t);
  const base = { width, style: "--plot-background: Canvas" };

  if (data.kind === "aggregate" && chart.type === "bar") {
    const rows = data.result.groups.map((g) => ({
      label: keyLabel(g.key[0]),
      value: chart.agg === "count" ? g.count : g.value,
      count: g.count,
    }));
    // value names take at most 40% of a narrow chart, shortened to fit
    const fits = Math.max(6, Math.min(LABEL_CHARS, Math.floor((width * 0.4 - 16) / 6)));
    const longest = Math.min(fits, Math.max(4, ...rows.map((r) => r.label.length)));
    return {
      ...base,
      height: Math.max(120, rows.length * 22 + 50),
      marginLeft: Math.round(16 + longest * 6),
      x: { label: measure, grid: true, nice: true, tickFormat: tick },
      // the field's name is the tip's; on the axis it would sit on the values' names
      y: { label: xLabel, domain: rows.map((r) => r.label), axis: null },
      marks: [
        Plot.axisY({ label: null, tickFormat: (l: string) => shorten(l, fits) }),
        Plot.barX(rows, { x: "value", y: "label", fill: CHART_COLOR, tip: HIDDEN, channels: chart.agg === "count" ? {} : { Rows: "count" }, ...HIDDEN }),
        Plot.ruleX([0], HIDDEN),
      ],
    };
  }

  if (data.kind === "aggregate") {
    const points = data.result.groups
      .map((g) => ({ date: parseTime(g.key[0]), key: g.key[0], value: chart.agg === "count" ? g.count : g.value, count: g.count }))
      .filter((p) => p.date !== null);
    return {
      ...base,
      height: HEIGHT,
      marginLeft: 56,
      x: { label: xLabel, type: "utc" },
      y: { label: measure, grid: true, zero: chart.agg !== "avg", tickFormat: tick },
      marks: [
        Plot.lineY(points, { x: "date", y: "value", stroke: CHART_COLOR, strokeWidth: 2, ...HIDDEN }),
        points.length <= 60 ? Plot.dot(points, { x: "date", y: "value", fill: CHART_COLOR, r: 3, ...HIDDEN }) : null,
        Plot.tip(
          points,
          Plot.pointerX({
            x: "date",
            y: "value",
            title: (p: (typeof points)[number]) => `${periodText(p.key, chart.period)}\n${measure}: ${p.value ?? "–"}`,
            ...HIDDEN,
          }),
        ),
      ],
    };
  }

  if (data.kind === "scatter") {
    const x = chart.x!;
    const y = chart.y!;
    const points = data.result.records.map((r) => ({ _id: r._id, x: Number(r[x]), y: Number(r[y]) }));
    return {
      ...base,
      height: HEIGHT,
      marginLeft: 56,
      x: { label: xLabel, grid: true, nice: true, inset: 4, tickFormat: tick },
      y: { label: fieldLabel(fields, y), grid: true, nice: true, inset: 4, tickFormat: tick },
      marks: [
        Plot.dot(points, { x: "x", y: "y", r: 2.5, fill: CHART_COLOR, fillOpacity: 0.6, tip: HIDDEN, channels: { _id: "_id" }, ...HIDDEN }),
      ],
    };
  }

  const temporal = isTemporal(fields.find((f) => f.id === chart.x) ?? { id: "", type: "" });
  const at = (v: number | string) => (temporal ? parseTime(v) : Number(v));
  const bins = data.result.bins.map((b) => ({ from: at(b.from), to: at(b.to), count: b.count }));
  return {
    ...base,
    height: HEIGHT,
    marginLeft: 56,
    x: temporal ? { label: xLabel, type: "utc" } : { label: xLabel, type: "linear", tickFormat: tick },
    y: { label: t("summary.rows"), grid: true, tickFormat: tick },
    marks: [
      Plot.rectY(bins, { x1: "from", x2: "to", y: "count", fill: CHART_COLOR, insetLeft: 0.5, insetRight: 0.5, tip: HIDDEN, ...HIDDEN }),
      Plot.ruleY([0], HIDDEN),
    ],
  };
}
