"use client";
// Nothing matched: say which chip or the search is responsible, by counting the matches
// without each of them in turn.
import { useQueries } from "@tanstack/react-query";
import { countQuery } from "@/lib/api-client";
import { chipKey, chipsFromFilters, describeChip, toMatchRequest, withoutChip, type ViewState } from "@/lib/view-state";
import { useToken } from "@/components/token/token-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { totalPlural } from "./format";

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
  const culprits: Culprit[] = [
    ...chipsFromFilters(view.filters).map((chip) => {
      const key = chipKey(chip);
      return {
        key: `chip:${key}`,
        label: `the filter “${describeChip(chip)}”`,
        action: "Remove filter",
        view: { ...view, filters: withoutChip(view.filters, key) },
        apply: () => onRemoveChip(key),
      };
    }),
    ...(view.q.trim()
      ? [{ key: "q", label: `the search “${view.q.trim()}”`, action: "Clear search", view: { ...view, q: "" }, apply: onClearSearch }]
      : []),
  ];
  const counts = useQueries({
    queries: culprits.map((c) => ({ ...countQuery(session, toMatchRequest(c.view)), enabled: ready })),
  });

  if (culprits.length === 0) {
    return (
      <Notice title="This resource has no records yet" role="status">
        <p>There is nothing to show. Pick another resource from the Resource list.</p>
      </Notice>
    );
  }

  return (
    <Notice title="No records match" role="status">
      <p>{culprits.length === 1 ? "What removing the condition would show:" : "What removing each condition would show:"}</p>
      <ul className="space-y-2">
        {culprits.map((c, i) => {
          const q = counts[i];
          return (
            <li key={c.key} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span>
                Without {c.label}:{" "}
                <strong>
                  {q.data ? totalPlural(q.data.total, q.data.estimated, "record") : q.error ? "unknown" : "counting…"}
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
