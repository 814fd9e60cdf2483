"use client";
// Enter, remember and forget the API token. The token is only ever sent as the Authorization
// header; this form never echoes it back.
import { useState } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { useToken } from "./token-provider";

export const TOKEN_INPUT_ID = "token-input";

export function focusTokenInput() {
  document.getElementById(TOKEN_INPUT_ID)?.focus();
}

export function TokenControl() {
  const { session, remembered, setToken, forgetToken } = useToken();
  const [draft, setDraft] = useState("");
  const [remember, setRemember] = useState(false);
  const t = useT();
  const inUse = Boolean(session.token);

  return (
    <form
      className="flex flex-wrap items-center gap-x-3 gap-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!draft.trim()) return;
        setToken(draft, remember);
        setDraft("");
      }}
    >
      <span className="flex w-full items-center gap-2 sm:w-auto">
        <label htmlFor={TOKEN_INPUT_ID} className="text-sm font-medium">
          {t("token.label")}
        </label>
        <input
          id={TOKEN_INPUT_ID}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={inUse ? t("token.placeholderInUse") : t("token.placeholder")}
          aria-describedby="token-status"
          className="min-w-0 flex-1 rounded-md border bg-white px-2 py-1.5 text-sm sm:w-56 sm:flex-none dark:bg-zinc-900"
        />
      </span>
      <label className="flex items-center gap-1.5 text-sm">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        {t("token.remember")}
      </label>
      <Button type="submit" disabled={!draft.trim()}>
        {t("token.use")}
      </Button>
      {inUse && (
        <Button variant="danger" onClick={forgetToken}>
          {t("token.forget")}
        </Button>
      )}
      <p id="token-status" role="status" className="w-full text-xs text-zinc-600 sm:w-auto dark:text-zinc-400">
        {inUse
          ? remembered
            ? t("token.remembered")
            : t("token.untilClose")
          : t("token.none")}
      </p>
    </form>
  );
}
