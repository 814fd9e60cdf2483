"use client";
// Tabs as WAI-ARIA describes them: a tablist whose tabs are one Tab stop (the selected one), with
// the arrow keys, Home and End moving between them; the panel names the tab that shows it.
import { useRef, type KeyboardEvent, type ReactNode } from "react";

export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  idPrefix,
  children,
}: {
  label: string;
  tabs: readonly { id: T; name: string }[];
  selected: T;
  onSelect: (id: T) => void;
  idPrefix: string;
  /** The selected tab's panel. */
  children: ReactNode;
}) {
  const list = useRef<HTMLDivElement>(null);
  const at = tabs.findIndex((t) => t.id === selected);

  const move = (e: KeyboardEvent) => {
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    // Alt+Arrow is the browser's back and forward
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    onSelect(next.id);
    list.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${next.id}`)?.focus();
  };

  return (
    <div>
      <div ref={list} role="tablist" aria-label={label} onKeyDown={move} className="flex gap-1 border-b">
        {tabs.map((t) => {
          const on = t.id === selected;
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`${idPrefix}-tab-${t.id}`}
              aria-selected={on}
              aria-controls={`${idPrefix}-panel`}
              tabIndex={on ? 0 : -1}
              onClick={() => onSelect(t.id)}
              className={`-mb-px rounded-t-md border px-3 py-1.5 text-sm font-medium ${
                on
                  ? "border-b-white bg-white text-zinc-900 dark:border-b-zinc-950 dark:bg-zinc-950 dark:text-zinc-100"
                  : "border-transparent text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
              }`}
            >
              {t.name}
            </button>
          );
        })}
      </div>
      {/* a Tab stop of its own, as APG advises, for a panel that starts with text (a caption, a
          notice) or has no control at all: Tab from the tab reaches its content */}
      <div role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${selected}`} tabIndex={0} className="pt-3">
        {children}
      </div>
    </div>
  );
}
