"use client";
// The admin's table of API tokens (never their secrets), each with a Revoke button that asks
// first. Revoking is by id, and the list is read again afterwards.
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useToken } from "@/components/token/token-provider";
import { tokensQuery, type ApiToken } from "@/lib/api-client/tokens";
import { Button } from "@/components/ui/button";
import { ErrorMessages } from "./error-messages";
import { RevokeDialog } from "./revoke-dialog";
import { TokenLimits, TokenLimitsHeader } from "./token-limits";
import { isPast, when } from "./when";

// after a revoke the opener is gone with its row: the focus goes to the table
const TABLE_ID = "api-tokens";

const COLUMNS = ["Name", "Scope", "Created", "Last used", "Expires"] as const;
// with the Limits column, whose header comes from the catalogue (TokenLimitsHeader)
const COLUMN_COUNT = COLUMNS.length + 1;

function Expiry({ at }: { at: string | null }) {
  const tr = useT();
  if (!at) return <>{tr("tokens.never")}</>;
  return (
    <>
      <time dateTime={at}>{when(at, tr("tokens.never"))}</time>
      {isPast(at) && <span className="ml-1 text-red-800 dark:text-red-300">{tr("tokens.expired")}</span>}
    </>
  );
}

export function TokenList() {
  const { session } = useToken();
  const { data: tokens, error, isPending } = useQuery(tokensQuery(session));
  const [target, setTarget] = useState<ApiToken | null>(null);
  const tr = useT();
  const [revoked, setRevoked] = useState(false);

  if (error) return <ErrorMessages error={error} />;
  if (isPending) {
    return (
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        {tr("tokens.loading")}
      </p>
    );
  }

  return (
    <section className="overflow-x-auto">
      <table id={TABLE_ID} tabIndex={-1} className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-base font-semibold">{tr("tokens.caption")}</caption>
        <thead>
          <tr className="border-b">
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-2 py-1.5 font-medium">
                {tr(`tokens.col.${c}`)}
              </th>
            ))}
            <TokenLimitsHeader />
            <th scope="col" className="px-2 py-1.5">
              <span className="sr-only">{tr("tokens.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.length === 0 && (
            <tr>
              <td colSpan={COLUMN_COUNT + 1} className="px-2 py-3 text-zinc-700 dark:text-zinc-300">
                {tr("tokens.none")}
              </td>
            </tr>
          )}
          {tokens.map((t) => (
            <tr key={t.id} className="border-b align-middle">
              <th scope="row" className="px-2 py-1.5 font-medium break-all">
                {t.name}
              </th>
              <td className="px-2 py-1.5">{t.scope}</td>
              <td className="px-2 py-1.5">
                <time dateTime={t.created_at}>{when(t.created_at, "")}</time>
              </td>
              <td className="px-2 py-1.5">
                {t.last_access ? <time dateTime={t.last_access}>{when(t.last_access, tr("tokens.notYet"))}</time> : tr("tokens.notYet")}
              </td>
              <td className="px-2 py-1.5">
                <Expiry at={t.expires_at} />
              </td>
              <td className="px-2 py-1.5">
                <TokenLimits resources={t.resources} actions={t.actions} />
              </td>
              <td className="px-2 py-1.5 text-right">
                <Button variant="danger" aria-label={tr("tokens.revokeNamed", { name: t.name })} onClick={() => {
                    setRevoked(false);
                    setTarget(t);
                  }}>
                  {tr("tokens.revoke")}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <RevokeDialog
        token={target}
        onClose={() => setTarget(null)}
        onRevoked={() => {
          setRevoked(true);
          setTarget(null);
        }}
        returnFocusTo={revoked ? TABLE_ID : undefined}
      />
    </section>
  );
}
