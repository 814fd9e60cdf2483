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
import { fieldLabel } from "./chart/chart-fields";
import { ChartControls } from "./chart/chart-controls";
import { ChartDownloads } from "./chart/chart-downloads";
import { chartCaption, chartFileName, chartNotes, chartNumbers, toCsv, type ChartData } from "./chart/chart-numbers";
import { NumbersTable } from "./chart/numbers-table";
import { PlotChart } from "./chart/plot-chart";
import { useChartData } from "./chart/use-chart-data";
import { useChartPlan } from "./chart/use-chart-plan";
import { useT } from "@/components/i18n/i18n-provider";
import { ErrorState } from "./error-state";
import type { ViewProps } from "./view-props";

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
  const t = useT();
  const chart = plan.chart;
  // a histogram read from a sample has no total of its own
  const sampled = data?.kind === "histogram" && data.result.partial;
  const count = useQuery({ ...countQuery(session, toMatchRequest(view)), enabled: ready && sampled });

  if (!chart) return <Skeleton className="h-80 w-full" />;

  const drawable = chart.x !== null && (chart.type !== "scatter" || chart.y !== null);
  let body;
  if (!drawable) {
    body = <Notice title={t("chart.nothing")}>{t(`chart.nothing.${chart.type}`)}</Notice>;
  } else if (error) {
    body = <ErrorState error={error} what="chart" onRetry={refetch} />;
  } else if (!data) {
    body = (
      <div role="status">
        <span className="sr-only">{t("chart.drawing")}</span>
        <Skeleton className="h-80 w-full" />
      </div>
    );
  } else if (data.kind === "aggregate" && data.result.partial && data.result.rows === 0) {
    body = (
      <Notice title={t("chart.tooFew")} role="status">
        {t("chart.tooFewBody")}
      </Notice>
    );
  } else if (isEmpty(data)) {
    body = (
      <Notice title={t("chart.noRows")} role="status">
        {chart.type === "scatter"
          ? t("chart.noValues", { x: fieldLabel(fields, chart.x), y: fieldLabel(fields, chart.y) })
          : t("chart.noValue", { x: fieldLabel(fields, chart.x) })}
      </Notice>
    );
  } else {
    const caption = chartCaption(title, chart, data, fields, t);
    const notes = chartNotes(chart, data, fields, count.data ? { n: count.data.total, estimated: count.data.estimated } : undefined, t);
    const numbers = chartNumbers(chart, data, fields, t);
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
            description={[...notes, t("chart.numbersBelow")].join(" ")}
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
    <section aria-label={t("tab.chart")} className="space-y-4">
      <ChartControls chart={chart} fields={fields} onChange={(settings) => onChange({ chart: settings })} />
      {body}
    </section>
  );
}
