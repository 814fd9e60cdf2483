"use client";
// One progress bar for both halves of an upload: bytes sent, then rows imported.
import { useT } from "@/components/i18n/i18n-provider";

export function UploadProgress({ percent, text }: { percent: number | null; text: string }) {
  const t = useT();
  const now = percent === null ? undefined : Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={t("upload.progress")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={now}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
      >
        <div
          className={`h-full rounded-full bg-blue-700 transition-[width] dark:bg-blue-400 ${now === undefined ? "w-1/3 animate-pulse" : ""}`}
          style={now === undefined ? undefined : { width: `${now}%` }}
        />
      </div>
      <p className="text-sm text-zinc-700 tabular-nums dark:text-zinc-300">{text}</p>
    </div>
  );
}
