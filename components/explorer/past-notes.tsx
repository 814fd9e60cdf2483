"use client";
// Where a view of the past meets an action that reads only the current data: a tab says it
// cannot show the table as it was (rather than show today's figures as past ones), and a
// filter's suggestions say they are counted in the current data.
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function PastUnavailable({ tab, onTable, onCurrent }: { tab: string; onTable: () => void; onCurrent: () => void }) {
  const t = useT();
  return (
    <Notice title={t("history.tab.unavailable", { tab })} role="status">
      <p>{t("history.tab.unavailableBody")}</p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={onTable}>{t("history.tab.showTable")}</Button>
        <Button onClick={onCurrent}>{t("history.banner.current")}</Button>
      </div>
    </Notice>
  );
}

export function CurrentDataNote() {
  const t = useT();
  return <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{t("history.current.note")}</p>;
}
