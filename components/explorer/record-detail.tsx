"use client";
// Every field of one record, values in full and as stored (JSON pretty-printed), each field
// named by its data dictionary label with its id, type in words and notes. Loads the whole
// record by `_id` when the table shows only some columns, or when a link opened it, as of the
// view's `as_of`. A token that may upsert or delete its rows may edit or delete it when the resource
// has a primary key and the view shows the current data. Its History lists its versions.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { searchQuery, type DatastoreField, type DatastoreRecord } from "@/lib/api-client";
import type { AsOf } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { useScope } from "@/components/token/use-scope";
import { Dialog } from "@/components/ui/dialog";
import { NullMark } from "./cell-value";
import { fieldLabel } from "./field-match";
import { fieldNotes, formatFieldValue, typeInWords } from "./format";
import { DeleteRecord, EditRecord, RecordActions } from "./record-edit";
import { RecordHistory } from "./record-history";
import { usePrimaryKey } from "./use-primary-key";
import { useLocale } from "./use-locale";

function EmptyText() {
  const t = useT();
  return <span className="text-xs text-zinc-600 italic dark:text-zinc-400">{t("values.emptyText")}</span>;
}

function FullValue({ value, field, locale }: { value: unknown; field: DatastoreField; locale: string }) {
  if (value === null || value === undefined) return <NullMark />;
  if (value === "") return <EmptyText />;
  if (typeof value === "object")
    return <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{JSON.stringify(value, null, 2)}</pre>;
  const raw = String(value);
  const formatted = formatFieldValue(value, field, locale);
  return (
    <>
      <span className="break-words whitespace-pre-wrap">{raw}</span>
      {formatted !== null && formatted !== raw && (
        <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400">({formatted})</span>
      )}
    </>
  );
}

function FieldName({ field }: { field: DatastoreField }) {
  const label = fieldLabel(field);
  const notes = fieldNotes(field);
  const t = useT();
  return (
    <>
      <span className="block">{label ?? field.id}</span>
      <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">
        {label && <>{field.id} · </>}
        {field.id === "_id" ? t("record.number") : typeInWords(field.type, t)}
      </span>
      {notes && <span className="mt-0.5 block text-xs font-normal text-zinc-700 dark:text-zinc-300">{notes}</span>}
    </>
  );
}

export function RecordDetail({
  resourceId,
  recordId,
  loaded,
  fields,
  allFields,
  asOf,
  onShowAsOf,
  onClose,
}: {
  resourceId: string;
  /** The `_id` of the record to show (from the URL's `record=`), or null: closed. */
  recordId: number | null;
  /** The record as the current page holds it, when it does. */
  loaded: DatastoreRecord | undefined;
  /** The fields of the loaded row. */
  fields: DatastoreField[];
  /** Every field of the resource (from datastore_info), when known. */
  allFields: DatastoreField[] | undefined;
  /** The view's `as_of`: the record as it was then, not editable. */
  asOf: AsOf | null;
  /** Shows the table as of one of the record's versions. */
  onShowAsOf: (version: number) => void;
  onClose: () => void;
}) {
  const t = useT();
  const { session, ready } = useToken();
  const locale = useLocale();
  const id = recordId;
  // a shared link, or a page showing only some columns: read the whole record by `_id`
  const partial = !loaded || Boolean(allFields && allFields.some((f) => !(f.id in loaded)));
  const full = useQuery({
    ...searchQuery(session, { resource_id: resourceId, ...(asOf !== null ? { as_of: asOf } : {}), filters: { _id: id as number }, limit: 1 }),
    placeholderData: undefined,
    enabled: ready && partial && typeof id === "number",
  });
  const shownRecord = (partial && full.data?.records[0]) || loaded || null;
  const shownFields = partial && full.data ? full.data.fields : allFields && !partial ? [{ id: "_id", type: "int" }, ...allFields] : fields;
  const missing = partial && full.data && full.data.records.length === 0;

  const { may } = useScope();
  const key = usePrimaryKey(resourceId);
  const canEdit = Boolean(key && may("datastore_upsert", key.resourceId));
  const canDelete = Boolean(key && may("datastore_records_delete", key.resourceId));
  const canWrite = canEdit || canDelete;
  // `from`: the step we came back from, whose button gets the focus again
  const [step, setStep] = useState<{ mode: "view" | "edit" | "delete"; from: "edit" | "delete" | null }>({ mode: "view", from: null });
  const [stepFor, setStepFor] = useState(id);
  if (stepFor !== id) {
    setStepFor(id);
    setStep({ mode: "view", from: null });
  }
  const back = () => setStep((s) => ({ mode: "view", from: s.mode === "view" ? null : s.mode }));
  // edit only the whole record, as stored, and only what the key can name
  const complete = shownRecord && (!partial || full.data?.records[0]) ? shownRecord : null;
  // an edit changes the current data, never the past on screen
  const writable =
    canWrite && asOf === null && key && key.fields.length > 0 && complete && allFields ? { resourceId: key.resourceId, record: complete, keys: key.fields, fields: allFields } : null;

  return (
    <Dialog side open={id !== null} onClose={onClose} title={typeof id === "number" ? t("map.table.record", { id: String(id) }) : t("record.title")}>
      {writable && canEdit && step.mode === "edit" ? (
        <EditRecord resourceId={writable.resourceId} record={writable.record} fields={writable.fields} keys={writable.keys} onDone={back} />
      ) : (
        <>
          {writable && step.mode === "view" && (
            <RecordActions
              focus={step.from}
              onEdit={canEdit ? () => setStep({ mode: "edit", from: null }) : null}
              onDelete={canDelete ? () => setStep({ mode: "delete", from: null }) : null}
            />
          )}
          {writable && canDelete && step.mode === "delete" && (
            <DeleteRecord resourceId={writable.resourceId} record={writable.record} keys={writable.keys} onCancel={back} onDeleted={onClose} />
          )}
          {canWrite && asOf !== null && shownRecord && <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">{t("history.record.readOnly")}</p>}
          {canWrite && asOf === null && key?.fields.length === 0 && shownRecord && (
            <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">{t("record.needsKey")}</p>
          )}
          {shownRecord && (
            <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {shownFields
                .filter((f) => f.id in shownRecord)
                .map((f) => (
                  <div key={f.id} className="grid gap-1 py-2 sm:grid-cols-[11rem_1fr] sm:gap-3">
                    <dt className="text-sm font-medium break-words">
                      <FieldName field={f} />
                    </dt>
                    <dd className="min-w-0 text-sm">
                      <FullValue value={shownRecord[f.id]} field={f} locale={locale} />
                    </dd>
                  </div>
                ))}
            </dl>
          )}
        </>
      )}
      {partial && full.isLoading && <p className="mt-2 text-sm">{loaded ? t("record.loadingOthers") : t("record.loading")}</p>}
      {missing && <p className="p-4 text-sm">{t("record.missing", { id: String(id) })}</p>}
      {full.error && <p className="p-4 text-sm">{t("record.unreadable", { reason: full.error.message })}</p>}
      {typeof id === "number" && step.mode === "view" && (
        <RecordHistory resourceId={resourceId} recordId={id} fields={allFields ?? []} onShowAsOf={onShowAsOf} />
      )}
    </Dialog>
  );
}
