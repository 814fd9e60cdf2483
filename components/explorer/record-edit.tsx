"use client";
// Changing the record the record view shows: "Edit record" (datastore_upsert, method update, by
// its key) and "Delete record" (datastore_records_delete by its key, after asking). After a
// write every datastore query is refetched, so the table, the counts and this view show it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorLines, type DatastoreField, type DatastoreRecord } from "@/lib/api-client";
import { deleteRecords, upsertRecords } from "@/lib/api-client/records";
import { useToken } from "@/components/token/token-provider";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { RecordForm } from "./record-form";

/** Refetches everything read from the datastore, for the session in use or any other. */
export function useRefreshAfterWrite() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["datastore"] });
}

/** Edit and Delete; null leaves one out (a token that may not do it). */
export function RecordActions({ focus, onEdit, onDelete }: { focus: "edit" | "delete" | null; onEdit: (() => void) | null; onDelete: (() => void) | null }) {
  const t = useT();
  return (
    <div className="mb-3 flex flex-wrap gap-2">
      {onEdit && (
        <Button onClick={onEdit} autoFocus={focus === "edit"}>
          {t("record.edit")}
        </Button>
      )}
      {onDelete && (
        <Button variant="danger" onClick={onDelete} autoFocus={focus === "delete"}>
          {t("record.delete")}
        </Button>
      )}
    </div>
  );
}

export function EditRecord({
  resourceId,
  record,
  fields,
  keys,
  onDone,
}: {
  resourceId: string;
  record: DatastoreRecord;
  fields: DatastoreField[];
  keys: string[];
  onDone: () => void;
}) {
  const { session } = useToken();
  const refresh = useRefreshAfterWrite();
  const save = useMutation({
    mutationFn: (changes: DatastoreRecord) => upsertRecords(session, resourceId, "update", [changes]),
    // back to the view once the new values are read, not before
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <RecordForm
      fields={fields}
      original={record}
      keys={keys}
      errors={save.error ? errorLines(save.error) : null}
      pending={save.isPending}
      onSubmit={(changes, changed) => (changed ? save.mutate(changes) : onDone())}
      onCancel={onDone}
    />
  );
}

export function DeleteRecord({
  resourceId,
  record,
  keys,
  onCancel,
  onDeleted,
}: {
  resourceId: string;
  record: DatastoreRecord;
  keys: string[];
  onCancel: () => void;
  onDeleted: () => void;
}) {
  const { session } = useToken();
  const refresh = useRefreshAfterWrite();
  const t = useT();
  const remove = useMutation({
    mutationFn: () => deleteRecords(session, resourceId, Object.fromEntries(keys.map((k) => [k, record[k]]))),
    // close first: refetched while open, the view would say the record is gone
    onSuccess: () => {
      onDeleted();
      void refresh();
    },
  });
  return (
    <div className="mb-3 space-y-2 rounded-md border border-red-300 p-3 dark:border-red-800">
      <p className="text-sm font-medium">{t("record.deleteConfirm")}</p>
      {remove.error && (
        <Notice tone="error" role="alert" title={t("record.notDeleted")}>
          {errorLines(remove.error).map((m, i) => (
            <p key={i}>{m}</p>
          ))}
        </Notice>
      )}
      <div className="flex gap-2">
        <Button variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
          {remove.isPending ? t("record.deleting") : t("common.delete")}
        </Button>
        <Button onClick={onCancel} autoFocus disabled={remove.isPending}>
          {t("common.cancel")}
        </Button>
      </div>
    </div>
  );
}
