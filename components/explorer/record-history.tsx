"use client";
// The record view's History: each kept version of the record, newest first, with when, by which
// token and each changed field as old → new (datastore_record_history), read when opened. A
// version also opens the whole table as of then.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { recordHistoryQuery, type DatastoreField } from "@/lib/api-client";
import { useLocale, useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { CellValue } from "./cell-value";
import { fieldLabel } from "./field-match";
import { historyLines, newestFirst } from "./history-lines";
import { formatWhen } from "./when";

export function RecordHistory({
  resourceId,
  recordId,
  fields,
  onShowAsOf,
}: {
  resourceId: string;
  recordId: number;
  /** The resource's fields, for their order and labels. */
  fields: DatastoreField[];
  onShowAsOf: (version: number) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  const { session, ready } = useToken();
  const [open, setOpen] = useState(false);
  const history = useQuery({ ...recordHistoryQuery(session, resourceId, recordId), enabled: ready && open });
  const byId = new Map(fields.map((f) => [f.id, f]));
  const order = fields.map((f) => f.id);
  const fieldOf = (fid: string): DatastoreField => byId.get(fid) ?? { id: fid, type: "text" };

  return (
    <section aria-labelledby={`${id}-title`} className="mt-4 border-t pt-3">
      <h3 id={`${id}-title`}>
        <Button variant="ghost" aria-expanded={open} aria-controls={`${id}-list`} onClick={() => setOpen(!open)}>
          <span aria-hidden>{open ? "▾" : "▸"}</span>
          {t("history.record.title")}
        </Button>
      </h3>
      {open && (
        <div id={`${id}-list`} className="mt-2 space-y-3 text-sm">
          {history.isLoading && <p role="status">{t("history.record.loading")}</p>}
          {history.error && <p role="alert">{t("history.record.failed", { message: history.error.message })}</p>}
          {history.data && history.data.versions.length === 0 && <p>{t("history.record.none")}</p>}
          {history.data && history.data.versions.length > 0 && (
            <ol className="space-y-3">
              {newestFirst(history.data.versions).map((v) => (
                <li key={v.version} className="rounded-md border p-2">
                  <p className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-medium">{t(`history.kind.${v.kind}`)}</span>
                    <span>{t("history.record.version", { version: String(v.version) })}</span>
                    {v.time && (
                      <time dateTime={v.time} className="text-zinc-700 dark:text-zinc-300">
                        {formatWhen(v.time, locale)}
                      </time>
                    )}
                    <span className="text-zinc-700 dark:text-zinc-300">
                      {v.token ? t("history.record.by", { token: v.token }) : t("history.record.byNone")}
                    </span>
                  </p>
                  {historyLines(v, order).length > 0 && (
                    <dl className="mt-1 grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 gap-y-1">
                      {historyLines(v, order).map((line) => (
                        <div key={line.field} className="contents">
                          <dt className="font-medium break-words">{fieldLabel(fieldOf(line.field)) ?? line.field}</dt>
                          <dd className="flex min-w-0 flex-wrap items-center gap-1">
                            {line.hasOld && (
                              <>
                                <del className="text-zinc-600 dark:text-zinc-400">
                                  <CellValue value={line.old} field={fieldOf(line.field)} locale={locale} />
                                </del>
                                <span aria-hidden>→</span>
                                <span className="sr-only">{t("history.record.to")}</span>
                              </>
                            )}
                            <ins className="no-underline">
                              <CellValue value={line.new} field={fieldOf(line.field)} locale={locale} />
                            </ins>
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                  <Button variant="ghost" className="mt-1 underline" onClick={() => onShowAsOf(v.version)}>
                    {t("history.record.asOf", { version: String(v.version) })}
                  </Button>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
