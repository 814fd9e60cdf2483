"use client";
// /v?id=: reads a saved view with the token in use and opens the explorer on it (its query
// string), replacing this page in the history so Back leaves the view.
import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { viewQuery } from "@/lib/api-client/views";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { ErrorState } from "./error-state";

export function OpenSavedView() {
  const id = useSearchParams().get("id") ?? "";
  const { session, ready } = useToken();
  const router = useRouter();
  const t = useT();
  const saved = useQuery({ ...viewQuery(session, id), enabled: ready && Boolean(id) });
  const query = saved.data?.query;
  useEffect(() => {
    if (query !== undefined) router.replace(`/?${query}`);
  }, [query, router]);
  if (!id) return <ErrorState error={new Error(t("error.noSavedView"))} what="savedView" onRetry={() => undefined} />;
  if (saved.error) return <ErrorState error={saved.error} what="savedView" onRetry={() => saved.refetch()} />;
  return (
    <p role="status" className="text-sm">
      {saved.data ? t("savedView.opening", { name: saved.data.name }) : t("savedView.openingUnnamed")}
    </p>
  );
}
