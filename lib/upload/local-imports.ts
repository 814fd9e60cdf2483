// Uploads' imports kept by this process: the UploadImportStorage for a store that serves one
// app server (SQLite, whose engine keeps none). The import's commit cannot be decided in the
// store here (the import runs on a thread of its own and holds SQLite's one write lock until it
// commits, so a cancel could not write beside it), nor by asking this thread (which may itself
// be waiting for that lock, to write). So each import has a gate in memory shared with its
// thread: its last step, inside its transaction, takes the gate IMPORTING -> COMMITTING, a
// cancel takes it IMPORTING -> CANCELLED, each one compare-and-swap, so exactly one wins. A
// cancel that finds it COMMITTING waits for `settle` to say how the transaction ended.
import type { UploadImport, UploadImportStorage } from "../datastore/engine";

const IMPORTING = 0;
const COMMITTING = 1;
const CANCELLED = 2;
const COMMITTED = 3;
/** A gate's further slots: where a test holds its import (1 before the decision, 2 after it),
 *  and whether the import has reached that point. */
const HOLD = 1;
const HELD = 2;

/** The import's last step, on its own thread: whether it may commit (else it was cancelled). */
export function decideCommit(gate: Int32Array): boolean {
  const hold = (at: number) => {
    if (Atomics.load(gate, HOLD) !== at) return; // no test holds it: at once
    Atomics.store(gate, HELD, 1);
    Atomics.wait(gate, HOLD, at);
  };
  hold(1);
  const ok = Atomics.compareExchange(gate, 0, IMPORTING, COMMITTING) === IMPORTING;
  hold(2);
  return ok;
}

interface Entry {
  row: Omit<UploadImport, "age">;
  /** When its import was last heard from (ms). */
  at: number;
  gate: Int32Array;
  /** Cancels waiting for a COMMITTING import's transaction to end. */
  waiting?: { ended: Promise<void>; end: () => void };
}

export class LocalImports implements UploadImportStorage {
  private readonly entries = new Map<string, Entry>();
  /** Tests: the next import claimed is held before or after its commit decision, until release(). */
  holdNext: "before" | "after" | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  private view(e: Entry | undefined): UploadImport | undefined {
    return e && { ...e.row, age: (this.now() - e.at) / 1000 };
  }

  /** The entry of attempt `claim`, if it holds the upload. */
  private held(id: string, claim: string): Entry | undefined {
    const e = this.entries.get(id);
    return e?.row.claim === claim ? e : undefined;
  }

  private committing(e: Entry): boolean {
    return Atomics.load(e.gate, 0) === COMMITTING;
  }

  async claim(id: string, owner: string, claim: string, staleSeconds: number): Promise<UploadImport> {
    const e = this.entries.get(id);
    if (!e || (e.row.state === "importing" && !this.committing(e) && this.view(e)!.age > staleSeconds)) {
      const gate = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
      if (this.holdNext) gate[HOLD] = this.holdNext === "before" ? 1 : 2;
      this.holdNext = undefined;
      this.entries.set(id, { row: { uploadId: id, owner, claim, state: "importing", progress: null, resourceId: null }, at: this.now(), gate });
    }
    return this.view(this.entries.get(id))!;
  }

  /** The gate attempt `claim` passes to its import's thread (decideCommit). */
  gate(id: string, claim: string): Int32Array | undefined {
    return this.held(id, claim)?.gate;
  }

  /** Tests: whether upload `id`'s import waits where holdNext held it. */
  isHeld(id: string): boolean {
    const gate = this.entries.get(id)?.gate;
    return !!gate && Atomics.load(gate, HELD) === 1;
  }

  /** Tests: lets an import held go on. */
  release(id: string): void {
    const gate = this.entries.get(id)?.gate;
    if (!gate) return;
    Atomics.store(gate, HOLD, 0);
    Atomics.notify(gate, HOLD);
  }

  async report(id: string, claim: string, progress: unknown): Promise<UploadImport["state"] | undefined> {
    const e = this.held(id, claim);
    if (!e) return undefined;
    e.row.progress = progress;
    e.at = this.now();
    return e.row.state;
  }

  /** What the import's thread does (decideCommit), for a caller on this thread. */
  async finish(id: string, claim: string): Promise<boolean> {
    const e = this.held(id, claim);
    return !!e && e.row.state === "importing" && Atomics.compareExchange(e.gate, 0, IMPORTING, COMMITTING) === IMPORTING;
  }

  /** The transaction of attempt `claim` has ended: committed into `resourceId`, or (null) not. */
  settle(id: string, claim: string, resourceId: string | null): void {
    const e = this.held(id, claim);
    if (!e || !this.committing(e)) return;
    if (resourceId !== null) Object.assign(e.row, { state: "imported", resourceId });
    // Rolled back: a cancel may take it now.
    Atomics.store(e.gate, 0, resourceId !== null ? COMMITTED : IMPORTING);
    e.at = this.now();
    e.waiting?.end();
    e.waiting = undefined;
  }

  async cancel(id: string, owner: string): Promise<{ row: UploadImport | undefined; cancelled: boolean }> {
    for (;;) {
      const e = this.entries.get(id);
      if (!e || e.row.owner !== owner || e.row.state !== "importing") return { row: this.view(e), cancelled: false };
      const was = Atomics.compareExchange(e.gate, 0, IMPORTING, CANCELLED);
      if (was === COMMITTING) {
        if (!e.waiting) {
          let end!: () => void;
          const ended = new Promise<void>((resolve) => (end = resolve));
          e.waiting = { ended, end };
        }
        await e.waiting.ended;
        continue;
      }
      e.row.state = "cancelled";
      e.at = this.now();
      return { row: this.view(e), cancelled: was === IMPORTING };
    }
  }

  async end(id: string, claim: string): Promise<UploadImport["state"] | undefined> {
    const e = this.held(id, claim);
    if (!e || e.row.state === "imported" || this.committing(e)) return undefined;
    this.entries.delete(id);
    return e.row.state;
  }

  async get(id: string): Promise<UploadImport | undefined> {
    return this.view(this.entries.get(id));
  }

  async importing(staleSeconds: number): Promise<string[]> {
    return [...this.entries.values()].filter((e) => e.row.state === "importing" && (this.committing(e) || this.view(e)!.age <= staleSeconds)).map((e) => e.row.uploadId);
  }

  async sweep(seconds: number): Promise<void> {
    for (const [id, e] of this.entries) if (!this.committing(e) && this.view(e)!.age > seconds) this.entries.delete(id);
  }
}

const LOCAL = Symbol.for("datastore-explorer.local-imports");

/** This process's imports: one per process, on globalThis, as Next may load this module twice. */
export function localImports(): LocalImports {
  const g = globalThis as { [LOCAL]?: LocalImports };
  return (g[LOCAL] ??= new LocalImports());
}
