// The rule for indexing fields people filter on, applied after a bulk import (docs/performance.md,
// "Indexes"). Filters, filter chips and value suggestions go to fields that name a category or
// a code — an airport, a state, a species — so those are indexed: text fields whose values
// repeat (at most MAX_DISTINCT distinct values in a sample) and are short. Each index costs
// import time and space, so at most MAX_AUTO are made, shortest values first; other fields are
// indexed when declared (`indexes`, `--index`). With learned indexes on
// (DATASTORE_ADAPTIVE_INDEXES, the default) the rule picks nothing: it guessed wrong on the 3M
// flights (origin_state, dest_state, destination where people filter on origin), each wrong
// guess cost import time for nothing, and the fields people do use get an index after a few
// slow reads.
import { config } from "../config";
import type { Field, FieldStats } from "./engine";

export const AUTO_INDEX_MIN_ROWS = 10_000;
export const AUTO_INDEX_SAMPLE_ROWS = 10_000;
const MAX_DISTINCT = 1_000;
const MAX_AVG_LENGTH = 24;
const MAX_AUTO = 3;

export function autoIndexes(fields: Field[], stats: FieldStats[], rows: number, learning = config.adaptiveIndexes): string[] {
  if (learning || rows < AUTO_INDEX_MIN_ROWS) return [];
  const text = new Set(fields.filter((f) => f.type === "text").map((f) => f.id));
  return stats
    .filter((s) => text.has(s.id) && s.distinct > 1 && s.distinct <= MAX_DISTINCT && s.avgLength <= MAX_AVG_LENGTH)
    .sort((a, b) => a.avgLength - b.avgLength || a.distinct - b.distinct)
    .slice(0, MAX_AUTO)
    .map((s) => s.id);
}
