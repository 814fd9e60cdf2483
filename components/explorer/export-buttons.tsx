"use client";
// Export every matching row (not just this page) through the dump endpoint, with the token.
import { useState } from "react";
import { downloadDump, explainError } from "@/lib/api-client";
import { dumpPath, type DumpFormat, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";

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
        Export all matching rows
      </span>
      {(["csv", "json"] as const).map((format) => (
        <Button key={format} onClick={() => download(format)} aria-disabled={busy !== null}>
          {busy === format ? `Preparing ${format.toUpperCase()}…` : `Download ${format.toUpperCase()}`}
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
