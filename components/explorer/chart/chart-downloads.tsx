"use client";
// Download PNG, SVG and CSV (the numbers) of the chart on screen.
import { useState, type RefObject } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { saveBlob } from "@/lib/api-client";
import { pngBlob, svgBlob } from "./chart-download";

type Format = "png" | "svg" | "csv";

export function ChartDownloads({
  svgRef,
  csv,
  fileName,
}: {
  svgRef: RefObject<SVGSVGElement | null>;
  csv: () => string;
  fileName: (ext: Format) => string;
}) {
  const [error, setError] = useState<string | null>(null);
  const t = useT();

  async function download(format: Format) {
    setError(null);
    try {
      if (format === "csv") {
        saveBlob(new Blob([csv()], { type: "text/csv;charset=utf-8" }), fileName(format));
        return;
      }
      const svg = svgRef.current;
      if (!svg) throw new Error(t("chart.notDrawn"));
      saveBlob(format === "svg" ? svgBlob(svg) : await pngBlob(svg, 2, t), fileName(format));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <div role="group" aria-labelledby="chart-download-label" className="flex flex-wrap items-center gap-2">
      <span id="chart-download-label" className="text-sm font-medium">
        {t("chart.download")}
      </span>
      {(["png", "svg", "csv"] as const).map((f) => (
        <Button key={f} onClick={() => download(f)}>
          {t("export.download", { format: f.toUpperCase() })}
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
