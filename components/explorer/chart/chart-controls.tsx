"use client";
// The chart's settings as labelled selects. Each choice goes into the URL (view.chart).
import type { DatastoreField } from "@/lib/api-client";
import { CHART_AGGS, CHART_TYPES, PERIODS, type ChartAgg, type ChartSettings, type ChartType, type Period } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { fieldLabel, xChoices, yChoices, type ResolvedChart } from "./chart-fields";

export function Select({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; name: string }[];
  onChange: (value: string) => void;
}) {
  const t = useT();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={options.length === 0}
        onChange={(e) => onChange(e.target.value)}
        className="max-w-64 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
      >
        {options.length === 0 && <option value="">{t("chart.none")}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A select's options for some of the fields, each by its label (and id when they differ). */
export function fieldOptions(fields: DatastoreField[], all: DatastoreField[]) {
  return fields.map((f) => {
    const label = fieldLabel(all, f.id);
    return { value: f.id, name: label === f.id ? f.id : `${label} (${f.id})` };
  });
}

export function ChartControls({
  chart,
  fields,
  onChange,
}: {
  chart: ResolvedChart;
  fields: DatastoreField[];
  onChange: (settings: ChartSettings) => void;
}) {
  // a new type starts from its own defaults for what does not fit it
  const setType = (type: ChartType) => {
    const x = xChoices(type, fields).some((f) => f.id === chart.x) ? chart.x : null;
    onChange({ ...chart, type, x, period: type === "line" ? null : chart.period });
  };
  const set = (patch: Partial<ChartSettings>) => onChange({ ...chart, ...patch });
  const grouped = chart.type === "bar" || chart.type === "line";
  const ys = fieldOptions(yChoices(fields), fields);
  const t = useT();

  return (
    <div role="group" aria-label={t("chart.settings")} className="flex flex-wrap items-end gap-3">
      <Select
        id="chart-type"
        label={t("chart.typeLabel")}
        value={chart.type}
        options={CHART_TYPES.map((type) => ({ value: type, name: t(`chart.type.${type}`) }))}
        onChange={(v) => setType(v as ChartType)}
      />
      <Select
        id="chart-x"
        label={grouped ? t("chart.groupBy") : t("chart.field")}
        value={chart.x ?? ""}
        options={fieldOptions(xChoices(chart.type, fields), fields)}
        onChange={(x) => set({ x })}
      />
      {chart.type === "line" && (
        <Select
          id="chart-period"
          label={t("chart.periodLabel")}
          value={chart.period ?? "month"}
          options={PERIODS.map((p) => ({ value: p, name: t(`chart.period.${p}`) }))}
          onChange={(v) => set({ period: v as Period })}
        />
      )}
      {grouped && (
        <Select
          id="chart-agg"
          label={t("chart.measure")}
          value={chart.agg}
          // sum and average read a number: none without a numeric field
          options={CHART_AGGS.filter((a) => a === "count" || ys.length > 0).map((a) => ({ value: a, name: t(`chart.agg.${a}`) }))}
          onChange={(v) => set({ agg: v as ChartAgg })}
        />
      )}
      {((grouped && chart.agg !== "count") || chart.type === "scatter") && (
        <Select id="chart-y" label={t("chart.value")} value={chart.y ?? ""} options={ys} onChange={(y) => set({ y })} />
      )}
    </div>
  );
}
