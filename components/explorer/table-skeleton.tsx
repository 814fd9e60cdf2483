"use client";
import { Skeleton } from "@/components/ui/skeleton";
import { useT } from "@/components/i18n/i18n-provider";

export function TableSkeleton({ rows = 8 }: { rows?: number }) {
  const t = useT();
  return (
    <div role="status" className="rounded-lg border p-3">
      <span className="sr-only">{t("table.loading")}</span>
      <Skeleton className="mb-3 h-6 w-full" />
      <div className="space-y-2">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className={`h-5 ${i % 3 === 0 ? "w-11/12" : i % 3 === 1 ? "w-full" : "w-10/12"}`} />
        ))}
      </div>
    </div>
  );
}
