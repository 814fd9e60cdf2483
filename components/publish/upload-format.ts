// Words for the upload dialog's progress: bytes sent, then rows imported with speed and time left.
import type { ImportProgress } from "@/lib/api-client/upload";
import { english, type Translate } from "@/lib/i18n";

const UNITS = ["kB", "MB", "GB", "TB"] as const;

/** One decimal, in the reader's digits: "12.3", "12,3". */
function oneDecimal(n: number, locale: string): string {
  return n.toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** 512 → "512 bytes", 12_345_678 → "12.3 MB", 1e9 → "1.0 GB" (decimal units, as disks are sold). */
export function formatBytes(n: number, t: Translate = english): string {
  if (n < 1000) return t("upload.bytes", { count: n });
  let value = n / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return t(`upload.unit.${UNITS[unit]}`, { value: oneDecimal(value, t.locale) });
}

export function sentText(sent: number, total: number, t: Translate = english): string {
  return t("upload.sent", { sent: formatBytes(sent, t), total: formatBytes(total, t) });
}

/** 98_437 → 98,400: speeds shown to three significant digits, the rest is noise. */
function roughly(n: number): number {
  const step = 10 ** Math.max(0, String(Math.trunc(n)).length - 3);
  return Math.round(n / step) * step;
}

function timeLeft(seconds: number, t: Translate): string {
  if (seconds < 1) return t("upload.leftSecond");
  if (seconds < 90) return t("upload.leftSeconds", { count: Math.round(seconds) });
  if (seconds < 5400) return t("upload.leftMinutes", { count: Math.round(seconds / 60) });
  return t("upload.leftHours", { hours: oneDecimal(seconds / 3600, t.locale) });
}

/** "1,234,567 rows imported · 98,000 rows/s · about 12 s left"; while indexing, says so. */
export function importText(p: ImportProgress, t: Translate = english): string {
  const parts = [t("upload.rowsImported", { count: p.rows })];
  if (p.phase === "indexing") parts.push(t("upload.indexing"));
  else if (p.rows_per_second > 0) parts.push(t("upload.speed", { count: roughly(p.rows_per_second) }));
  if (p.seconds_left !== null && p.phase === "loading") parts.push(timeLeft(p.seconds_left, t));
  return parts.join(" · ");
}

/** "sales 2024.csv" → "sales 2024": the default resource name. */
export function baseName(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(0, dot) : filename;
}
