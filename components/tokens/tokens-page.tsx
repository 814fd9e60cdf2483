"use client";
// The Tokens page: admin tokens list, create and revoke API tokens; any other token sees only
// what it would take. The API still decides every request.
import { useT } from "@/components/i18n/i18n-provider";
import { useQuery } from "@tanstack/react-query";
import { useScope } from "@/components/token/use-scope";
import { useToken } from "@/components/token/token-provider";
import { whoamiQuery } from "@/lib/api-client";
import { CreateTokenForm } from "./create-token-form";
import { TokenList } from "./token-list";

export function TokensPage() {
  const { session, ready } = useToken();
  const { isAdmin } = useScope();
  const t = useT();
  // the same query as useScope's: only to tell "still asking" from "not an admin"
  const whoami = useQuery({ ...whoamiQuery(session), enabled: ready && Boolean(session.token) });
  const checking = !ready || (Boolean(session.token) && whoami.isPending);

  return (
    <div className="max-w-4xl space-y-6">
      <h2 className="text-xl font-semibold">
        {t("tokens.title")}
      </h2>
      {checking ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          {t("tokens.checking")}
        </p>
      ) : !isAdmin ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {t("tokens.needAdmin")}
        </p>
      ) : (
        <>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            {t("tokens.intro")}
          </p>
          <TokenList />
          <CreateTokenForm />
        </>
      )}
    </div>
  );
}
