"use client";
// What a new token is limited to: resources found by name (the catalog's search) and chosen one
// by one, and actions ticked in two groups. Nothing chosen: no limit.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { resourcesQuery } from "@/lib/api-client";
import { TOKEN_ACTIONS } from "@/lib/api-client/tokens";

export type ChosenResource = { id: string; name: string };

const MAX_OFFERED = 8;
const FIELD = "h-9 rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900";

export function ResourceLimit({ chosen, onChange, disabled }: { chosen: ChosenResource[]; onChange: (next: ChosenResource[]) => void; disabled: boolean }) {
  const { session } = useToken();
  const t = useT();
  const id = useId();
  const [q, setQ] = useState("");
  const found = useQuery({ ...resourcesQuery(session, q.trim()), enabled: !disabled && q.trim() !== "" });
  const offered = (found.data?.results ?? [])
    .map((r) => ({ id: r.id, name: r.name || r.id }))
    .filter((r) => !chosen.some((c) => c.id === r.id))
    .slice(0, MAX_OFFERED);
  return (
    <fieldset className="w-full space-y-2" disabled={disabled}>
      <legend className="text-sm font-medium">{t("tokenLimits.resources")}</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{disabled ? t("tokenLimits.adminNotLimited") : t("tokenLimits.resourcesHint")}</p>
      {chosen.length > 0 && (
        <ul aria-label={t("tokenLimits.chosen")} className="flex flex-wrap gap-2">
          {chosen.map((r) => (
            <li key={r.id} className="flex items-center gap-1 rounded-full border px-2 py-0.5 text-sm">
              {r.name}
              <Button variant="ghost" aria-label={t("tokenLimits.remove", { name: r.name })} onClick={() => onChange(chosen.filter((c) => c.id !== r.id))} className="h-6 px-1">
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      <span className="flex flex-col gap-1">
        <label htmlFor={`${id}-find`} className="text-sm">
          {t("tokenLimits.find")}
        </label>
        <input id={`${id}-find`} type="search" autoComplete="off" value={q} onChange={(e) => setQ(e.target.value)} className={`${FIELD} w-72`} />
      </span>
      {q.trim() !== "" && found.data && (
        offered.length ? (
          <ul className="flex flex-wrap gap-2">
            {offered.map((r) => (
              <li key={r.id}>
                <Button aria-label={t("tokenLimits.add", { name: r.name })} onClick={() => onChange([...chosen, r])}>
                  + {r.name}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("tokenLimits.noMatch")}</p>
        )
      )}
    </fieldset>
  );
}

export function ActionLimit({ chosen, onChange }: { chosen: string[]; onChange: (next: string[]) => void }) {
  const t = useT();
  const toggle = (a: string, on: boolean) => onChange(on ? [...chosen, a] : chosen.filter((x) => x !== a));
  return (
    <fieldset className="w-full space-y-2">
      <legend className="text-sm font-medium">{t("tokenLimits.actions")}</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("tokenLimits.actionsHint")}</p>
      {(["read", "write"] as const).map((group) => (
        <fieldset key={group} className="flex flex-wrap gap-x-4 gap-y-1">
          <legend className="mb-1 text-sm">{t(group === "read" ? "tokenLimits.reading" : "tokenLimits.writing")}</legend>
          {TOKEN_ACTIONS[group].map((a) => (
            <label key={a} className="flex items-center gap-1 text-sm">
              <input type="checkbox" checked={chosen.includes(a)} onChange={(e) => toggle(a, e.target.checked)} />
              <code>{a}</code>
            </label>
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
