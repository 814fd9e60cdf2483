"use client";
// The two embed pages: /embed?<the explorer's parameters> and /embed/v?id= (where /embed/v/<id>
// leads), which reads the saved view first.
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { viewQuery } from "@/lib/api-client/views";
import { parseViewState, serializeViewState } from "@/lib/view-state";
import { ErrorState } from "@/components/explorer/error-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { EmbedView } from "./embed-view";

export function EmbedFromUrl() {
  const params = useSearchParams();
  const key = params.toString();
  const view = parseViewState(key);
  return <EmbedView key={key} initial={view} openHref={`/?${serializeViewState(view)}`} />;
}

export function EmbedSaved() {
  const id = useSearchParams().get("id") ?? "";
  const { session, ready } = useToken();
  const t = useT();
  const saved = useQuery({ ...viewQuery(session, id), enabled: ready && Boolean(id) });
  if (saved.error || !id) {
    return <ErrorState error={saved.error ?? new Error(t("error.noSavedView"))} what="savedView" onRetry={() => saved.refetch()} />;
  }
  if (!saved.data) return <p role="status" className="text-sm">{t("savedView.loading")}</p>;
  return <EmbedView key={saved.data.id} initial={parseViewState(saved.data.query)} name={saved.data.name} openHref={`/v/${encodeURIComponent(id)}`} />;
}
