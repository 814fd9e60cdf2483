"use client";
import { LIMIT_CHOICES } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";

export function LimitSelect({ value, onChange }: { value: number; onChange: (limit: number) => void }) {
  const t = useT();
  const choices: number[] = LIMIT_CHOICES.includes(value as (typeof LIMIT_CHOICES)[number])
    ? [...LIMIT_CHOICES]
    : [...LIMIT_CHOICES, value].sort((a, b) => a - b);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="limit-select" className="text-sm font-medium">
        {t("limit.label")}
      </label>
      <select
        id="limit-select"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
      >
        {choices.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
