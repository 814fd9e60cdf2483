// Indexes follow use, by one rule on every engine (docs/performance.md "Indexes"): each read's
// time and query are reported here; a field that a slow read (by default over 50 ms, of a table
// of at least LEARN_MIN_ROWS rows) filtered or sorted on without an index to start from counts
// as evidence, and a field with enough evidence (by default 3 reads within ten minutes) gets an
// index, one build at a time per app server, within a per-resource budget (a count, and a share
// of the table's size). An engine supplies only the build, in its own SQL and locking
// (sqlite/index-learning.ts, postgres/learned-indexes.ts). Evidence lives in memory: it is cheap
// to gather again after a restart, and recording it would make every slow read a write.
import type { Filter, LearnedIndex, Resource, SearchQuery } from "./engine";
import { isArrayType } from "./types";

const WINDOW_MS = 10 * 60_000;
/** Fields followed at once; past this the oldest evidence is forgotten. */
const MAX_TRACKED = 10_000;
/** A scan of fewer rows takes a few ms: a slow read of such a table waited for something else. */
export const LEARN_MIN_ROWS = 10_000;

/** Index learning's settings (configuration: DATASTORE_ADAPTIVE_*), read as reads finish. */
export interface LearnSettings {
  /** Off: nothing is learned (the import rule, auto-index.ts, picks indexes instead). */
  readonly adaptiveIndexes: boolean;
  /** A read at least this slow is evidence for indexing the fields it filters or sorts on. */
  readonly adaptiveSlowMs: number;
  /** Slow reads of one field (within ten minutes) that earn it an index. */
  readonly adaptiveReads: number;
  /** Learned indexes one resource may have. */
  readonly adaptiveMaxIndexes: number;
  /** Learned indexes may take at most this share of their table's size (percent). */
  readonly adaptiveMaxSizePercent: number;
}

export interface LearnLimits {
  maxIndexes: number;
  /** Learned indexes' total size as a share of the table's (percent). */
  maxSizePercent: number;
}

/** A field that earned an index, handed to the engine's build. */
export interface LearnTask {
  resourceId: string;
  field: string;
  /** The slow reads that earned it. */
  reads: number;
  limits: LearnLimits;
}

export type BuildOutcome = { built: LearnedIndex } | { refused: string };

/** What the last build did, for tests and the bench (the catalog keeps the index itself). */
export interface LearnEvent {
  resourceId: string;
  field: string;
  outcome: "built" | "refused" | "failed";
  detail: string;
  /** How long the engine's write lock was held (ms), when the engine took one (SQLite). */
  lockMs?: number;
}

/** A learned index's name: `<table>_lx_<column>`, apart from the declared `_ix_` ones. */
export function learnedName(table: string, column: string): string {
  return `${table}_lx_${column}`;
}

/**
 * Fields whose index could answer the read: those of the ANDed comparisons (an OR needs an
 * index for each branch, so it is left out; `x_not_in` and `x_empty` cannot seek), and the
 * first sort key when `sorted`. Ranges and sorts on arrays compare through a function, which a
 * plain index cannot serve.
 */
export function usedFields(r: Resource, query: SearchQuery, sorted: boolean): string[] {
  const types = new Map(r.fields.map((f) => [f.id, f.type]));
  const out = new Set<string>();
  const visit = (f: Filter): void => {
    if (f.op === "and") return f.of.forEach(visit);
    if (f.op === "or" || f.op === "not_in" || f.op === "empty") return;
    const t = types.get(f.field);
    if (!t) return;
    if (f.op === "eq" || f.op === "in" || (!isArrayType(t) && t !== "json")) out.add(f.field);
  };
  query.filters.forEach(visit);
  const first = sorted ? query.sort[0] : undefined;
  const t = first && types.get(first.field);
  if (first && t && !isArrayType(t) && t !== "json") out.add(first.field);
  return [...out];
}

/** Fields some index of the resource starts with, as the catalog knows them. */
function leadingFields(r: Resource): Set<string> {
  return new Set(["_id", ...r.primaryKey.slice(0, 1), ...r.indexes.map((ix) => ix[0]), ...(r.learnedIndexes ?? []).map((ix) => ix.fields[0])]);
}

/** What an engine knows of a resource when it plans a build: from its catalog, and the columns
 *  its database says some index starts with (whoever made it). */
interface BuildView {
  active: boolean;
  columns: ReadonlyMap<string, { column: string }>;
  learnedIndexes: LearnedIndex[];
}

