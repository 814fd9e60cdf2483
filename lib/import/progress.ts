// What the importer shows a person: a progress bar with rows/s and ETA on a terminal (or a
// plain line every few seconds when asked for progress without one), and the one-line summary.
import path from "node:path";
import type { ImportProgress, ImportResult } from "./importer";

function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export class ProgressDisplay {
  private phase = "";
  private phaseStart = 0;
  private last = -Infinity;
  private shown = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly mode: "bar" | "lines" | "off",
  ) {}

  update(p: ImportProgress): void {
    if (this.mode === "off") return;
    const now = performance.now();
    if (p.phase !== this.phase) {
      if (this.shown && this.mode === "bar") this.out.write("\n");
      this.phase = p.phase;
      this.phaseStart = now;
      this.last = -Infinity;
    }
    if (p.rows === 0) return; // the start of a phase: only its clock starts
    const finished = p.fraction >= 1;
    if (!finished && now - this.last < (this.mode === "bar" ? 100 : 2000)) return;
    this.last = now;
    const elapsed = (now - this.phaseStart) / 1000;
    const rate = elapsed > 0 ? p.rows / elapsed : 0;
    const eta = p.fraction > 0.01 ? (elapsed * (1 - p.fraction)) / p.fraction : NaN;
    const stats = `${String(Math.floor(p.fraction * 100)).padStart(3)}%  ${formatCount(p.rows)} rows  ${formatCount(rate)} rows/s  ETA ${
      Number.isFinite(eta) ? formatDuration(eta) : "-:--"
    }`;
    if (this.mode === "lines") {
      this.out.write(`${p.phase} ${stats}\n`);
      return;
    }
    const label = p.phase.padEnd(9);
    const room = Math.max(10, Math.min(40, (this.out.columns ?? 80) - label.length - stats.length - 4));
    const filled = Math.round(room * Math.min(1, p.fraction));
    this.out.write(`\r${label}[${"█".repeat(filled)}${"░".repeat(room - filled)}] ${stats}\x1b[K`);
    this.shown = true;
  }

  /** Ends the bar's line so what follows starts on a fresh one. */
  end(): void {
    if (this.shown && this.mode === "bar") this.out.write("\n");
    this.shown = false;
    this.phase = ""; // a restarted load times its rate afresh
  }
}

export function summaryLine(file: string, r: ImportResult): string {
  const rate = r.seconds > 0 ? r.rows / r.seconds : r.rows;
  const fields = r.fields.map((f) => `${f.id} ${f.type}`).join(", ");
  const notes = [r.format, ...r.notes].join(", ");
  const verb = r.created ? "into new resource" : "appended to resource";
  return (
    `Imported ${formatCount(r.rows)} row${r.rows === 1 ? "" : "s"} from ${path.basename(file)} (${notes}) ${verb} ${r.resourceId} "${r.name}" ` +
    `in ${r.seconds.toFixed(1)} s, ${formatCount(rate)} rows/s; fields: ${fields}`
  );
}
