"use client";
// The Tokens page: admin tokens list, create and revoke API tokens; any other token sees only
// what it would take. The API still decides every request.
import { useQuery } from "@tanstack/react-query";
import { useScope } from "@/components/token/use-scope";
import { useToken } from "@/components/token/token-provider";
import { whoamiQuery } from "@/lib/api-client";
import { CreateTokenForm } from "./create-token-form";
import { TokenList } from "./token-list";

export function TokensPage() {
  const { session, ready } = useToken();
  const { isAdmin } = useScope();
  // the same query as useScope's: only to tell "still asking" from "not an admin"
  const whoami = useQuery({ ...whoamiQuery(session), enabled: ready && Boolean(session.token) });
  const checking = !ready || (Boolean(session.token) && whoami.isPending);

  return (
    <div className="max-w-4xl space-y-6">
      <h2 className="text-xl font-semibold">
        Tokens
      </h2>
      {checking ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          Checking your token…
        </p>
      ) : !isAdmin ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Managing tokens needs an admin token. Enter one in the Token box above.
        </p>
      ) : (
        <>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            API tokens let programs use the API without a browser. A read token reads private data, a write token
            also changes it, and an admin token also manages tokens.
          </p>
          <TokenList />
          <CreateTokenForm />
        </>
      )}
    </div>
  );
}
