// Answers kept per state of a resource, which an engine names: SQLite's is its table's name
// (new whenever a resource is created again) and its version (raised by every write), so an
// answer read in a state is the answer to the same question for as long as that state lasts.
// Search pages (PageCache): a popular page (an explorer's first view, a shared link, a client
// polling) is read, counted and encoded once, and answered from memory after, without crossing
// to a read thread; only encoded pages with exact totals are kept, as an estimate depends on a
// time budget. The extensions' exact figures (kept-results.ts) are kept the same way. Bounded
// by bytes (the answers', their keys' and a share for each entry) and by entries; the least
// recently used answers go first.
import type { SearchOutput, SearchQuery } from "./engine";

/** An answer bigger than this is not kept: it would push out many small ones. */
const MAX_ANSWER_BYTES = 1 << 20;
/** What an entry costs beyond its answer's bytes and its key (the objects, the map's slot). */
const ENTRY_BYTES = 512;
const MAX_ENTRIES = 20_000;

/** Answers of type A to questions of type Q; `bytesOf` says what an answer costs, or null for
 *  one not to keep. */
export class AnswerCache<Q, A> {
  private answers = new Map<string, { answer: A; bytes: number }>();
  private bytes = 0;

  /** `maxBytes` 0 keeps nothing. */
  constructor(
    private readonly maxBytes: number,
    private readonly bytesOf: (answer: A) => number | null,
  ) {}

  private static key(state: string, question: unknown): string {
    return `${state}\0${JSON.stringify(question)}`;
  }

  /** The answer kept for this question in this state of the resource, if any. */
  get(state: string, question: Q): A | undefined {
    if (this.maxBytes === 0) return undefined;
    const key = AnswerCache.key(state, question);
    const entry = this.answers.get(key);
    if (!entry) return undefined;
    // The most recently used last: Map keeps insertion order.
    this.answers.delete(key);
    this.answers.set(key, entry);
    return entry.answer;
  }

  /** Keeps an answer read in `state`, when it is one to keep. It is shared with every later
   *  answer: callers never change it. */
  keep(state: string, question: Q, answer: A): void {
    if (this.maxBytes === 0) return;
    const own = this.bytesOf(answer);
    if (own === null || own > MAX_ANSWER_BYTES) return;
    const key = AnswerCache.key(state, question);
    // UTF-16: two bytes a character.
    const bytes = own + key.length * 2 + ENTRY_BYTES;
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

/** Search pages: encoded, with an exact total. */
export class PageCache extends AnswerCache<SearchQuery, SearchOutput> {
  constructor(maxBytes: number) {
    super(maxBytes, (answer) => (!answer.records || answer.rows.length || answer.totalEstimated ? null : answer.records.byteLength));
  }
}
