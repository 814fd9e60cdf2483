// One connection writes for the whole process, so writes and transactions take turns: a
// transaction holds the lock across its awaits, and nothing else runs SQL on the connection
// meanwhile (it would become part of the transaction, or see it half done).
export class WriteLock {
  private tail: Promise<unknown> = Promise.resolve();
  private depth = 0;

  get held(): boolean {
    return this.depth > 0;
  }

  /** Runs fn when every earlier holder is done. */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const turn = this.tail.then(async () => {
      this.depth++;
      try {
        return await fn();
      } finally {
        this.depth--;
      }
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
