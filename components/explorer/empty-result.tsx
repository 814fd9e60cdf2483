"use client";
// Nothing matched: say which chip or the search is responsible, by counting the matches
// without each of them in turn.
import { useQueries } from "@tanstack/react-query";
import { countQuery } from "@/lib/api-client";
import { chipInWords, chipKey, chipsFromFilters, toMatchRequest, withoutChip, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { totalRecords } from "./format";

type Culprit = { key: string; label: string; action: string; view: ViewState; apply: () => void };

export function EmptyResult({
  view,
  onRemoveChip,
  onClearSearch,
}: {
  view: ViewState;
  /** Removes the chip with this key of the filters object. */
  onRemoveChip: (key: string) => void;
  onClearSearch: () => void;
}) {
  const { session, ready } = useToken();
  const t = useT();
  const culprits: Culprit[] = [
    ...chipsFromFilters(view.filters).map((chip) => {
      const key = chipKey(chip);
      return {
        key: `chip:${key}`,
        label: t("empty.withoutFilter", { filter: chipInWords(chip, t) }),
        action: t("empty.removeFilter"),
        view: { ...view, filters: withoutChip(view.filters, key) },
        apply: () => onRemoveChip(key),
      };
    }),
    ...(view.q.trim()
      ? [{ key: "q", label: t("empty.withoutSearch", { q: view.q.trim() }), action: t("empty.clearSearch"), view: { ...view, q: "" }, apply: onClearSearch }]
      : []),
  ];
  const counts = useQueries({
    queries: culprits.map((c) => ({ ...countQuery(session, toMatchRequest(c.view)), enabled: ready })),
  });

  if (culprits.length === 0) {
    return (
      <Notice title={t("empty.noRecordsYet")} role="status">
        <p>{t("empty.nothingToShow")}</p>
      </Notice>
    );
  }

  return (
    <Notice title={t("empty.noMatch")} role="status">
      <p>{culprits.length === 1 ? t("empty.removingOne") : t("empty.removingEach")}</p>
      <ul className="space-y-2">
        {culprits.map((c, i) => {
          const q = counts[i];
          return (
            <li key={c.key} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span>
                {c.label}{" "}
                <strong>
                  {q.data ? totalRecords(q.data.total, q.data.estimated, t) : q.error ? t("empty.unknown") : t("empty.counting")}
                </strong>
              </span>
              <Button onClick={c.apply}>{c.action}</Button>
            </li>
          );
        })}
      </ul>
    </Notice>
  );
}
