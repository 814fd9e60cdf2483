"use client";
// The import's details: where the rows go (a new resource, or append to or replace one), and a
// new resource's Name, Description and Private flag.
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { resourcesQuery } from "@/lib/api-client";
import { useToken } from "@/components/token/token-provider";
import { useScope } from "@/components/token/use-scope";
import { resourceLabel } from "@/components/explorer/format";
import { importAction, importModes, type UploadDraft } from "./upload-draft";

const input = "w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900";

export function UploadForm({ draft, onChange }: { draft: UploadDraft; onChange: (draft: UploadDraft) => void }) {
  const id = useId();
  const t = useT();
  const { session, ready } = useToken();
  const { may, maySomewhere } = useScope();
  const resources = useQuery({ ...resourcesQuery(session), enabled: ready && draft.mode !== "new" });
  const set = (patch: Partial<UploadDraft>) => onChange({ ...draft, ...patch });
  // only the resources this token may import into in this mode
  const choices = [...(resources.data?.results ?? [])].filter((r) => may(importAction(draft.mode), r.id)).sort((a, b) => resourceLabel(a).localeCompare(resourceLabel(b)));

  return (
    <div className="space-y-3">
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">{t("upload.importInto")}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {importModes(may, maySomewhere).map((mode) => (
            <label key={mode} className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={`${id}-mode`} checked={draft.mode === mode} onChange={() => set({ mode })} />
              {t(`upload.mode.${mode}`)}
            </label>
          ))}
        </div>
      </fieldset>

      {draft.mode === "new" ? (
        <>
          <div className="space-y-1">
            <label htmlFor={`${id}-name`} className="block text-sm font-medium">
              {t("save.name")}
            </label>
            <input id={`${id}-name`} value={draft.name} onChange={(e) => set({ name: e.target.value })} className={input} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-description`} className="block text-sm font-medium">
              {t("save.description")}
            </label>
            <textarea id={`${id}-description`} rows={2} value={draft.description} onChange={(e) => set({ description: e.target.value })} className={input} />
          </div>
          <label className="flex items-center gap-1.5 text-sm">
            <input type="checkbox" checked={draft.private} onChange={(e) => set({ private: e.target.checked })} />
            {t("upload.private")}
          </label>
        </>
      ) : (
        <div className="space-y-1">
          <label htmlFor={`${id}-target`} className="block text-sm font-medium">
            {t("upload.target")}
          </label>
          <select id={`${id}-target`} value={draft.target} onChange={(e) => set({ target: e.target.value })} className={input}>
            <option value="">{resources.isLoading ? t("upload.loading") : t("upload.choose")}</option>
            {choices.map((r) => (
              <option key={r.id} value={r.id}>
                {resourceLabel(r)}
              </option>
            ))}
          </select>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {draft.mode === "append"
              ? t("upload.appendHint")
              : t("upload.replaceHint")}
          </p>
        </div>
      )}
    </div>
  );
}
