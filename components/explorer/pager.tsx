"use client";
import { Button } from "@/components/ui/button";
import { formatCount } from "./format";

/** "101–200 of 1,234,567", with "about" when the server only estimated the total. */
export function rangeText(offset: number, shown: number, total: number | undefined, estimated: boolean): string {
  if (shown === 0) return total === undefined ? "No records" : `0 of ${estimated ? "about " : ""}${formatCount(total)}`;
  const range = `${formatCount(offset + 1)}–${formatCount(offset + shown)}`;
  if (total === undefined) return range;
  return `${range} of ${estimated ? "about " : ""}${formatCount(total)}`;
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
  const hasNext = total !== undefined ? offset + shown < total : shown === limit;
  const last = total !== undefined && total > 0 ? Math.floor((total - 1) / limit) * limit : null;
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <p className="text-sm tabular-nums" aria-live="polite">
        {rangeText(offset, shown, total, estimated)}
        {estimated && (
          <span title="The total is an estimate" className="ml-1 rounded bg-zinc-200 px-1 text-xs dark:bg-zinc-800">
            estimated
          </span>
        )}
      </p>
      <div className="flex gap-1">
        <PageButton label="First" enabled={offset > 0} onClick={() => onOffset(0)} />
        <PageButton label="Previous" enabled={offset > 0} onClick={() => onOffset(Math.max(0, offset - limit))} />
        <PageButton label="Next" enabled={hasNext} onClick={() => onOffset(offset + limit)} />
        {!estimated && last !== null && (
          <PageButton label="Last" enabled={offset < last} onClick={() => onOffset(last)} />
        )}
      </div>
    </nav>
  );
}

/** aria-disabled rather than disabled, so focus stays on the button at the first or last page. */
function PageButton({ label, enabled, onClick }: { label: string; enabled: boolean; onClick: () => void }) {
  return (
    <Button
      variant="ghost"
      aria-disabled={!enabled}
      onClick={() => enabled && onClick()}
      className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
    >
      {label}
    </Button>
  );
}
