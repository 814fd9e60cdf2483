"use client";
// The new token's secret, shown once with a copy button. It takes the focus so the secret is
// selected and its warning read out. Its box is named "New secret": a name with "token" in it
// would also answer to the header's Token box when a label is matched as a substring.
import { useT } from "@/components/i18n/i18n-provider";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";

export function NewTokenNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  const hint = useId();
  const t = useT();
  return (
    <Notice tone="warning" title={<span id={hint}>{t("tokens.copyNow")}</span>}>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          autoFocus
          aria-label={t("tokens.newSecret")}
          aria-describedby={hint}
          value={secret}
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border bg-white px-2 py-1.5 font-mono text-sm text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <CopyButton text={secret} label={t("tokens.copy")} />
        <Button onClick={onDone}>{t("common.done")}</Button>
      </div>
    </Notice>
  );
}
