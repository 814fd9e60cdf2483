"use client";
// The toolbar's As of: a date and time, to the second, in the reader's time zone, at which the
// view shows the table (`as_of` in the URL, sent as an ISO time). Current data takes it out.
import { useId, useState } from "react";
import type { HistoryInfo } from "@/lib/api-client";
import { fromLocalInput, toLocalInput, type AsOf } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

/** The picker's starting value: the time asked for, or the time of the version asked for. */
function initial(asOf: AsOf | null, readTime: string | undefined): string {
  if (typeof asOf === "string") return toLocalInput(asOf);
  return asOf !== null && readTime ? toLocalInput(readTime) : "";
}

export function AsOfPicker({
  asOf,
  readTime,
  history,
  onChange,
}: {
  asOf: AsOf | null;
  /** The time of the version the view shows, once the search has said. */
  readTime: string | undefined;
  history: HistoryInfo | undefined;
  onChange: (asOf: AsOf | null) => void;
}) {
  const t = useT();
  const id = useId();
  const start = initial(asOf, readTime);
  const [draft, setDraft] = useState(start);
  const [draftFor, setDraftFor] = useState(start);
  const [invalid, setInvalid] = useState(false);
  // the URL moved (back, a link, Current data): the box follows it
  if (draftFor !== start) {
    setDraftFor(start);
    setDraft(start);
    setInvalid(false);
  }

  if (history && !history.enabled) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("history.asOf.none")}</p>;
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const iso = fromLocalInput(draft);
        setInvalid(iso === null);
        if (iso) onChange(iso);
      }}
    >
      <label htmlFor={id} className="text-sm font-medium">
        {t("history.asOf.label")}
      </label>
      <input
        id={id}
        type="datetime-local"
        step={1}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={invalid || undefined}
        className="rounded-md border bg-white px-2 py-1 text-sm dark:bg-zinc-900"
      />
      <Button type="submit">{t("history.asOf.show")}</Button>
      {asOf !== null && <Button onClick={() => onChange(null)}>{t("history.asOf.current")}</Button>}
      <span id={`${id}-hint`} className="sr-only">
        {t("history.asOf.hint")}
      </span>
      {invalid && (
        <p id={`${id}-error`} role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {t("history.asOf.invalid")}
        </p>
      )}
    </form>
  );
}
