"use client";
// A token's limits in the list: its resources by name (looked up by id; the id when it is gone)
// and its actions, or "none".
import { useQueries } from "@tanstack/react-query";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { resourceQuery } from "@/lib/api-client";

export function TokenLimits({ resources, actions }: { resources: string[] | null; actions: string[] | null }) {
  const { session } = useToken();
  const t = useT();
  const names = useQueries({ queries: (resources ?? []).map((id) => resourceQuery(session, id)) }).map((q, i) => q.data?.name ?? resources![i]);
  if (!resources && !actions) return <>{t("tokenLimits.none")}</>;
  return (
    <ul className="space-y-0.5 text-xs">
      {resources && <li className="break-words">{t("tokenLimits.resourceList", { names: names.join(", ") })}</li>}
      {actions && <li className="break-words">{t("tokenLimits.actionList", { names: actions.join(", ") })}</li>}
    </ul>
  );
}

export function TokenLimitsHeader() {
  const t = useT();
  return (
    <th scope="col" className="px-2 py-1.5 font-medium">
      {t("tokenLimits.column")}
    </th>
  );
}
