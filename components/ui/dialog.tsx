"use client";
// A modal built on <dialog>: the browser supplies the focus trap, Escape, the inert background
// and the return of focus to the opener. The contents mount only once the dialog is open, so a
// control with `autoFocus` inside gets the focus (it can't while the <dialog> is still closed).
import { useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { useT } from "@/components/i18n/i18n-provider";

const FOCUSABLE = "button:not(:disabled), [href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex='-1'])";

export function Dialog({
  open,
  onClose,
  title,
  children,
  className = "",
  side = false,
  returnFocusTo,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  className?: string;
  /** A panel along the right edge instead of a centred box. */
  side?: boolean;
  /** The id of the element to focus when the dialog closes, when the opener is gone (a removed chip). */
  returnFocusTo?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const t = useT();
  const [shown, setShown] = useState(false);

  // a layout effect: the contents render before the next paint, with no empty frame
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      dialog.close();
      if (returnFocusTo) document.getElementById(returnFocusTo)?.focus();
    }
    setShown(open);
  }, [open, returnFocusTo]);

  // no control asked for the focus (`autoFocus`): the first one gets it, as showModal() does
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!shown || !dialog || (dialog.contains(document.activeElement) && document.activeElement !== dialog)) return;
    dialog.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [shown]);

  const placement = side
    ? "m-0 ml-auto h-dvh max-h-dvh w-full max-w-xl rounded-none sm:border-l"
    : "m-auto w-[calc(100%-1.5rem)] max-w-lg rounded-lg border";

  return (
    <dialog
      ref={ref}
      aria-labelledby={open ? titleId : undefined}
      onClose={onClose}
      onClick={(e) => {
        // a click on the backdrop lands on the <dialog> element itself
        if (e.target === e.currentTarget) onClose();
      }}
      className={`bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/40 dark:bg-zinc-900 dark:text-zinc-100 ${placement} ${className}`}
    >
      {open && shown && (
        <div className="flex max-h-[inherit] flex-col">
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <h2 id={titleId} className="min-w-0 truncate text-base font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              {t("common.close")}
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-auto p-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
