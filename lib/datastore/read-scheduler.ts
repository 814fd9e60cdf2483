// Which read a free reader (a SQLite worker, a PostgreSQL connection) takes next, for both
// engines. Two lanes: cheap reads in arrival order, and expensive reads, at most
// `expensiveLimit` running at once and taken in turn per client (round robin), so readers
// beyond that limit are always there for cheap reads and one client's slow queries never hold
// up another's. While fewer than the limit run, a waiting expensive read goes first:
// a steady stream of cheap reads cannot starve it. Expensive reads are timed per client for
// the read gate (read-gate.ts), which may refuse a client's next one past its budget.
import { DatastoreError } from "./errors";
import { readGate } from "./read-gate";

export type Lane = "cheap" | "expensive";

export class ReadScheduler<T> {
  private cheap: T[] = [];
  /** Waiting expensive reads per client; the Map's order is the turn order. */
  private expensive = new Map<string, T[]>();
  private runningExpensive = 0;
  /** When each client's running expensive reads started. Paired oldest first: a pairing may
   *  be off, but a client's total time is exact. */
  private started = new Map<string, number[]>();

  constructor(
    readonly expensiveLimit: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Why `client` may not start another expensive read now (429), if so: before it queues. */
  refusal(client: string): DatastoreError | undefined {
    const seconds = client ? (readGate()?.refusal(client) ?? 0) : 0;
    return seconds > 0 ? DatastoreError.tooMany("expensive", seconds) : undefined;
  }

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
      const starts = this.started.get(client);
      if (starts) starts.push(this.now());
      else this.started.set(client, [this.now()]);
      return { job, lane: "expensive" };
    }
    const job = this.cheap.shift();
    return job === undefined ? undefined : { job, lane: "cheap" };
  }

  /** A read taken by `next` ended (answered, failed, timed out or sent to the other lane). */
  finished(lane: Lane, client = ""): void {
    if (lane !== "expensive") return;
    this.runningExpensive--;
    const starts = this.started.get(client);
    const start = starts?.shift();
    if (starts?.length === 0) this.started.delete(client);
    if (start !== undefined && client) readGate()?.charge(client, this.now() - start);
  }

  get waiting(): { cheap: number; expensive: number } {
    let expensive = 0;
    for (const queue of this.expensive.values()) expensive += queue.length;
    return { cheap: this.cheap.length, expensive };
  }
}
