// What a batch from a reader becomes before it is loaded, the same on the main thread and in
// the load worker (load-worker.ts): rows in the plan's column order, with a value that its
// column would hold only with a loss turned into a restart (a wider type) or an error naming
// the line; a loader's refusal is worded the same way.
import { DatastoreError } from "../datastore/errors";
import type { TypeName } from "../datastore/types";
import { fitsLosslessly, widen } from "./infer";
import { ImportError, RestartImport, type Batch, type Source } from "./source";
import { textTypeHint, type Wording } from "./wording";

export const DEFAULT_SAMPLE_ROWS = 10_000;

/** The columns being loaded, their types, and which of them the importer inferred. */
export interface Plan {
  columns: string[];
  types: TypeName[];
  /** Columns whose type was inferred here, so a later value may widen it. */
  inferred: boolean[];
}

/** The import options error messages speak of. */
export interface RowRules {
  sampleRows?: number;
  append?: boolean;
  /** Whose words the messages use: the command line's (default) or the upload API's. */
  wording?: Wording;
}

export function describe(e: DatastoreError): string {
  // A bulk-load failure carries its position (`records_row`, `field`) for the caller to word.
  const positional = "records_row" in e.details;
  return Object.entries(e.details)
    .filter(([k]) => !positional || (k !== "records_row" && k !== "field"))
    .map(([k, v]) => (Array.isArray(v) ? v.join("; ") : k === "message" ? String(v) : `${k}: ${JSON.stringify(v)}`))
    .join("; ")
    .replace(/^(Not found|Access denied): /, "");
}

/**
 * Dumps (ours and CKAN's) lead with `_id`, which no field may be called: the datastore
 * assigns ids, so that column is left out and a dump loads back as it was written.
 */
export function withoutIds(source: Source, notice?: (message: string) => void): Source {
  const message = 'column "_id" is not loaded: the datastore numbers the rows itself';
  if (source.keyed) {
    let told = false;
    return {
      ...source,
      async *batches() {
        for await (const batch of source.batches()) {
          for (const rec of batch.rows as Record<string, unknown>[]) {
            if (!("_id" in rec)) continue;
            delete rec._id;
            if (!told) notice?.(message);
            told = true;
          }
          yield batch;
        }
      },
    };
  }
  const at = source.columns.indexOf("_id");
  if (at < 0) return source;
  notice?.(message);
  return {
    ...source,
    columns: source.columns.filter((_, i) => i !== at),
    declared: source.declared?.filter((_, i) => i !== at),
    async *batches() {
      for await (const batch of source.batches()) {
        for (const row of batch.rows as unknown[][]) row.splice(at, 1);
        yield batch;
      }
    },
  };
}

/** Keyed records (JSON) to rows in column order. A key the plan lacks: a restart adds it. */
export function toPositional(batch: Batch, index: Map<string, number>, width: number, source: Source, canAdd: boolean): unknown[][] {
  const records = batch.rows as Record<string, unknown>[];
  const out: unknown[][] = new Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const rec = records[r];
    const row = new Array<unknown>(width).fill(null);
    for (const k in rec) {
      const i = index.get(k);
      if (i === undefined) {
        const where = `${source.unit} ${batch.positions[r]}`;
        if (canAdd) throw new RestartImport(`${where}: new field "${k}"`, { addColumns: [k] });
        throw new ImportError(`${where}: field "${k}" is not in the resource`);
      }
      row[i] = rec[k] ?? null;
    }
    out[r] = row;
  }
  return out;
}

export function restartOrFail(plan: Plan, c: number, value: unknown, where: string, rules: RowRules, message?: string): Error {
  const field = plan.columns[c];
  const type = plan.types[c];
  if (plan.inferred[c]) {
    const wider = widen(type, value);
    if (wider) {
      return new RestartImport(`${where}: ${JSON.stringify(value)} does not fit column "${field}" (${type}); making it ${wider}`, {
        types: { [field]: wider },
      });
    }
  }
  const hint = plan.inferred[c]
    ? ` (type inferred from the first ${rules.sampleRows ?? DEFAULT_SAMPLE_ROWS} rows; ${textTypeHint(rules.wording, field)})`
    : rules.append
      ? ` (the resource's field is ${type})`
      : ` (declared ${type})`;
  return new ImportError(`${where}, column "${field}": ${message ?? `${JSON.stringify(value)} is not a valid ${type}`}${hint}`);
}

/** A source's batches as rows for a loader, in the plan's column order. */
export class RowShaper {
  private readonly index: Map<string, number>;
  /** Inferred int and date columns: the casts would round a fraction or drop a time silently. */
  private readonly lossy: number[];

  constructor(
    private readonly plan: Plan,
    private readonly source: Source,
    private readonly rules: RowRules,
    /** A new resource: a key the plan lacks restarts the import with it. */
    private readonly canAdd: boolean,
  ) {
    this.index = new Map(plan.columns.map((c, i) => [c, i]));
    this.lossy = plan.types.map((t, i) => (plan.inferred[i] && (t === "int4" || t === "int8" || t === "date") ? i : -1)).filter((i) => i >= 0);
  }

  rows(batch: Batch): unknown[][] {
    const { plan, source } = this;
    const rows = source.keyed ? toPositional(batch, this.index, plan.columns.length, source, this.canAdd) : (batch.rows as unknown[][]);
    for (const c of this.lossy) {
      for (let r = 0; r < rows.length; r++) {
        const v = rows[r][c];
        if (v !== null && !fitsLosslessly(plan.types[c], v)) {
          throw restartOrFail(plan, c, v, `${source.unit} ${batch.positions[r]}`, this.rules);
        }
      }
    }
    return rows;
  }

  /** What a loader's refusal of `rows` (from `batch`) means, in the importer's words. */
  failure(e: unknown, rows: unknown[][], batch: Batch): unknown {
    if (!(e instanceof DatastoreError)) return e;
    const row = e.details.records_row;
    if (typeof row !== "number") return new ImportError(describe(e));
    const where = `${this.source.unit} ${batch.positions[row]}`;
    const c = typeof e.details.field === "string" ? this.plan.columns.indexOf(e.details.field) : -1;
    if (c < 0) return new ImportError(`${where}: ${describe(e)}`);
    return restartOrFail(this.plan, c, rows[row][c], where, this.rules, describe(e));
  }
}
