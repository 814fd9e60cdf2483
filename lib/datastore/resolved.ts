// A resource resolved once per request and handed down: the copy an engine's getResource just
// returned serves the same request's read when nothing was written through this process since.
// A change made meanwhile through another process is as concurrent as one made between the
// lookup and the read itself. Engines mark their writes and remember copies outside transactions.

/** How long a looked-up resource serves the same request's read without a second lookup. */
const FRESH_MS = 1000;

/** Copies getResource returned, with when, and the write count then. */
const resolved = new WeakMap<object, { at: number; writes: number }>();
/** Writes through this process (any resource, any engine). */
let writes = 0;

/** Remembers a copy getResource returns (outside a transaction); answers it. */
export function resolvedNow<R extends object | undefined>(r: R): R {
  if (r) resolved.set(r, { at: performance.now(), writes });
  return r;
}

/** A write through this process, as it starts and as it commits: copies resolved before it are
 *  looked up again. */
export function wrote(): void {
  writes++;
}

/** Writes through this process so far: a copy kept from before a change is stale. */
export function writeCount(): number {
  return writes;
}

/** The copy, when getResource just answered it, it has a table, and nothing was written since. */
export function stillFresh<R extends { active: boolean }>(r: R): R | undefined {
  const seen = resolved.get(r);
  return seen && seen.writes === writes && performance.now() - seen.at < FRESH_MS && r.active ? r : undefined;
}
