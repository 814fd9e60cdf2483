// Which read a free reader (a SQLite worker, a PostgreSQL connection) takes next, for both
// engines. Two lanes: cheap reads in arrival order, and expensive reads, at most
// `expensiveLimit` running at once and taken in turn per client (round robin), so readers
// beyond that limit are always there for cheap reads and one client's slow queries never hold
// up another's. While fewer than the limit run, a waiting expensive read goes first:
// a steady stream of cheap reads cannot starve it.

export type Lane = "cheap" | "expensive";

export class ReadScheduler<T> {
  private cheap: T[] = [];
  /** Waiting expensive reads per client; the Map's order is the turn order. */
  private expensive = new Map<string, T[]>();
  private runningExpensive = 0;

  constructor(readonly expensiveLimit: number) {}

  push(job: T, lane: Lane, client: string): void {
    if (lane === "cheap") {
      this.cheap.push(job);
      return;
    }
    const queue = this.expensive.get(client);
    if (queue) queue.push(job);
    else this.expensive.set(client, [job]);
  }

  /** The read to start on a free worker (counted as running until `finished`), if any. */
  next(): { job: T; lane: Lane } | undefined {
    if (this.runningExpensive < this.expensiveLimit && this.expensive.size > 0) {
      const [client, queue] = this.expensive.entries().next().value!;
      const job = queue.shift()!;
      // The client's turn is over: to the back of the line, or out of it.
      this.expensive.delete(client);
      if (queue.length) this.expensive.set(client, queue);
      this.runningExpensive++;
      return { job, lane: "expensive" };
    }
    const job = this.cheap.shift();
    return job === undefined ? undefined : { job, lane: "cheap" };
  }

  /** A read taken by `next` ended (answered, failed, timed out or sent to the other lane). */
  finished(lane: Lane): void {
    if (lane === "expensive") this.runningExpensive--;
  }

  get waiting(): { cheap: number; expensive: number } {
    let expensive = 0;
    for (const queue of this.expensive.values()) expensive += queue.length;
    return { cheap: this.cheap.length, expensive };
  }
}
