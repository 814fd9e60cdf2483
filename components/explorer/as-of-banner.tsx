"use client";
// Above the tabs while the view shows the table as it was: when (the time and version the search
// read), how many rows differ from the current data (datastore_changes since that version,
// limit 0), that records are not editable here, and the way back to the current data.
import { useQuery } from "@tanstack/react-query";
import { changesSinceQuery } from "@/lib/api-client";
import type { AsOf } from "@/lib/view-state";
import { useLocale, useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { formatWhen } from "./when";

type Read = { version: number; time: string | null } | undefined;

/** "Shown as of <time>, version N" (the moment as asked until the search says which version). */
function useAsOfTitle(asOf: AsOf, read: Read): string {
  const t = useT();
  const locale = useLocale();
  return read?.time
    ? t("history.banner.title", { time: formatWhen(read.time, locale), version: String(read.version) })
    : t("history.banner.titleRaw", { asOf: typeof asOf === "string" ? formatWhen(asOf, locale) : String(asOf) });
}

/** The embed's mark of a view of the past: the moment alone (its frame has no room for more). */
export function AsOfLine({ asOf, read }: { asOf: AsOf; read: Read }) {
  return (
    <p role="status" className="text-sm font-semibold text-amber-900 dark:text-amber-200">
      {useAsOfTitle(asOf, read)}
    </p>
  );
}

export function AsOfBanner({
  resourceId,
  asOf,
  read,
  onCurrent,
}: {
  resourceId: string;
  asOf: AsOf;
  /** The version the search read and its time, once it answered. */
  read: Read;
  onCurrent: () => void;
}) {
  const t = useT();
  const title = useAsOfTitle(asOf, read);
  const { session, ready } = useToken();
  const changes = useQuery({ ...changesSinceQuery(session, resourceId, read?.version ?? 0), enabled: ready && read !== undefined });
  const differ = changes.data?.records_changed;
  return (
    <section
      aria-label={t("history.banner.label")}
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <div role="status" className="space-y-1 text-sm">
        <p className="font-semibold">{title}</p>
        {read && (
          <p>
            {differ === undefined ? (changes.isFetching ? t("history.banner.checking") : null) : differ > 0 ? t("history.banner.differ", { count: differ }) : t("history.banner.same")}{" "}
            {t("history.banner.readOnly")}
          </p>
        )}
      </div>
      <Button variant="primary" onClick={onCurrent}>
        {t("history.banner.current")}
      </Button>
    </section>
  );
}
