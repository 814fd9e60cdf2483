"use client";
// Save view: for tokens that may save views of this resource, a dialog that names the view on screen (Name,
// Description, Private) and saves it (datastore_view_create), then says where it lives.
import { useT } from "@/components/i18n/i18n-provider";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { createPortal } from "react-dom";
import { errorLines } from "@/lib/api-client";
import { createView, viewKeys, type SavedView } from "@/lib/api-client/views";
import type { ViewState } from "@/lib/view-state";
import { useScope } from "@/components/token/use-scope";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";

const INPUT_CLASS = "w-full rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900";

/** `resourceId`: the resource's own id, which a token's limits name (the view's may be an alias). */
export function SaveView({ view, resourceId, resourcePrivate }: { view: ViewState; resourceId: string; resourcePrivate: boolean }) {
  const { may } = useScope();
  const { session } = useToken();
  const client = useQueryClient();
  const baseId = useId();
  const [open, setOpen] = useState(false);
  const t = useT();
  const [draft, setDraft] = useState({ name: "", description: "", private: resourcePrivate });
  const [saved, setSaved] = useState<SavedView | null>(null);
  const save = useMutation({
    mutationFn: () => createView(session, view, { ...draft, name: draft.name.trim() }),
    onSuccess: async (v) => {
      await client.invalidateQueries({ queryKey: viewKeys.all(session) });
      setSaved(v);
      setOpen(false);
    },
  });
  if (!may("datastore_view_create", resourceId)) return null;
  return (
    <>
      <Button
        onClick={() => {
          setDraft({ name: "", description: "", private: resourcePrivate });
          save.reset();
          setOpen(true);
        }}
      >
        {t("save.button")}
      </Button>
      {saved && (
        <span role="status" className="text-sm">
          {t("save.savedAs")} <Link href={`/v/${encodeURIComponent(saved.id)}`} className="underline">{saved.name}</Link>
        </span>
      )}
      {createPortal(
        <Dialog open={open} onClose={() => setOpen(false)} title={t("save.button")}>
          <form
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (!save.isPending) save.mutate();
            }}
          >
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              {t("save.intro")}
            </p>
            <div className="space-y-1">
              <label htmlFor={`${baseId}-name`} className="block text-sm font-medium">
                {t("save.name")}
              </label>
              <input id={`${baseId}-name`} required autoFocus value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} className={INPUT_CLASS} />
            </div>
            <div className="space-y-1">
              <label htmlFor={`${baseId}-description`} className="block text-sm font-medium">
                {t("save.description")}
              </label>
              <textarea id={`${baseId}-description`} rows={3} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} className={INPUT_CLASS} />
            </div>
            <label className="flex items-center gap-2 text-sm font-medium">
              <input type="checkbox" checked={draft.private} onChange={(e) => setDraft({ ...draft, private: e.target.checked })} />
              {t("save.private")}
            </label>
            {save.error && (
              <Notice tone="error" role="alert" title={t("save.notSaved")}>
                {errorLines(save.error).map((line, i) => (
                  <p key={i}>{line}</p>
                ))}
              </Notice>
            )}
            <div className="flex justify-end gap-2 border-t pt-3">
              <Button onClick={() => setOpen(false)}>{t("common.cancel")}</Button>
              <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending}>
                {t("common.save")}
              </Button>
            </div>
          </form>
        </Dialog>,
        document.body,
      )}
    </>
  );
}
