"use client";
// A modal built on <dialog>: the browser supplies the focus trap, Escape, the inert background
// and the return of focus to the opener.
import { useEffect, useId, useRef, type ReactNode } from "react";

export function Dialog({
  open,
  onClose,
  title,
  children,
  className = "",
  side = false,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  className?: string;
  /** A panel along the right edge instead of a centred box. */
  side?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

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
      {open && (
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
              Close
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-auto p-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
