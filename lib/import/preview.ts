// A look at a file before it is imported: the columns and the types the importer would give
// them (the same readers, sample and plan as importFile), the first rows as the reader gives
// them, and the reader's notes. Reads only the sample; a problem within it is an ImportError
// naming the line.
import { planNew } from "./plan";
import { DEFAULT_SAMPLE_ROWS, toPositional, withoutIds } from "./rows";
import { openSource } from "./open";
import { ImportError, RestartImport, type Batch, type Format, type ReadOptions } from "./source";
import type { TypeName } from "../datastore/types";

export interface Preview {
  format: Format;
  columns: { id: string; type: TypeName }[];
  /** The first rows, positional in `columns` order. */
  records: unknown[][];
  notes: string[];
  sampledRows: number;
}

const MAX_RESTARTS = 3;

export async function previewFile(file: string, read: ReadOptions, opts: { rows?: number; sampleRows?: number } = {}): Promise<Preview> {
  const sampleRows = opts.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  let encoding = read.encoding;
  for (let restarts = 0; ; restarts++) {
    const notices: string[] = [];
    const source = withoutIds(await openSource(file, { ...read, encoding }), (m) => notices.push(m));
    try {
      const sample: Batch[] = [];
      let sampled = 0;
      for await (const batch of source.batches()) {
        sample.push(batch);
        sampled += batch.rows.length;
        if (sampled >= sampleRows) break;
      }
      const plan = planNew(source, sample, {}, {}, [], "api");
      const index = new Map(plan.columns.map((c, i) => [c, i]));
      const records: unknown[][] = [];
      for (const batch of sample) {
        if (records.length >= (opts.rows ?? 20)) break;
        const rows = source.keyed ? toPositional(batch, index, plan.columns.length, source, false) : (batch.rows as unknown[][]);
        records.push(...rows.slice(0, (opts.rows ?? 20) - records.length));
      }
      return {
        format: source.format,
        columns: plan.columns.map((id, i) => ({ id, type: plan.types[i] })),
        records: records.map((r) => r.map(plain)),
        notes: [...source.notes, ...notices],
        sampledRows: sampled,
      };
    } catch (e) {
      // Only an encoding can change here (invalid UTF-8 past the start: read it as Latin-1).
      if (!(e instanceof RestartImport) || !e.change.encoding || restarts >= MAX_RESTARTS) {
        throw e instanceof RestartImport ? new ImportError(e.reason) : e;
      }
      encoding = e.change.encoding;
    } finally {
      await source.close();
    }
  }
}

/** A value as JSON can carry it: a big integer as text. */
function plain(v: unknown): unknown {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Date) return v.toISOString();
  return v === undefined ? null : v;
}
