// Search answers kept per state of a resource, which an engine names: SQLite's is its table's
// name (new whenever a resource is created again) and its version (raised by every write), so
// an answer read in a state is the answer to the same query for as long as that state lasts. A popular page (an explorer's first view, a shared link, a client polling) is then
// read, counted and encoded once, and answered from memory after, without crossing to a read
// thread. Only encoded pages with exact totals are kept: an estimate depends on a time budget.
// Bounded by bytes (the answers', their keys' and a share for each entry) and by entries; the
// least recently used answers go first.
import type { SearchOutput, SearchQuery } from "./engine";

/** An answer bigger than this is not kept: it would push out many small ones. */
const MAX_ANSWER_BYTES = 1 << 20;
/** What an entry costs beyond its answer's bytes and its key (the objects, the map's slot). */
const ENTRY_BYTES = 512;
const MAX_ENTRIES = 20_000;

export class PageCache {
  private answers = new Map<string, { answer: SearchOutput; bytes: number }>();
  private bytes = 0;

  /** `maxBytes` 0 keeps nothing. */
  constructor(private readonly maxBytes: number) {}

  private static key(state: string, query: SearchQuery): string {
    return `${state}\0${JSON.stringify(query)}`;
  }

  /** The answer kept for this query in this state of the resource, if any. */
  get(state: string, query: SearchQuery): SearchOutput | undefined {
    if (this.maxBytes === 0) return undefined;
    const key = PageCache.key(state, query);
    const entry = this.answers.get(key);
    if (!entry) return undefined;
    // The most recently used last: Map keeps insertion order.
    this.answers.delete(key);
    this.answers.set(key, entry);
    return entry.answer;
  }

  /** Keeps an answer read in `state`, when it is one to keep. Its bytes are shared with every
   *  later answer: callers never change them. */
  keep(state: string, query: SearchQuery, answer: SearchOutput): void {
    if (!answer.records || answer.rows.length || answer.totalEstimated || answer.records.byteLength > MAX_ANSWER_BYTES) return;
    const key = PageCache.key(state, query);
    // UTF-16: two bytes a character.
    const bytes = answer.records.byteLength + key.length * 2 + ENTRY_BYTES;
    if (bytes > this.maxBytes) return;
    const old = this.answers.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.answers.delete(key);
    }
    this.answers.set(key, { answer, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.answers) {
      if (this.bytes <= this.maxBytes && this.answers.size <= MAX_ENTRIES) break;
      this.answers.delete(k);
      this.bytes -= e.bytes;
    }
  }
}
