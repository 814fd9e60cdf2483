"use client";
// /v?id=: reads a saved view with the token in use and opens the explorer on it (its query
// string), replacing this page in the history so Back leaves the view.
import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { viewQuery } from "@/lib/api-client/views";
import { useToken } from "@/components/token/token-provider";
import { ErrorState } from "./error-state";

export function OpenSavedView() {
  const id = useSearchParams().get("id") ?? "";
  const { session, ready } = useToken();
  const router = useRouter();
  const saved = useQuery({ ...viewQuery(session, id), enabled: ready && Boolean(id) });
  const query = saved.data?.query;
  useEffect(() => {
    if (query !== undefined) router.replace(`/?${query}`);
  }, [query, router]);
  if (!id) return <ErrorState error={new Error("This address names no saved view.")} what="this saved view" onRetry={() => undefined} />;
  if (saved.error) return <ErrorState error={saved.error} what="this saved view" onRetry={() => saved.refetch()} />;
  return (
    <p role="status" className="text-sm">
      {saved.data ? `Opening “${saved.data.name}”…` : "Opening the saved view…"}
    </p>
  );
}
