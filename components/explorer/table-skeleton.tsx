import { Skeleton } from "@/components/ui/skeleton";

export function TableSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div role="status" className="rounded-lg border p-3">
      <span className="sr-only">Loading records…</span>
      <Skeleton className="mb-3 h-6 w-full" />
      <div className="space-y-2">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className={`h-5 ${i % 3 === 0 ? "w-11/12" : i % 3 === 1 ? "w-full" : "w-10/12"}`} />
        ))}
      </div>
    </div>
  );
}
