// Search answers kept per resource version: every write raises a resource's version (the
// catalog's), so an answer read at version V is the answer to the same query for as long as V
// lasts. A popular page (an explorer's first view, a shared link, a client polling) is then
// read, counted and encoded once, and answered from memory after, without crossing to a read
// thread. Only encoded pages with exact totals are kept: an estimate depends on a time budget.
// Bounded by bytes; the least recently used answers go first.
import type { SearchOutput, SearchQuery } from "./engine";

/** An answer bigger than this is not kept: it would push out many small ones. */
const MAX_ANSWER_BYTES = 1 << 20;

export class PageCache {
  private answers = new Map<string, SearchOutput>();
  private bytes = 0;

  /** `maxBytes` 0 keeps nothing. */
  constructor(private readonly maxBytes: number) {}

  private static key(resourceId: string, version: number, query: SearchQuery): string {
    return `${resourceId}\0${version}\0${JSON.stringify(query)}`;
  }

  /** The answer kept for this query at this version of the resource, if any. */
  get(resourceId: string, version: number, query: SearchQuery): SearchOutput | undefined {
    if (this.maxBytes === 0) return undefined;
    const key = PageCache.key(resourceId, version, query);
    const answer = this.answers.get(key);
    if (answer) {
      // The most recently used last: Map keeps insertion order.
      this.answers.delete(key);
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** Keeps an answer read at `version`, when it is one to keep. Its bytes are shared with
   *  every later answer: callers never change them. */
  keep(resourceId: string, version: number, query: SearchQuery, answer: SearchOutput): void {
    const size = answer.records?.byteLength ?? 0;
    if (!answer.records || answer.rows.length || answer.totalEstimated || size > Math.min(MAX_ANSWER_BYTES, this.maxBytes)) return;
    const key = PageCache.key(resourceId, version, query);
    const old = this.answers.get(key);
    if (old) this.bytes -= old.records!.byteLength;
    this.answers.set(key, answer);
    this.bytes += size;
    for (const [k, a] of this.answers) {
      if (this.bytes <= this.maxBytes) break;
      this.answers.delete(k);
      this.bytes -= a.records!.byteLength;
    }
  }
}
