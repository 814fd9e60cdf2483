"use client";
// A `$or` / `$and` group from the URL: the explorer has no editor for it, so it is shown as the
// JSON the API reads, and can be removed. It opens on the JSON, which is what one came to read.
import { useEffect, useRef } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

export function GroupFilter({ json, onRemove, onCancel }: { json: string; onRemove: () => void; onCancel: () => void }) {
  const pre = useRef<HTMLPreElement>(null);
  const t = useT();
  useEffect(() => pre.current?.focus(), []);
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {t("group.intro")}
      </p>
      <pre ref={pre} tabIndex={0} className="max-h-60 overflow-auto rounded-md border bg-zinc-50 p-2 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-900">
        {json}
      </pre>
      <div className="flex flex-wrap gap-2 border-t pt-3">
        <Button variant="danger" onClick={onRemove}>
          {t("filter.remove")}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </div>
  );
}
