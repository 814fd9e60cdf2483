"use client";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { formatCount, totalText } from "./format";

/** "101–200 of 1,234,567", or "1–100 of about 13,100" when the server only estimated the total. */
export function rangeText(offset: number, shown: number, total: number | undefined, estimated: boolean): string {
  if (shown === 0) return total === undefined ? "No records" : `0 of ${totalText(total, estimated)}`;
  const range = `${formatCount(offset + 1)}–${formatCount(offset + shown)}`;
  if (total === undefined) return range;
  return `${range} of ${totalText(total, estimated)}`;
}

/** Why Last is off under an estimated total: its page would be a guess, and sorting the other
 *  way shows the last records at once (deep offsets are slow besides). */
export const LAST_PAGE_UNKNOWN = "The total is an estimate, so the last page is not known: sort the other way to see the last records";

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
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <p className="text-sm tabular-nums" aria-live="polite">
        {rangeText(offset, shown, total, estimated)}
      </p>
      <div className="flex gap-1">
        <PageButton label="First" enabled={offset > 0} onClick={() => onOffset(0)} />
        <PageButton label="Previous" enabled={offset > 0} onClick={() => onOffset(Math.max(0, offset - limit))} />
        <PageButton label="Next" enabled={hasNext} onClick={() => onOffset(offset + limit)} />
        {last !== null &&
          (estimated ? (
            <PageButton label="Last" enabled={false} reason={LAST_PAGE_UNKNOWN} />
          ) : (
            <PageButton label="Last" enabled={offset < last} onClick={() => onOffset(last)} />
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
