"use client";
import { explainError, type Subject } from "@/lib/api-client";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/components/i18n/i18n-provider";
import { focusTokenInput } from "@/components/token/token-control";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function ErrorState({
  error,
  what,
  onRetry,
  onReset,
}: {
  error: unknown;
  what: Subject;
  onRetry: () => void;
  onReset?: () => void;
}) {
  const t = useT();
  const { title, body } = explainError(error, what, t);
  const kind = error instanceof ApiError ? error.kind : "server";
  return (
    <Notice tone={kind === "forbidden" ? "warning" : "error"} title={title} role="alert">
      <p>{body}</p>
      <div className="flex flex-wrap gap-2">
        {kind === "forbidden" && (
          <Button variant="primary" onClick={focusTokenInput}>
            {t("error.enterToken")}
          </Button>
        )}
        {kind === "invalid" && onReset && <Button onClick={onReset}>{t("error.resetView")}</Button>}
        {(kind === "network" || kind === "server") && <Button onClick={onRetry}>{t("error.tryAgain")}</Button>}
      </div>
    </Notice>
  );
}
