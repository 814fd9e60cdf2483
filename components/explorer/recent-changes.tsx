"use client";
// The resource's recent writes (the audit trail), for a token that may read it: who wrote, when,
// which action and how many rows. Closed at first; read when opened. The API still decides.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useLocale, useT } from "@/components/i18n/i18n-provider";
import { useScope } from "@/components/token/use-scope";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { recentChangesQuery } from "@/lib/api-client/audit";
import { formatWhen } from "./when";

/** `resourceId`: the resource's own id, which a token's limits name. */
export function RecentChanges({ resourceId }: { resourceId: string }) {
  const { may } = useScope();
  const [open, setOpen] = useState(false);
  const id = useId();
  const t = useT();
  if (!may("datastore_audit_list", resourceId)) return null;
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg border">
      <h2 id={`${id}-heading`} className="m-0">
        <Button
          variant="ghost"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
          className="w-full justify-start rounded-lg px-3 py-2 text-base"
        >
          <span aria-hidden>{open ? "▾" : "▸"}</span> {t("audit.title")}
        </Button>
      </h2>
      <div id={`${id}-body`} hidden={!open} className="border-t p-3">
        {open && <ChangesTable resourceId={resourceId} />}
      </div>
    </section>
  );
}

function ChangesTable({ resourceId }: { resourceId: string }) {
  const { session } = useToken();
  const t = useT();
  const locale = useLocale();
  const { data, isPending, error } = useQuery(recentChangesQuery(session, resourceId));
  const note = "text-sm text-zinc-700 dark:text-zinc-300";
  if (isPending) return <p role="status" className={note}>{t("audit.loading")}</p>;
  if (error) return <p role="alert" className={note}>{t("audit.failed")}</p>;
  if (!data.records.length) return <p className={note}>{t("audit.none")}</p>;
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="mb-2 text-left text-zinc-700 dark:text-zinc-300">{t("audit.caption")}</caption>
      <thead>
        <tr className="border-b">
          {(["audit.when", "audit.token", "audit.action", "audit.rows"] as const).map((k) => (
            <th key={k} scope="col" className="px-2 py-1.5 font-medium">
              {t(k)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.records.map((e) => (
          <tr key={e.id} className="border-b">
            <td className="px-2 py-1.5">
              <time dateTime={e.time}>{formatWhen(e.time, locale)}</time>
            </td>
            <td className="px-2 py-1.5 break-all">{e.token ?? t("audit.noToken")}</td>
            <td className="px-2 py-1.5">
              <code>{e.action}</code>
            </td>
            <td className="px-2 py-1.5 tabular-nums">{e.rows === null ? "" : e.rows.toLocaleString(locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
