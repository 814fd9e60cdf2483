// One value in the table: null marked, empty text left empty, numbers and dates in the reader's
// locale (the stored value in the tooltip), long text and JSON cut short (the row's detail
// panel has the full value).
"use client";
import type { DatastoreField } from "@/lib/api-client";
import { useT } from "@/components/i18n/i18n-provider";
import { formatFieldValue, truncate, valueText } from "./format";

export function NullMark() {
  const t = useT();
  return (
    <span title={t("value.nullTitle")} className="rounded bg-zinc-100 px-1 text-xs text-zinc-600 italic dark:bg-zinc-800 dark:text-zinc-400">
      null
    </span>
  );
}

function EmptyMark() {
  const t = useT();
  return <span className="sr-only">{t("value.empty")}</span>;
}

export function CellValue({ value, field, locale }: { value: unknown; field: DatastoreField; locale: string }) {
  if (value === null || value === undefined) return <NullMark />;
  if (value === "") return <EmptyMark />;
  const full = valueText(value);
  const formatted = formatFieldValue(value, field, locale);
  if (formatted !== null && formatted !== full) {
    return (
      <span title={full} className="block max-w-[22rem] truncate">
        {formatted}
      </span>
    );
  }
  const { text, truncated } = truncate(full);
  const structured = typeof value === "object";
  return (
    <span
      title={truncated || full.length > 40 ? full.slice(0, 1000) : undefined}
      className={`block max-w-[22rem] truncate ${structured ? "font-mono text-xs" : ""}`}
    >
      {text}
    </span>
  );
}
