"use client";
// "Resource": a combobox over resource_search. As you type it asks the server for the words
// (name, description, aliases, field ids and labels), so it finds any of thousands of resources.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { Resource } from "@/lib/api-client";
import { catalogQuery } from "@/lib/api-client/catalog";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { resourceLabel } from "./format";
import { PrivateBadge } from "./private-badge";
import { useDebounced } from "./use-debounced";

/** Suggestions the picker shows at most. */
const SUGGESTIONS = 50;

/** The resources whose words start with those of `term` (all of them, by name, when empty). */
export function useResources(term = "") {
  const { session, ready } = useToken();
  const debounced = useDebounced(term.trim(), 200);
  const found = useQuery({ ...catalogQuery(session, { q: debounced, order_by: "name", offset: 0, limit: SUGGESTIONS, all: true }), enabled: ready });
  // Settled: the list shown is the answer for what is typed now, not the last term's kept on screen.
  const settled = debounced === term.trim() && !found.isPlaceholderData && found.data !== undefined;
  return { resources: found.data?.results, isLoading: found.isLoading, error: found.error, settled };
}

export function ResourceOption({ resource }: { resource: Resource }) {
  const t = useT();
  return (
    <span className="block min-w-0">
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">{resourceLabel(resource)}</span>
        {resource.private && <PrivateBadge />}
        {resource.datastore_active === false ? (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{t("picker.noTable")}</span>
        ) : (
          typeof resource.row_count === "number" && (
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{t("picker.rows", { count: resource.row_count })}</span>
          )
        )}
      </span>
      {resource.description && (
        <span className="mt-0.5 line-clamp-2 block text-sm text-zinc-600 dark:text-zinc-400">{resource.description}</span>
      )}
    </span>
  );
}

export function ResourcePicker({
  selectedLabel,
  onSelect,
}: {
  selectedLabel: string;
  onSelect: (resource: Resource) => void;
}) {
  const t = useT();
  const [term, setTerm] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { resources, isLoading, error, settled } = useResources(term ?? "");
  // Enter pressed before the list caught up with the typing: choose once it has.
  const chooseWhenSettled = useRef(false);
  const listRef = useRef<HTMLUListElement>(null);
  const inputId = useId();
  const listId = useId();
  const options = resources ?? [];
  const expanded = open && options.length > 0;

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, expanded]);

  useEffect(() => {
    if (!settled || !chooseWhenSettled.current) return;
    chooseWhenSettled.current = false;
    choose(options[0]);
  });

  function close() {
    setOpen(false);
    setTerm(null);
  }

  function choose(resource: Resource | undefined) {
    if (!resource) return;
    onSelect(resource);
    close();
  }

  return (
    <div className="relative">
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
        {t("picker.label")}
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && options[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={isLoading ? t("landing.loading") : t("picker.placeholder")}
        value={term ?? selectedLabel}
        onChange={(e) => {
          setTerm(e.target.value);
          chooseWhenSettled.current = false;
          setActive(0);
          setOpen(true);
        }}
        onFocus={(e) => e.target.select()}
        onClick={() => setOpen(true)}
        onBlur={close}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            if (!open) setOpen(true);
            else setActive((i) => Math.min(i + 1, options.length - 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === "Home" && open) {
            setActive(0);
          } else if (e.key === "End" && open) {
            setActive(options.length - 1);
          } else if (e.key === "Enter" && open && !settled) {
            e.preventDefault();
            chooseWhenSettled.current = true;
          } else if (e.key === "Enter" && expanded) {
            e.preventDefault();
            choose(options[active]);
          } else if (e.key === "Escape" && (open || term !== null)) {
            e.preventDefault();
            close();
          }
        }}
        className="w-full rounded-md border bg-white px-3 py-2 text-base dark:bg-zinc-900"
      />
      {open && error ? (
        <p role="alert" className="absolute z-30 mt-1 w-full rounded-md border bg-white p-3 text-sm shadow-lg dark:bg-zinc-900">
          {t("landing.listError")}
        </p>
      ) : open && resources && options.length === 0 ? (
        <p role="status" className="absolute z-30 mt-1 w-full rounded-md border bg-white p-3 text-sm shadow-lg dark:bg-zinc-900">
          {t("picker.noMatch", { term: term ?? "" })}
        </p>
      ) : null}
      <ul
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label={t("picker.suggestions")}
        hidden={!expanded}
        className="absolute z-30 mt-1 max-h-96 w-full overflow-auto rounded-md border bg-white py-1 shadow-lg dark:bg-zinc-900"
      >
        {expanded &&
          options.map((r, i) => (
            <li
              key={r.id}
              id={`${listId}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(r)}
              className={`cursor-pointer px-3 py-2 ${i === active ? "bg-blue-50 dark:bg-blue-950" : ""}`}
            >
              <ResourceOption resource={r} />
            </li>
          ))}
      </ul>
    </div>
  );
}
