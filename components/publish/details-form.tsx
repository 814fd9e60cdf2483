"use client";
// The Edit details form: the resource's Name, Description and Private flag first, then the data
// dictionary, one group per field with its Label and Description (all on one screen: a field's
// Label is one step from "Edit details"). Save sends only what changed (resource_patch, then
// datastore_create with the changed fields' info) and, once the page has read it back, closes.
import { useT } from "@/components/i18n/i18n-provider";
import { useMutation } from "@tanstack/react-query";
import { useId } from "react";
import { errorLines, type DatastoreField, type Resource } from "@/lib/api-client";
import { detailsChanges, patchResource, setFieldInfo, type DetailsDraft } from "@/lib/api-client/details";
import { useRefreshAfterWrite } from "@/components/explorer/record-edit";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { DictionaryFields, INPUT_CLASS } from "./dictionary-fields";

export function DetailsForm({
  resource,
  fields,
  draft,
  setDraft,
  onDone,
  onDelete,
  dictionary,
}: {
  resource: Resource;
  fields: DatastoreField[];
  /** Held by the dialog, so a "Delete resource" that is cancelled keeps what was typed. */
  draft: DetailsDraft;
  setDraft: (draft: DetailsDraft) => void;
  onDone: () => void;
  /** Null: the token may not delete the resource. */
  onDelete: (() => void) | null;
  /** Whether the token may change the data dictionary (datastore_create). */
  dictionary: boolean;
}) {
  const { session } = useToken();
  const baseId = useId();
  const t = useT();
  const refresh = useRefreshAfterWrite();

  const save = useMutation({
    mutationFn: async () => {
      const { patch, dictionary } = detailsChanges(resource, fields, draft);
      const patched = Object.keys(patch).length > 0;
      if (patched) await patchResource(resource.id, patch, session);
      try {
        if (dictionary.length) await setFieldInfo(resource.id, dictionary, session);
      } catch (e) {
        // the details went in before the dictionary was refused: show them as they now are
        if (patched) void refresh();
        throw e;
      }
      return patched || dictionary.length > 0;
    },
    // close once the page shows the change (title, badge, column headers), not before
    onSuccess: async (changed) => {
      if (changed) await refresh();
      onDone();
    },
  });

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!save.isPending) save.mutate();
      }}
    >
      <div className="space-y-1">
        <label htmlFor={`${baseId}-name`} className="block text-sm font-medium">
          {t("save.name")}
        </label>
        <input id={`${baseId}-name`} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} className={INPUT_CLASS} />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${baseId}-description`} className="block text-sm font-medium">
          {t("save.description")}
        </label>
        <textarea
          id={`${baseId}-description`}
          rows={3}
          value={draft.description}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
          className={INPUT_CLASS}
        />
      </div>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={draft.private} onChange={(e) => setDraft({ ...draft, private: e.target.checked })} />
        {t("upload.private")}
      </label>
      {dictionary && (
        <DictionaryFields
          fields={fields}
          entries={draft.dictionary}
          onChange={(id, entry) => setDraft({ ...draft, dictionary: { ...draft.dictionary, [id]: entry } })}
        />
      )}

      {save.error && (
        <Notice tone="error" role="alert" title={t("save.notSaved")}>
          {errorLines(save.error).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </Notice>
      )}

      <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        {onDelete ? (
          <Button variant="danger" onClick={onDelete} disabled={save.isPending}>
            {t("details.deleteResource")}
          </Button>
        ) : (
          <span />
        )}
        <span className="flex gap-2">
          <Button onClick={onDone}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending}>
            {t("common.save")}
          </Button>
        </span>
      </div>
    </form>
  );
}
