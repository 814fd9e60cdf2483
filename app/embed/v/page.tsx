import type { Metadata } from "next";
import { PageTitle } from "@/components/i18n/page-title";
import { Suspense } from "react";
import { EmbedSaved } from "@/components/embed/embed-pages";

export const metadata: Metadata = { title: "Saved view · Datastore Explorer" };

export default function EmbedSavedPage() {
  return (
    <Suspense>
      <PageTitle k="views.pageTitle" />
      <EmbedSaved />
    </Suspense>
  );
}
