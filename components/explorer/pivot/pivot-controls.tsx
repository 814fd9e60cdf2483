"use client";
// The pivot's settings as labelled controls: Rows (one or two fields), Columns (one, optional),
// Measure and its Value; a date key's period, a number key's bin width. Each change goes into
// the URL (view.pivot).
import { useT } from "@/components/i18n/i18n-provider";
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import { PERIODS, PIVOT_FNS, type Period, type PivotFn, type PivotKey, type PivotSettings } from "@/lib/view-state";
import { isTemporal } from "../chart/chart-fields";
import { fieldOptions, Select } from "../chart/chart-controls";
import { isNumericType } from "../format";
import { keyChoices, measureChoices, resolveKey } from "./pivot-fields";

const NONE = "";

const control = "max-w-64 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900";

/** A bin width, applied on Enter or when the box is left; empty: each value apart. */
function BinInput({ id, label, value, onChange }: { id: string; label: string; value: number | undefined; onChange: (bin: number | undefined) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const t = useT();
  const text = draft ?? (value === undefined ? "" : String(value));
  const commit = () => {
    if (draft === null) return;
    const n = Number(draft);
    setDraft(null);
    if (draft.trim() === "") onChange(undefined);
    else if (Number.isFinite(n) && n > 0) onChange(n);
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="number"
        min="0"
        step="any"
        inputMode="decimal"
        placeholder={t("pivot.eachValue")}
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
        }}
        className={`w-32 ${control}`}
      />
    </div>
  );
}

/** A key's field and, for a date, its period or, for a number, its bin width. */
function KeyControls({ id, label, value, optional, choices, fields, onChange }: {
  id: string;
  label: string;
  value: PivotKey | null;
  optional: boolean;
  choices: DatastoreField[];
  fields: DatastoreField[];
  onChange: (key: PivotKey | null) => void;
}) {
  const t = useT();
  const field = value ? fields.find((f) => f.id === value.field) : undefined;
  const options = [...(optional ? [{ value: NONE, name: t("chart.none") }] : []), ...fieldOptions(choices, fields)];
  return (
    <>
      <Select
        id={id}
        label={label}
        value={value?.field ?? NONE}
        options={options}
        onChange={(v) => onChange(v === NONE ? null : resolveKey({ field: v }, fields))}
      />
      {value && field && isTemporal(field) && (
        <Select
          id={`${id}-period`}
          label={t("pivot.keyPeriod", { label })}
          value={value.period ?? "month"}
          options={PERIODS.map((p) => ({ value: p, name: t(`chart.period.${p}`) }))}
          onChange={(p) => onChange({ field: value.field, period: p as Period })}
        />
      )}
      {value && field && isNumericType(field.type) && (
        <BinInput
          key={`${value.field}:${value.bin}`}
          id={`${id}-bin`}
          label={t("pivot.keyBin", { label })}
          value={value.bin}
          onChange={(bin) => onChange(bin === undefined ? { field: value.field } : { field: value.field, bin })}
        />
      )}
    </>
  );
}

export function PivotControls({ pivot, fields, onChange }: { pivot: PivotSettings; fields: DatastoreField[]; onChange: (pivot: PivotSettings) => void }) {
  const t = useT();
  const keys = keyChoices(fields);
  const numbers = measureChoices(fields);
  const [first, second] = pivot.rows;
  const set = (patch: Partial<PivotSettings>) => onChange({ ...pivot, ...patch });
  // a field is in one place at a time: picking it for one key takes it from the other
  const without = (...ids: (string | undefined)[]) => keys.filter((f) => !ids.includes(f.id));
  const rowsWith = (rows: (PivotKey | null | undefined)[]) => rows.filter((k): k is PivotKey => Boolean(k));

  return (
    <div role="group" aria-label={t("pivot.settings")} className="flex flex-wrap items-end gap-3">
      <KeyControls
        id="pivot-rows"
        label={t("pivot.rows")}
        value={first ?? null}
        optional={false}
        choices={keys}
        fields={fields}
        onChange={(k) => {
          const columns = pivot.columns?.field === k?.field ? null : pivot.columns;
          set({ rows: rowsWith([k, second?.field === k?.field ? null : second]), columns });
        }}
      />
      <KeyControls
        id="pivot-rows-2"
        label={t("pivot.secondRow")}
        value={second ?? null}
        optional
        choices={without(first?.field)}
        fields={fields}
        onChange={(k) => {
          const columns = pivot.columns?.field === k?.field ? null : pivot.columns;
          set({ rows: rowsWith([first, k]), columns });
        }}
      />
      <KeyControls
        id="pivot-columns"
        label={t("pivot.columns")}
        value={pivot.columns}
        optional
        choices={without(first?.field, second?.field)}
        fields={fields}
        onChange={(columns) => set({ columns })}
      />
      <Select
        id="pivot-measure"
        label={t("chart.measure")}
        value={pivot.measure.fn}
        // sum, average, minimum and maximum read a number: none without a number field
        options={PIVOT_FNS.filter((fn) => fn === "count" || numbers.length > 0).map((fn) => ({ value: fn, name: t(`pivot.fn.${fn}`) }))}
        onChange={(v) => {
          const fn = v as PivotFn;
          set({ measure: fn === "count" ? { fn, field: null } : { fn, field: pivot.measure.field ?? numbers[0]?.id ?? null } });
        }}
      />
      {pivot.measure.fn !== "count" && (
        <Select
          id="pivot-value"
          label={t("chart.value")}
          value={pivot.measure.field ?? ""}
          options={fieldOptions(numbers, fields)}
          onChange={(field) => set({ measure: { fn: pivot.measure.fn, field } })}
        />
      )}
    </div>
  );
}
