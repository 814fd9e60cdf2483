"use client";
// "File": a file input inside a zone that also takes a dropped file. The file is handed on as a
// File, which the browser streams from disk when sent: it is never read here.
import { useT } from "@/components/i18n/i18n-provider";
import { useId, useState } from "react";

export const UPLOAD_ACCEPT = ".csv,.tsv,.tab,.txt,.json,.ndjson,.jsonl,.xlsx,.parquet,.pq";

export function UploadFileInput({ onFile }: { onFile: (file: File) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const t = useT();
  return (
    <div
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
      className={`space-y-2 rounded-lg border-2 border-dashed p-6 text-center ${
        over ? "border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-blue-950/40" : "border-zinc-300 dark:border-zinc-600"
      }`}
    >
      <label htmlFor={id} className="block text-sm font-medium">
        {t("upload.file")}
      </label>
      <input
        id={id}
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) onFile(file);
        }}
        className="mx-auto block max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-100 dark:file:border-zinc-600 dark:file:bg-zinc-900 dark:file:text-zinc-100"
      />
      <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
        {t("upload.drop")}
      </p>
    </div>
  );
}
