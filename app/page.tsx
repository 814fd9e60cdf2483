import { Suspense } from "react";
import { Explorer } from "@/components/explorer/explorer";
import { TableSkeleton } from "@/components/explorer/table-skeleton";

export default function Home() {
  // the explorer reads its view from the URL, which only exists in the browser
  return (
    <Suspense fallback={<TableSkeleton />}>
      <Explorer />
    </Suspense>
  );
}
