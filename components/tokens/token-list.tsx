"use client";
// The admin's table of API tokens (never their secrets), each with a Revoke button that asks
// first. Revoking is by id, and the list is read again afterwards.
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
  if (!at) return <>never</>;
  return (
    <>
      <time dateTime={at}>{when(at, "never")}</time>
      {isPast(at) && <span className="ml-1 text-red-800 dark:text-red-300">(expired)</span>}
    </>
  );
}

export function TokenList() {
  const { session } = useToken();
  const { data: tokens, error, isPending } = useQuery(tokensQuery(session));
  const [target, setTarget] = useState<ApiToken | null>(null);
  const [revoked, setRevoked] = useState(false);

  if (error) return <ErrorMessages error={error} />;
  if (isPending) {
    return (
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        Loading tokens…
      </p>
    );
  }

  return (
    <section className="overflow-x-auto">
      <table id={TABLE_ID} tabIndex={-1} className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-base font-semibold">API tokens</caption>
        <thead>
          <tr className="border-b">
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-2 py-1.5 font-medium">
                {c}
              </th>
            ))}
            <TokenLimitsHeader />
            <th scope="col" className="px-2 py-1.5">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.length === 0 && (
            <tr>
              <td colSpan={COLUMN_COUNT + 1} className="px-2 py-3 text-zinc-700 dark:text-zinc-300">
                No tokens yet. Create one below.
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
                {t.last_access ? <time dateTime={t.last_access}>{when(t.last_access, "not yet")}</time> : "not yet"}
              </td>
              <td className="px-2 py-1.5">
                <Expiry at={t.expires_at} />
              </td>
              <td className="px-2 py-1.5">
                <TokenLimits resources={t.resources} actions={t.actions} />
              </td>
              <td className="px-2 py-1.5 text-right">
                <Button variant="danger" aria-label={`Revoke ${t.name}`} onClick={() => {
                    setRevoked(false);
                    setTarget(t);
                  }}>
                  Revoke
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
