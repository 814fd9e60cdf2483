"use client";
// "Add record" in the records toolbar: for a token that may upsert into a resource with a primary key, the
// record form, empty, sent with datastore_upsert's method insert. On success the dialog closes
// and the refetched table holds the new row.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorLines, type DatastoreField, type DatastoreRecord } from "@/lib/api-client";
import { upsertRecords } from "@/lib/api-client/records";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { useScope } from "@/components/token/use-scope";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useRefreshAfterWrite } from "./record-edit";
import { RecordForm } from "./record-form";
import { usePrimaryKey } from "./use-primary-key";

export function AddRecord({ resourceId, fields }: { resourceId: string; fields: DatastoreField[] }) {
  const { session } = useToken();
  const { may } = useScope();
  const key = usePrimaryKey(resourceId);
  const [open, setOpen] = useState(false);
  const t = useT();
  const refresh = useRefreshAfterWrite();
  const add = useMutation({
    mutationFn: (record: DatastoreRecord) => upsertRecords(session, key?.resourceId ?? resourceId, "insert", [record]),
    onSuccess: async () => {
      await refresh();
      setOpen(false);
    },
  });
  if (!key?.fields.length || !may("datastore_upsert", key.resourceId)) return null;

  const close = () => {
    setOpen(false);
    add.reset();
  };
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t("record.add")}</Button>
      <Dialog open={open} onClose={close} title={t("record.add")}>
        <RecordForm
          fields={fields}
          original={null}
          keys={key.fields}
          errors={add.error ? errorLines(add.error) : null}
          pending={add.isPending}
          onSubmit={(record) => add.mutate(record)}
          onCancel={close}
        />
      </Dialog>
    </>
  );
}
