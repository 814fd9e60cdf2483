"use client";
// "Search": full-text over all fields as the user types. The URL keeps the typed text; the
// request turns it into a prefix query (see lib/view-state/search-text.ts).
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useT } from "@/components/i18n/i18n-provider";

const DEBOUNCE_MS = 300;

export function SearchBox({
  value,
  onCommit,
  status,
}: {
  value: string;
  /** `first` is true for the first commit of a typing burst (so it can add a history entry). */
  onCommit: (text: string, first: boolean) => void;
  status: ReactNode;
}) {
  const [text, setText] = useState(value);
  const t = useT();
  const committed = useRef(value);
  const burst = useRef(false);

  // back/forward or a chip action changed q underneath us
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === committed.current) return;
    const timer = setTimeout(() => commit(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  });

  function commit(next: string) {
    if (next === committed.current) return;
    committed.current = next;
    onCommit(next, !burst.current);
    burst.current = true;
  }

  return (
    <div className="min-w-0 flex-1">
      <label htmlFor="search-input" className="mb-1 block text-sm font-medium">
        {t("search.label")}
      </label>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <input
          id="search-input"
          type="search"
          autoComplete="off"
          spellCheck={false}
          value={text}
          placeholder={t("search.placeholder")}
          aria-describedby="search-status"
          onChange={(e) => setText(e.target.value)}
          onFocus={() => (burst.current = false)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(text);
          }}
          className="w-full min-w-0 rounded-md border bg-white px-3 py-2 text-base sm:max-w-md dark:bg-zinc-900"
        />
        <p id="search-status" role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          {status}
        </p>
      </div>
    </div>
  );
}
