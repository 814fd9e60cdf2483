"use client";
// Creates a token and shows its secret once. The secret lives only in this component's state:
// not in the query cache, the URL or storage, and it is gone on "Done" or when the page goes.
import { useT } from "@/components/i18n/i18n-provider";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useToken } from "@/components/token/token-provider";
import { createToken, TOKEN_SCOPES, tokenKeys, type TokenScope } from "@/lib/api-client/tokens";
import { Button } from "@/components/ui/button";
import { ErrorMessages } from "./error-messages";
import { NewTokenNotice } from "./new-token-notice";
import { ActionLimit, ResourceLimit, type ChosenResource } from "./token-limits-fields";

const FIELD = "h-9 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900";

export function CreateTokenForm() {
  const { session } = useToken();
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState("");
  const t = useT();
  const [scope, setScope] = useState<TokenScope>("read");
  const [days, setDays] = useState("");
  const [resources, setResources] = useState<ChosenResource[]>([]);
  const [actions, setActions] = useState<string[]>([]);
  // a new key after each token made: the resource search starts empty again
  const [made, setMade] = useState(0);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    setSecret(null);
    try {
      const limited = scope === "admin" ? [] : resources.map((r) => r.id);
      const created = await createToken(session, { name: name.trim(), scope, expiresInDays: days ? Number(days) : null, resources: limited, actions });
      setSecret(created.token);
      setName("");
      setScope("read");
      setDays("");
      setResources([]);
      setActions([]);
      setMade((n) => n + 1);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.list(session) });
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };

  return (
    // not a region named by its heading: "Create token" would answer a getByLabel("Token") too
    <section className="space-y-3">
      <h3 className="text-base font-semibold">
        {t("tokens.create")}
      </h3>
      {secret && (
        <NewTokenNotice
          secret={secret}
          onDone={() => {
            setSecret(null);
            document.getElementById(`${id}-name`)?.focus();
          }}
        />
      )}
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <span className="flex flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-sm font-medium">
            {t("tokens.name")}
          </label>
          <input
            id={`${id}-name`}
            required
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={`${FIELD} w-56`}
          />
        </span>
        <span className="flex flex-col gap-1">
          <label htmlFor={`${id}-scope`} className="text-sm font-medium">
            {t("tokens.scope")}
          </label>
          <select id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value as TokenScope)} className={FIELD}>
            {TOKEN_SCOPES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </span>
        <span className="flex flex-col gap-1">
          <label htmlFor={`${id}-days`} className="text-sm font-medium">
            {t("tokens.expiresInDays")}
          </label>
          <input
            id={`${id}-days`}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-describedby={`${id}-days-hint`}
            className={`${FIELD} w-32`}
          />
        </span>
        <ResourceLimit key={made} chosen={resources} onChange={setResources} disabled={scope === "admin"} />
        <ActionLimit chosen={actions} onChange={setActions} />
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? t("tokens.creating") : t("tokens.create")}
        </Button>
        <p id={`${id}-days-hint`} className="w-full text-xs text-zinc-600 dark:text-zinc-400">
          {t("tokens.neverHint")}
        </p>
      </form>
      {error !== null && <ErrorMessages error={error} />}
    </section>
  );
}
