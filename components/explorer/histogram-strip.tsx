"use client";
// A strip of bars, one per histogram bin: plain buttons whose heights are the counts. A click
// (or Enter) on a bar fills From and To with the bar's range; dragging across bars, or
// Shift+arrow from the last bar picked, fills them with the range of several. Arrow keys move
// between bars, so the strip is one tab stop.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import type { HistogramBin } from "@/lib/api-client";
import { useT } from "@/components/i18n/i18n-provider";
import { barRange, compareBounds, type RangeKind } from "./range-kind";

type Span = { start: number; end: number };

function overlaps(bar: { from: string; to: string }, from: string, to: string, kind: RangeKind): boolean {
  if (!from && !to) return false;
  return (!from || compareBounds(bar.to, from, kind) >= 0) && (!to || compareBounds(bar.from, to, kind) <= 0);
}

export function HistogramStrip({
  bins,
  kind,
  from,
  to,
  onPick,
}: {
  bins: HistogramBin[];
  kind: RangeKind;
  /** The From and To inputs' values: bars within them are highlighted. */
  from: string;
  to: string;
  onPick: (from: string, to: string) => void;
}) {
  const bars = bins.map((bin, i) => ({ bin, range: barRange(bin, i === bins.length - 1, kind) }));
  const max = Math.max(1, ...bins.map((b) => b.count));
  const [active, setActive] = useState(() => Math.max(0, bars.findIndex((b) => b.range)));
  const [drag, setDrag] = useState<Span | null>(null);
  const t = useT();
  const anchor = useRef<number | null>(null);
  const dragged = useRef(false);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function pick(span: Span) {
    const lo = Math.min(span.start, span.end);
    const hi = Math.max(span.start, span.end);
    const inside = bars.slice(lo, hi + 1).filter((b) => b.range);
    if (inside.length) onPick(inside[0].range!.from, inside[inside.length - 1].range!.to);
  }

  // a drag ends wherever the pointer is let go, inside the strip or not
  useEffect(() => {
    if (!drag) return;
    const end = () => {
      if (drag.start !== drag.end) {
        pick(drag);
        dragged.current = true;
        anchor.current = drag.start;
      }
      setDrag(null);
    };
    const cancel = () => setDrag(null);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", cancel);
    return () => {
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", cancel);
    };
  });

  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    if (!drag) return;
    const el = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>("[data-bin]");
    const index = el ? Number(el.dataset.bin) : NaN;
    if (Number.isInteger(index) && index !== drag.end) setDrag({ ...drag, end: index });
  }

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const usable = bars.flatMap((b, j) => (b.range ? [j] : []));
    const next =
      e.key === "ArrowRight" ? usable.find((j) => j > i)
      : e.key === "ArrowLeft" ? usable.findLast((j) => j < i)
      : e.key === "Home" ? usable[0]
      : e.key === "End" ? usable[usable.length - 1]
      : null;
    if (next === null) return;
    if (next === undefined) return e.preventDefault();
    e.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
    if (e.shiftKey) pick({ start: anchor.current ?? i, end: next });
  }

  const lit = (i: number) => {
    if (drag) return i >= Math.min(drag.start, drag.end) && i <= Math.max(drag.start, drag.end);
    const range = bars[i].range;
    return range !== null && overlaps(range, from, to, kind);
  };

  return (
    <div>
      <div className="flex h-16 touch-none items-end gap-px border-b border-zinc-400 select-none dark:border-zinc-500" onPointerMove={onPointerMove}>
        {bars.map(({ bin, range }, i) => {
          const rows = t("count.rows", { count: bin.count });
          const label = range ? t("range.bar", { from: range.from, to: range.to, rows }) : rows;
          return (
            <button
              key={i}
              ref={(el) => {
                buttons.current[i] = el;
              }}
              type="button"
              data-bin={i}
              title={label}
              disabled={!range}
              tabIndex={i === active ? 0 : -1}
              onPointerDown={(e) => {
                if (e.button === 0 && range) setDrag({ start: i, end: i });
              }}
              onClick={() => {
                if (dragged.current) {
                  dragged.current = false;
                  return;
                }
                setActive(i);
                anchor.current = i;
                pick({ start: i, end: i });
              }}
              onKeyDown={(e) => onKeyDown(e, i)}
              className="group flex h-full min-w-0 flex-1 cursor-pointer items-end rounded-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 disabled:cursor-default dark:hover:bg-zinc-800"
            >
              <span className="sr-only">{label}</span>
              <span
                aria-hidden
                style={{ height: `${(bin.count / max) * 100}%`, minHeight: bin.count > 0 ? 3 : 0 }}
                className={`w-full rounded-t-sm ${lit(i) ? "bg-blue-600 dark:bg-blue-400" : "bg-zinc-400 group-hover:bg-blue-400 dark:bg-zinc-500"}`}
              />
            </button>
          );
        })}
      </div>
      <div aria-hidden className="mt-1 flex justify-between gap-2 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
        <span>{bars[0]?.range?.from ?? String(bins[0]?.from ?? "")}</span>
        <span>{bars[bars.length - 1]?.range?.to ?? String(bins[bins.length - 1]?.to ?? "")}</span>
      </div>
    </div>
  );
}
