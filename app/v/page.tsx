import type { Metadata } from "next";
import { Suspense } from "react";
import { OpenSavedView } from "@/components/explorer/open-saved-view";

export const metadata: Metadata = { title: "Saved view · Datastore Explorer" };

export default function SavedViewPage() {
  // the token lives in the browser's storage: the page is prerendered and reads the view there
  return (
    <Suspense>
      <OpenSavedView />
    </Suspense>
  );
}
