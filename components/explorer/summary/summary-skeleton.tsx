"use client";
import { useT } from "@/components/i18n/i18n-provider";
import { Skeleton } from "@/components/ui/skeleton";

export function SummarySkeleton({ cards = 6 }: { cards?: number }) {
  const t = useT();
  return (
    <div role="status" className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
      <span className="sr-only">{t("summary.loading")}</span>
      {Array.from({ length: cards }, (_, i) => (
        <div key={i} className="space-y-2 rounded-lg border p-3">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-20 w-full" />
        </div>
      ))}
    </div>
  );
}
