"use client";
// The first rows of the uploaded file with, per column, its field id, type and primary-key
// choice. Labels name the column as the file does ("Type of zip"); never "name", which the
// form below uses.
import { useT } from "@/components/i18n/i18n-provider";
import type { UploadPreview as Preview } from "@/lib/api-client/upload";
import { truncate, valueText } from "@/components/explorer/format";
import { typeOptions, type ColumnDraft } from "./upload-draft";

const control =
  "w-full min-w-24 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm font-normal dark:border-zinc-600 dark:bg-zinc-900";

export function UploadPreview({
  preview,
  columns,
  onChange,
  showTypes,
}: {
  preview: Preview;
  columns: ColumnDraft[];
  onChange: (columns: ColumnDraft[]) => void;
  /** Hidden when appending: the resource's own types apply. */
  showTypes: boolean;
}) {
  const t = useT();
  const change = (i: number, patch: Partial<ColumnDraft>) => onChange(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div className="space-y-2">
      <div className="max-h-96 overflow-auto rounded-md border border-zinc-300 dark:border-zinc-600">
        <table className="min-w-full border-collapse text-sm">
          <caption className="sr-only">{t("upload.previewOf", { file: preview.filename })}</caption>
          <thead className="bg-zinc-50 dark:bg-zinc-800">
            <tr>
              {columns.map((c, i) => (
                <th key={c.from} scope="col" className="space-y-1 border-b border-zinc-300 p-2 text-left align-top dark:border-zinc-600">
                  <div className="font-semibold break-all">{c.from}</div>
                  <input
                    aria-label={t("upload.fieldIdFor", { column: c.from })}
                    value={c.id}
                    onChange={(e) => change(i, { id: e.target.value })}
                    className={control}
                  />
                  {showTypes && (
                    <select aria-label={t("upload.typeOf", { column: c.from })} value={c.type} onChange={(e) => change(i, { type: e.target.value })} className={control}>
                      {typeOptions(preview.columns[i]?.type ?? c.type).map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  )}
                  {showTypes && (
                    <label className="flex items-center gap-1.5 text-xs font-normal">
                      <input type="checkbox" aria-label={t("upload.keyOf", { column: c.from })} checked={c.key} onChange={(e) => change(i, { key: e.target.checked })} />
                      {t("upload.key")}
                    </label>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.records.map((row, r) => (
              <tr key={r} className="border-b border-zinc-200 last:border-0 dark:border-zinc-700">
                {columns.map((c, i) => (
                  <td key={c.from} className="max-w-64 p-2 align-top break-words whitespace-pre-wrap">
                    {truncate(valueText(row[i])).text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {t("upload.firstRows", {
          rows: t("count.rows", { count: preview.records.length }),
          file: preview.filename,
          sampled: t("count.rows", { count: preview.sampled_rows }),
        })}
      </p>
      {preview.notes.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5 text-xs text-zinc-600 dark:text-zinc-400">
          {preview.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
