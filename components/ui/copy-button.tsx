"use client";
import { useEffect, useState } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "./button";

/** Clipboard API where available (https, localhost); the old execCommand path over plain http. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // permission refused: fall through to the textarea path
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

export function CopyButton({ text, label, className = "" }: { text: string | (() => string); label: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const t = useT();
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        className={className}
        onClick={() =>
          copyText(typeof text === "function" ? text() : text).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {label}
      </Button>
      <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        {state === "copied" ? t("common.copied") : state === "failed" ? t("common.copyFailed") : ""}
      </span>
    </span>
  );
}
