// The progress lines of an import's NDJSON answer: rows per second and seconds left, timed per
// phase (loading, then indexing), at most one line every `everyMs`. Pure, given a clock.
import type { ImportProgress } from "../import/importer";

export interface ProgressLine {
  phase: ImportProgress["phase"];
  rows: number;
  fraction: number;
  rows_per_second: number;
  /** null until a phase is far enough along to tell. */
  seconds_left: number | null;
}

export class ProgressRate {
  private phase = "";
  private phaseStart = 0;
  private last = -Infinity;

  constructor(
    private readonly everyMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The line to send for this report, or null when one went out too recently. */
  next(p: ImportProgress): ProgressLine | null {
    const now = this.now();
    if (p.phase !== this.phase) {
      this.phase = p.phase;
      this.phaseStart = now;
    }
    if (now - this.last < this.everyMs) return null;
    this.last = now;
    const elapsed = (now - this.phaseStart) / 1000;
    const fraction = Math.min(1, Math.max(0, p.fraction));
    const left = fraction >= 1 ? 0 : fraction > 0.01 && elapsed > 0 ? (elapsed * (1 - fraction)) / fraction : null;
    return {
      phase: p.phase,
      rows: p.rows,
      fraction: Math.round(fraction * 1000) / 1000,
      rows_per_second: elapsed > 0 ? Math.round(p.rows / elapsed) : 0,
      seconds_left: left === null ? null : Math.round(left * 10) / 10,
    };
  }
}
