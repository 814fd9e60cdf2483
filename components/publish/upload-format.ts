// Words for the upload dialog's progress: bytes sent, then rows imported with speed and time left.
import type { ImportProgress } from "@/lib/api-client/upload";
import { formatCount, plural } from "@/components/explorer/format";

const UNITS = ["kB", "MB", "GB", "TB"];

/** 512 → "512 bytes", 12_345_678 → "12.3 MB", 1e9 → "1.0 GB" (decimal units, as disks are sold). */
export function formatBytes(n: number): string {
  if (n < 1000) return plural(n, "byte");
  let value = n / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function sentText(sent: number, total: number): string {
  return `${formatBytes(sent)} of ${formatBytes(total)} sent`;
}

/** 98_437 → 98,400: speeds shown to three significant digits, the rest is noise. */
function roughly(n: number): number {
  const step = 10 ** Math.max(0, String(Math.trunc(n)).length - 3);
  return Math.round(n / step) * step;
}

function timeLeft(seconds: number): string {
  if (seconds < 1) return "less than a second left";
  if (seconds < 90) return `about ${Math.round(seconds)} s left`;
  if (seconds < 5400) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}

/** "1,234,567 rows imported · 98,000 rows/s · about 12 s left"; while indexing, says so. */
export function importText(p: ImportProgress): string {
  const parts = [`${plural(p.rows, "row")} imported`];
  if (p.phase === "indexing") parts.push("building indexes");
  else if (p.rows_per_second > 0) parts.push(`${formatCount(roughly(p.rows_per_second))} rows/s`);
  if (p.seconds_left !== null && p.phase === "loading") parts.push(timeLeft(p.seconds_left));
  return parts.join(" · ");
}

/** "sales 2024.csv" → "sales 2024": the default resource name. */
export function baseName(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(0, dot) : filename;
}