/** Why an index on `field` may not be learned now (count and overlap only), or null. */
export function countRefusal(r: BuildView | undefined, field: string, leadingColumns: ReadonlySet<string>, limits: LearnLimits): string | null {
  if (!r || !r.active) return "the resource is gone";
  const f = r.columns.get(field);
  if (!f) return "the field is gone";
  if (leadingColumns.has(f.column)) return "an index already starts with the field";
  if (r.learnedIndexes.length >= limits.maxIndexes) return `the resource has ${r.learnedIndexes.length} learned indexes, the most allowed`;
  return null;
}

/**
 * Why an index of about `estimate` bytes on `field` does not fit the budget, or null: the
 * learned indexes' sizes so far plus this one's within `maxSizePercent` of the table's size.
 */
export function budgetRefusal(r: BuildView, field: string, estimate: number, tableBytes: number, limits: LearnLimits): string | null {
  const used = r.learnedIndexes.reduce((sum, ix) => sum + ix.bytes, 0);
  const allowed = (tableBytes * limits.maxSizePercent) / 100;
  if (used + estimate <= allowed) return null;
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  return `an index on "${field}" (about ${mb(estimate)}) would take learned indexes to ${mb(used + estimate)}, over ${limits.maxSizePercent}% of the table (${mb(allowed)})`;
}

/** Gathers the evidence and runs one build at a time; an engine's subclass supplies the build. */
export abstract class IndexLearner {
  private evidence = new Map<string, number[]>();
  private resting = new Map<string, number>();
  private running: Promise<void> | null = null;
  readonly events: LearnEvent[] = [];

  constructor(private readonly settings: LearnSettings) {}

  /** The engine's build: checks the budget (budgetRefusal), builds and records the index, or
   *  says why not; may note on `event` what it held. */
  protected abstract build(task: LearnTask, event: LearnEvent): Promise<BuildOutcome>;

  /** A read finished (or failed) after `ms`; `sorted`: its sort order was the read's own. */
  observe(r: Resource, query: SearchQuery, ms: number, sorted: boolean): void {
    const settings = this.settings;
    if (!settings.adaptiveIndexes || ms < settings.adaptiveSlowMs || r.rowCount < LEARN_MIN_ROWS) return;
    const limits = { maxIndexes: settings.adaptiveMaxIndexes, maxSizePercent: settings.adaptiveMaxSizePercent };
    if ((r.learnedIndexes?.length ?? 0) >= limits.maxIndexes) return;
    const indexed = leadingFields(r);
    const now = Date.now();
    for (const field of usedFields(r, query, sorted)) {
      if (indexed.has(field)) continue;
      const key = `${r.id}\u0000${field}`;
      const times = (this.evidence.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
      times.push(now);
      if (times.length > 1000) times.shift();
      this.evidence.delete(key); // re-inserted last: the map stays in order of last use
      this.evidence.set(key, times);
      if (this.evidence.size > MAX_TRACKED) this.evidence.delete(this.evidence.keys().next().value!);
      if (times.length < settings.adaptiveReads || this.running || (this.resting.get(key) ?? 0) > now) continue;
      this.running = this.learn({ resourceId: r.id, field, reads: times.length, limits })
        .catch((e) => console.error("datastore: learning an index failed", e))
        .finally(() => (this.running = null));
    }
  }

  /** Runs the engine's build; never throws at a reader: a failure is logged, and the field
   *  rests for a while, as does a refused one. */
  private async learn(task: LearnTask): Promise<void> {
    const { resourceId, field, reads } = task;
    const key = `${resourceId}\u0000${field}`;
    const event: LearnEvent = { resourceId, field, outcome: "failed", detail: "" };
    try {
      const outcome = await this.build(task, event);
      if ("built" in outcome) {
        Object.assign(event, { outcome: "built", detail: `${outcome.built.buildMs} ms, ${outcome.built.bytes} bytes` });
        this.evidence.delete(key);
        console.info(`datastore: learned an index on "${field}" of ${resourceId} after ${reads} slow reads (${event.detail})`);
      } else {
        Object.assign(event, { outcome: "refused", detail: outcome.refused });
        this.resting.set(key, Date.now() + WINDOW_MS);
      }
    } catch (e) {
      event.detail = (e as Error).message;
      this.resting.set(key, Date.now() + WINDOW_MS);
      throw e;
    } finally {
      this.events.push(event);
      if (this.events.length > 100) this.events.shift();
    }
  }

  /** Waits for a build under way, so the store closes with it done. */
  async close(): Promise<void> {
    await this.running;
  }
}
