"use client";
// The second step of "Delete resource": says what goes (the name and its records), then
// resource_delete. The deleted resource's queries are dropped, not refetched into a 404.
import { useT } from "@/components/i18n/i18n-provider";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorLines, infoQuery, type Resource } from "@/lib/api-client";
import { deleteResource, readsResource } from "@/lib/api-client/details";
import { formatCount, resourceLabel } from "@/components/explorer/format";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function ConfirmDelete({ resource, onCancel, onDeleted }: { resource: Resource; onCancel: () => void; onDeleted: () => void }) {
  const t = useT();
  const { session, ready } = useToken();
  const queryClient = useQueryClient();
  // the count as the table has it now (the resource list may be a little older)
  const info = useQuery({ ...infoQuery(session, resource.id), enabled: ready && resource.datastore_active !== false });
  const records = info.data?.meta.count ?? resource.row_count ?? 0;

  const remove = useMutation({
    mutationFn: () => deleteResource(resource.id, session),
    onSuccess: () => {
      const names = new Set([resource.id, ...(resource.aliases ?? [])]);
      queryClient.removeQueries({ queryKey: ["datastore"], predicate: (q) => readsResource(q.queryKey, names) });
      onDeleted();
      void queryClient.invalidateQueries({ queryKey: ["datastore"] });
    },
  });

  return (
    <div className="space-y-4">
      <p>
        {t("details.deleteConfirm", { name: resourceLabel(resource), records: t("count.records", { count: records, total: formatCount(records, t.locale) }) })}
      </p>
      {remove.error && (
        <Notice tone="error" role="alert" title={t("record.notDeleted")}>
          {errorLines(remove.error).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </Notice>
      )}
      <div className="flex justify-end gap-2">
        <Button autoFocus onClick={onCancel}>
          {t("common.cancel")}
        </Button>
        <Button variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending} aria-busy={remove.isPending}>
          {t("common.delete")}
        </Button>
      </div>
    </div>
  );
}
