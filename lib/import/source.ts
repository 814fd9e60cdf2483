// What every file reader gives the importer: column names, batches of rows with the
// position each row came from (for error messages), and how far through the file it is.
// Readers are streaming: a batch is dropped once loaded, so memory stays flat.
import { hasBrand, mark } from "../brand";
import type { TypeName } from "../datastore/types";

export type Format = "csv" | "tsv" | "json" | "ndjson" | "xlsx" | "parquet";

export const FORMATS: Format[] = ["csv", "tsv", "json", "ndjson", "xlsx", "parquet"];

/** A problem with the input that the user can fix; the message names the place. */
export class ImportError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "ImportError");
  }

  constructor(message: string) {
    super(message);
    this.name = "ImportError";
    mark(this, "ImportError");
  }
}

/** The import was stopped (Ctrl-C) and rolled back. */
export class ImportInterrupted extends ImportError {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "ImportInterrupted");
  }

  constructor() {
    super("interrupted: nothing was loaded");
    mark(this, "ImportInterrupted");
  }
}

/** Thrown by a reader when the import must start over with different settings. */
export class RestartImport extends Error {
  constructor(
    readonly reason: string,
    readonly change: { encoding?: string; addColumns?: string[]; types?: Record<string, TypeName> },
  ) {
    super(reason);
  }
}

export interface Batch {
  /** Positional rows (values in `columns` order) or, for keyed sources, plain objects. */
  rows: unknown[][] | Record<string, unknown>[];
  /** Where each row starts in the file, in the source's `unit`. */
  positions: ArrayLike<number>;
}

export interface Source {
  readonly format: Format;
  /** Column names in file order; empty for keyed sources (JSON), whose keys come from rows. */
  readonly columns: string[];
  readonly keyed: boolean;
  /** Types the file itself declares (parquet), by column; undefined entries are inferred. */
  readonly declared?: (TypeName | undefined)[];
  /** What positions count: "line" (text files), "row" (sheets, parquet). */
  readonly unit: "line" | "row";
  /** Facts worth a word in the summary (encoding, delimiter). */
  readonly notes: string[];
  batches(): AsyncGenerator<Batch>;
  /** Work done and total, in bytes or rows, for the progress bar. */
  progress(): { done: number; total: number };
  close(): Promise<void>;
}

export interface ReadOptions {
  format?: Format;
  delimiter?: string;
  encoding?: string;
  /** Rows per batch handed to the loader. */
  batchRows?: number;
}

export const DEFAULT_BATCH_ROWS = 8192;
