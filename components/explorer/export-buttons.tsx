"use client";
// Download: every matching row (not just this page) through the dump endpoint, with the token,
// in the format asked for (CSV, Excel, JSON, NDJSON, GeoJSON, Parquet).
import { useState } from "react";
import { downloadDump, explainError } from "@/lib/api-client";
import { DUMP_FORMATS, dumpPath, type DumpFormat, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";

const LABELS: Record<DumpFormat, string> = {
  csv: "CSV",
  xlsx: "Excel (XLSX)",
  json: "JSON",
  ndjson: "NDJSON",
  geojson: "GeoJSON",
  parquet: "Parquet",
};

export function ExportButtons({ view, filename }: { view: ViewState; filename: string }) {
  const { session } = useToken();
  const [busy, setBusy] = useState<DumpFormat | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: DumpFormat) {
    if (busy) return;
    setBusy(format);
    setError(null);
    try {
      await downloadDump(dumpPath(view, format), `${filename}.${format}`, session);
    } catch (e) {
      setError(explainError(e, "this resource").title);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-labelledby="export-label">
      <span id="export-label" className="text-sm font-medium">
        Download all matching rows
      </span>
      {DUMP_FORMATS.map((format) => (
        <Button key={format} onClick={() => download(format)} aria-disabled={busy !== null}>
          {busy === format ? `Preparing ${LABELS[format]}…` : `Download ${LABELS[format]}`}
        </Button>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          Export failed: {error}
        </p>
      )}
    </div>
  );
}
