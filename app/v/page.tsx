import type { Metadata } from "next";
import { PageTitle } from "@/components/i18n/page-title";
import { Suspense } from "react";
import { OpenSavedView } from "@/components/explorer/open-saved-view";

export const metadata: Metadata = { title: "Saved view · Datastore Explorer" };

export default function SavedViewPage() {
  // the token lives in the browser's storage: the page is prerendered and reads the view there
  return (
    <Suspense>
      <PageTitle k="views.pageTitle" />
      <OpenSavedView />
    </Suspense>
  );
}
