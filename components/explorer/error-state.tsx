"use client";
import { explainError } from "@/lib/api-client";
import { ApiError } from "@/lib/api-client";
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
  what: string;
  onRetry: () => void;
  onReset?: () => void;
}) {
  const { title, body } = explainError(error, what);
  const kind = error instanceof ApiError ? error.kind : "server";
  return (
    <Notice tone={kind === "forbidden" ? "warning" : "error"} title={title} role="alert">
      <p>{body}</p>
      <div className="flex flex-wrap gap-2">
        {kind === "forbidden" && (
          <Button variant="primary" onClick={focusTokenInput}>
            Enter a token
          </Button>
        )}
        {kind === "invalid" && onReset && <Button onClick={onReset}>Reset the view</Button>}
        {(kind === "network" || kind === "server") && <Button onClick={onRetry}>Try again</Button>}
      </div>
    </Notice>
  );
}
