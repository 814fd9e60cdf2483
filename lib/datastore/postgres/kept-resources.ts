// Catalog copies kept per app server, so that a search names its resource without a catalog
// round trip (../engine.ts keptResource). A kept copy may be behind a change another app server
// made: the search that uses it checks it against the catalog in its own statement
// (one-statement.ts) and reads nothing when it is behind. A write through this engine drops
// every copy (engine.ts). Off with a replica: a read there must know the
// primary's version as it is now (read-pool.ts), which only a lookup on the primary tells.
import type { PgResource } from "./resource";

/** Names kept at most; past it the map starts again (names of many resources, or of none). */
const MAX_KEPT = 1000;

export class KeptResources {
  private readonly kept = new Map<string, PgResource>();
  /** The name each copy was looked up by, kept or not. */
  private readonly names = new WeakMap<object, string>();

  constructor(private readonly enabled: boolean) {}

  /** A copy getResource just read from the catalog under `name` (undefined: none). */
  remember(name: string, r: PgResource | undefined): PgResource | undefined {
    if (!r || !r.active) {
      this.kept.delete(name);
      return r;
    }
    this.names.set(r, name);
    if (this.enabled) {
      if (this.kept.size >= MAX_KEPT && !this.kept.has(name)) this.kept.clear();
      this.kept.set(name, r);
    }
    return r;
  }

  get(name: string): PgResource | undefined {
    return this.kept.get(name);
  }

  clear(): void {
    this.kept.clear();
  }

  /** The name `r` was looked up by (its id for a copy from elsewhere): what a read checks it against. */
  nameOf(r: object & { id: string }): string {
    return this.names.get(r) ?? r.id;
  }
}
