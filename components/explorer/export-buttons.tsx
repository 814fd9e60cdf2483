"use client";
// Download: every matching row (not just this page) through the dump endpoint, with the token,
// in the format asked for (CSV, Excel, JSON, NDJSON, GeoJSON, Parquet).
import { useState } from "react";
import { downloadDump, explainError } from "@/lib/api-client";
import { DUMP_FORMATS, dumpPath, type DumpFormat, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

const LABELS: Record<Exclude<DumpFormat, "xlsx">, string> = {
  csv: "CSV",
  json: "JSON",
  ndjson: "NDJSON",
  geojson: "GeoJSON",
  parquet: "Parquet",
};

export function ExportButtons({ view, filename }: { view: ViewState; filename: string }) {
  const { session } = useToken();
  const [busy, setBusy] = useState<DumpFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const label = (format: DumpFormat) => (format === "xlsx" ? t("export.excel") : LABELS[format]);

  async function download(format: DumpFormat) {
    if (busy) return;
    setBusy(format);
    setError(null);
    try {
      await downloadDump(dumpPath(view, format), `${filename}.${format}`, session);
    } catch (e) {
      setError(explainError(e, "resource", t).title);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-labelledby="export-label">
      <span id="export-label" className="text-sm font-medium">
        {t("export.label")}
      </span>
      {DUMP_FORMATS.map((format) => (
        <Button key={format} onClick={() => download(format)} aria-disabled={busy !== null}>
          {busy === format ? t("export.preparing", { format: label(format) }) : t("export.download", { format: label(format) })}
        </Button>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t("export.failed", { reason: error })}
        </p>
      )}
    </div>
  );
}
