// What the record view's History shows of one version: the fields it changed, in the resource's
// order, each with its old and new value (an insert has no old one; a delete shows no fields).
// Pure, for a unit test.
import type { RecordVersion } from "@/lib/api-client";

export type HistoryLine = { field: string; old: unknown; new: unknown; hasOld: boolean };

export function historyLines(version: RecordVersion, order: string[]): HistoryLine[] {
  if (version.kind === "delete") return [];
  const changed: Record<string, { old: unknown; new: unknown }> =
    Object.keys(version.changed ?? {}).length || version.kind !== "insert"
      ? (version.changed ?? {})
      : Object.fromEntries(Object.entries(version.record ?? {}).map(([k, v]) => [k, { old: null, new: v }]));
  const rank = new Map(order.map((f, i) => [f, i]));
  return Object.keys(changed)
    .filter((f) => f !== "_id")
    .sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b))
    .map((f) => ({ field: f, old: changed[f].old, new: changed[f].new, hasOld: version.kind === "update" }));
}

/** Newest first: what changed last is what a reader looks for. */
export function newestFirst(versions: RecordVersion[]): RecordVersion[] {
  return [...versions].sort((a, b) => b.version - a.version);
}
