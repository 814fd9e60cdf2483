import type { Metadata } from "next";
import { Suspense } from "react";
import { EmbedFromUrl } from "@/components/embed/embed-pages";

export const metadata: Metadata = { title: "Datastore Explorer" };

export default function EmbedPage() {
  // the view is in the URL, read in the browser: the page is prerendered
  return (
    <Suspense>
      <EmbedFromUrl />
    </Suspense>
  );
}
