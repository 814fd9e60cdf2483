"use client";
// The Summary tab: every field of the current result (search and filters), from one
// datastore_summary call. A bar adds a chip, so the summary is also a way to filter.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { summaryQuery, type SummaryRequest } from "@/lib/api-client";
import { toMatchRequest, withChip, type Chip, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { Notice } from "@/components/ui/notice";
import type { ApiView } from "./api-panel";
import { ErrorState } from "./error-state";
import { formatCount, totalText } from "./format";
import { FieldSummary } from "./summary/field-summary";
import { SummarySkeleton } from "./summary/summary-skeleton";
import { useLocale } from "./use-locale";
import type { ViewProps } from "./view-props";

/** Exact when every matching row is read in this time; past it, a sample's figures scaled to
 *  the whole match (docs/api.md): an exact summary of millions of rows can take longer than a
 *  person waits, or than the query timeout. */
export const SUMMARY_BUDGET_MS = 2000;

function summaryRequest(view: Pick<ViewState, "resource_id" | "q" | "filters">): SummaryRequest {
  return { ...toMatchRequest(view), budget_ms: SUMMARY_BUDGET_MS };
}

/** The Summary tab's call, for the API panel: the same request the tab sends. */
export function summaryApi(view: ViewState): ApiView {
  return { call: { action: "datastore_summary", body: summaryRequest(view) }, returns: "api.returns.summary" };
}

export function SummaryView({ view, fields, onChange }: ViewProps) {
  const { session, ready } = useToken();
  const locale = useLocale();
  const t = useT();
  const { resource_id, q, filters } = view;
  const request = useMemo(() => summaryRequest({ resource_id, q, filters }), [resource_id, q, filters]);
  const summary = useQuery({
    ...summaryQuery(session, request),
    enabled: ready && Boolean(resource_id),
    // while the figures for a new chip load, keep showing these (never another resource's)
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[3] as SummaryRequest | undefined)?.resource_id === resource_id ? previous : undefined,
  });
  const [picked, setPicked] = useState<string | null>(null);
  const dictionary = useMemo(() => new Map(fields.map((f) => [f.id, f])), [fields]);

  const add = (field: string, chip: Chip) => {
    setPicked(field);
    onChange({ filters: withChip(filters, chip) });
  };

  if (summary.error) {
    return (
      <ErrorState
        error={summary.error}
        what="summary"
        onRetry={() => summary.refetch()}
        onReset={() => onChange({ q: "", filters: {} })}
      />
    );
  }
  const data = summary.data;
  if (!data) return <SummarySkeleton />;

  const narrowed = Boolean(q.trim()) || Object.keys(filters).length > 0;
  // a sample that found no match says nothing of the rest of the table
  if (data.partial && data.rows === 0) {
    return (
      <Notice title={t("summary.tooFew")} role="status">
        {t("summary.tooFewBody")}
      </Notice>
    );
  }
  if (data.total === 0 || data.rows === 0) {
    return (
      <Notice title={t("summary.nothing")} role="status">
        {narrowed ? t("summary.noMatch") : t("summary.noRows")}
      </Notice>
    );
  }

  return (
    <section aria-label={t("summary.label")} aria-busy={summary.isPlaceholderData} className={`space-y-3 transition-opacity ${summary.isPlaceholderData ? "opacity-60" : ""}`}>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {data.partial ? (
          <strong className="font-semibold">
            {t("summary.sampled", { rows: formatCount(data.rows, locale), total: totalText(data.total, true, t) })}
          </strong>
        ) : (
          <>
            {t("count.rows", { count: data.total })}
            {narrowed ? t("summary.matchSuffix") : ""}, {t("count.fields", { count: data.fields.length })}.
          </>
        )}{" "}
        {t("summary.pickBar")}
      </p>
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {data.fields.map((f) => (
          <FieldSummary
            key={f.id}
            summary={f}
            field={dictionary.get(f.id)}
            rows={data.partial ? data.total : data.rows}
            locale={locale}
            refocus={picked === f.id}
            onPickValue={(value) => add(f.id, { kind: "is", field: f.id, values: [value] })}
            onPickRange={(from, to) => add(f.id, { kind: "range", field: f.id, from, to })}
          />
        ))}
      </div>
    </section>
  );
}
