"use client";
// The Chart tab: a bar, line, scatter or histogram chart of the current result (search and
// filters), drawn by Observable Plot from one request (the one the API panel shows), with its
// caption, its numbers as a table and its downloads. Its settings live in the URL (view.chart).
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { countQuery } from "@/lib/api-client";
import { toMatchRequest } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { fieldLabel, type ResolvedChart } from "./chart/chart-fields";
import { ChartControls } from "./chart/chart-controls";
import { ChartDownloads } from "./chart/chart-downloads";
import { chartCaption, chartFileName, chartNotes, chartNumbers, toCsv, type ChartData } from "./chart/chart-numbers";
import { NumbersTable } from "./chart/numbers-table";
import { PlotChart } from "./chart/plot-chart";
import { useChartData } from "./chart/use-chart-data";
import { useChartPlan } from "./chart/use-chart-plan";
import { ErrorState } from "./error-state";
import type { ViewProps } from "./view-props";

const NOTHING_TO_DRAW: Record<ResolvedChart["type"], string> = {
  bar: "This resource has no field to group by.",
  line: "A line chart needs a date or time field, and this resource has none.",
  scatter: "A scatter plot needs two number fields, and this resource has fewer.",
  histogram: "A histogram needs a number, date or time field, and this resource has none.",
};

function isEmpty(data: ChartData): boolean {
  if (data.kind === "aggregate") return data.result.groups.length === 0;
  if (data.kind === "scatter") return data.result.records.length === 0;
  return data.result.bins.length === 0;
}

export function ChartView({ view, fields, title, onChange, onOpenRecord }: ViewProps) {
  const { session, ready } = useToken();
  const plan = useChartPlan(view, fields.length ? fields : undefined, true);
  const { data, error, fetching, refetch } = useChartData(plan.call);
  const svgRef = useRef<SVGSVGElement | null>(null);
  const chart = plan.chart;
  // a histogram read from a sample has no total of its own
  const sampled = data?.kind === "histogram" && data.result.partial;
  const count = useQuery({ ...countQuery(session, toMatchRequest(view)), enabled: ready && sampled });

  if (!chart) return <Skeleton className="h-80 w-full" />;

  const drawable = chart.x !== null && (chart.type !== "scatter" || chart.y !== null);
  let body;
  if (!drawable) {
    body = <Notice title="Nothing to draw">{NOTHING_TO_DRAW[chart.type]}</Notice>;
  } else if (error) {
    body = <ErrorState error={error} what="chart" onRetry={refetch} />;
  } else if (!data) {
    body = (
      <div role="status">
        <span className="sr-only">Drawing the chart…</span>
        <Skeleton className="h-80 w-full" />
      </div>
    );
  } else if (data.kind === "aggregate" && data.result.partial && data.result.rows === 0) {
    body = (
      <Notice title="Too few rows to count quickly" role="status">
        The matching rows are too rare for a quick sample of this table to find them. The Table tab lists them; narrowing the
        search with an indexed field helps the chart too.
      </Notice>
    );
  } else if (isEmpty(data)) {
    body = (
      <Notice title="No rows to draw" role="status">
        No matching row has a value for {fieldLabel(fields, chart.x)}
        {chart.type === "scatter" ? ` and ${fieldLabel(fields, chart.y)}` : ""}. Change the search or the filters.
      </Notice>
    );
  } else {
    const caption = chartCaption(title, chart, data, fields);
    const notes = chartNotes(chart, data, fields, count.data ? { n: count.data.total, estimated: count.data.estimated } : undefined);
    const numbers = chartNumbers(chart, data, fields);
    body = (
      <div className="space-y-3">
        <figure aria-busy={fetching} className="space-y-2">
          <figcaption className="text-sm">
            <span className="font-medium">{caption}</span>
            {notes.map((n) => (
              <span key={n} className="block text-zinc-700 dark:text-zinc-300">
                {" "}
                {n}
              </span>
            ))}
          </figcaption>
          <PlotChart
            chart={chart}
            data={data}
            fields={fields}
            label={caption}
            description={`${[...notes, "The numbers are in the table below the chart."].join(" ")}`}
            svgRef={svgRef}
            onOpenRecord={onOpenRecord}
          />
          <NumbersTable numbers={numbers} caption={caption} />
        </figure>
        <ChartDownloads svgRef={svgRef} csv={() => toCsv(numbers)} fileName={(ext) => chartFileName(title, chart, fields, ext)} />
      </div>
    );
  }

  return (
    <section aria-label="Chart" className="space-y-4">
      <ChartControls chart={chart} fields={fields} onChange={(settings) => onChange({ chart: settings })} />
      {body}
    </section>
  );
}
