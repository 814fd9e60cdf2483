"use client";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { english, type Translate } from "@/lib/i18n";
import { useT } from "@/components/i18n/i18n-provider";
import { formatCount, totalText } from "./format";

/** "101–200 of 1,234,567", or "1–100 of about 13,100" when the server only estimated the total. */
export function rangeText(offset: number, shown: number, total: number | undefined, estimated: boolean, t: Translate = english): string {
  if (shown === 0) return total === undefined ? t("pager.noRecords") : t("pager.rangeOf", { range: "0", total: totalText(total, estimated, t) });
  const range = `${formatCount(offset + 1, t.locale)}–${formatCount(offset + shown, t.locale)}`;
  if (total === undefined) return range;
  return t("pager.rangeOf", { range, total: totalText(total, estimated, t) });
}


export function Pager({
  offset,
  limit,
  shown,
  total,
  estimated,
  onOffset,
}: {
  offset: number;
  limit: number;
  shown: number;
  total: number | undefined;
  estimated: boolean;
  onOffset: (offset: number) => void;
}) {
  // An estimate may be short of the real total: a full page then says there may be more.
  const hasNext = total !== undefined && !estimated ? offset + shown < total : shown === limit;
  const last = total !== undefined && total > 0 ? Math.floor((total - 1) / limit) * limit : null;
  const t = useT();
  return (
    <nav aria-label={t("pager.label")} className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <p className="text-sm tabular-nums" aria-live="polite">
        {rangeText(offset, shown, total, estimated, t)}
      </p>
      <div className="flex gap-1">
        <PageButton label={t("pager.first")} enabled={offset > 0} onClick={() => onOffset(0)} />
        <PageButton label={t("pager.previous")} enabled={offset > 0} onClick={() => onOffset(Math.max(0, offset - limit))} />
        <PageButton label={t("pager.next")} enabled={hasNext} onClick={() => onOffset(offset + limit)} />
        {last !== null &&
          (estimated ? (
            // Last is off under an estimated total: its page would be a guess, and sorting the other
            // way shows the last records at once (deep offsets are slow besides)
            <PageButton label={t("pager.last")} enabled={false} reason={t("pager.lastUnknown")} />
          ) : (
            <PageButton label={t("pager.last")} enabled={offset < last} onClick={() => onOffset(last)} />
          ))}
      </div>
    </nav>
  );
}

/** aria-disabled rather than disabled, so focus stays on the button at the first or last page. */
function PageButton({ label, enabled, reason, onClick }: { label: string; enabled: boolean; reason?: string; onClick?: () => void }) {
  const reasonId = useId();
  return (
    <>
      <Button
        variant="ghost"
        aria-disabled={!enabled}
        aria-describedby={reason ? reasonId : undefined}
        title={reason}
        onClick={() => enabled && onClick?.()}
        className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
      >
        {label}
      </Button>
      {reason && (
        <span id={reasonId} className="sr-only">
          {reason}
        </span>
      )}
    </>
  );
}
