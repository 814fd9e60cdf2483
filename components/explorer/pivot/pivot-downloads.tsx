"use client";
// Download CSV and Download XLSX of the cross-tab: exactly its cells as shown.
import { useT } from "@/components/i18n/i18n-provider";
import { useState } from "react";
import { saveBlob } from "@/lib/api-client";
import { Button } from "@/components/ui/button";
import { csvText } from "../chart/chart-numbers";
import type { GridCell } from "./cross-tab";
import { XLSX_TYPE, xlsxBytes } from "./pivot-xlsx";

type Format = "csv" | "xlsx";

export function PivotDownloads({ grid, title, fileName }: { grid: () => GridCell[][]; title: string; fileName: (ext: Format) => string }) {
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);
  const t = useT();

  async function download(format: Format) {
    if (busy) return;
    setError(null);
    setBusy(format);
    try {
      const blob =
        format === "csv"
          ? new Blob([csvText(grid())], { type: "text/csv;charset=utf-8" })
          : new Blob([await xlsxBytes(grid(), title)], { type: XLSX_TYPE });
      saveBlob(blob, fileName(format));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div role="group" aria-labelledby="pivot-download-label" className="flex flex-wrap items-center gap-2">
      <span id="pivot-download-label" className="text-sm font-medium">
        {t("pivot.download")}
      </span>
      {(["csv", "xlsx"] as const).map((f) => (
        <Button key={f} onClick={() => download(f)} aria-disabled={busy !== null}>
          {busy === f ? t("export.preparing", { format: f.toUpperCase() }) : t("export.download", { format: f.toUpperCase() })}
        </Button>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t("common.downloadFailed", { reason: error })}
        </p>
      )}
    </div>
  );
}
