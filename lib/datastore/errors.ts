// The one error type of the domain. Actions and engines throw it; lib/http maps it to CKAN's
// envelope and status once (validation 409, not found 404, authorization 403, integrity 400,
// rate limit 429).
// An engine turns its own failures (busy, full, read-only, constraint) into these kinds.
// Branded (lib/brand.ts): `instanceof` holds across bundles and module copies.
import { hasBrand, mark } from "../brand";

export type ErrorKind = "validation" | "not_found" | "authorization" | "integrity" | "rate_limit";

export type ErrorDetails = Record<string, unknown>;

export class DatastoreError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "DatastoreError");
  }

  /** Seconds after which the same request may succeed (sent as Retry-After). */
  retryAfter?: number;

  constructor(
    readonly kind: ErrorKind,
    readonly details: ErrorDetails,
    message?: string,
  ) {
    super(message ?? summary(details) ?? kind);
    this.name = "DatastoreError";
    mark(this, "DatastoreError");
  }

  /** 409 Validation Error: one key per bad input, each a list of messages. */
  static validation(details: ErrorDetails): DatastoreError {
    return new DatastoreError("validation", details);
  }

  static field(key: string, message: string): DatastoreError {
    return new DatastoreError("validation", { [key]: [message] });
  }

  static notFound(detail: string): DatastoreError {
    return new DatastoreError("not_found", { message: `Not found: ${detail}` });
  }

  static denied(detail: string): DatastoreError {
    return new DatastoreError("authorization", { message: `Access denied: ${detail}` });
  }

  static integrity(message: string, data: unknown): DatastoreError {
    return new DatastoreError("integrity", { message, data });
  }

  /** The store is busy with another writer: nothing was written, try again shortly. */
  static busy(): DatastoreError {
    const e = DatastoreError.field("database", "the database is busy with another write; try again");
    e.retryAfter = 1;
    return e;
  }

  /** The store cannot take writes (full, read-only): nothing was written. */
  static cannotWrite(why: string): DatastoreError {
    return DatastoreError.field("database", `the database is ${why}; nothing was written`);
  }

  /** A read was given a copy of its resource older than the store's (another app server
   *  changed it meanwhile): nothing was read. context.ts readResource looks the resource up
   *  again and runs the request once more; should this still reach a client, it may retry. */
  static changed(): DatastoreError {
    const e = DatastoreError.field("resource_id", "the resource changed while it was being read; try again");
    e.retryAfter = 1;
    e.changed = true;
    return e;
  }

  /** A client past one of its budgets (lib/datastore/rate-budget.ts): 429, nothing was done.
   *  `policy`: the budget's name in the RateLimit headers. */
  static tooMany(policy: string, seconds: number): DatastoreError {
    const what = policy === "expensive" ? "expensive reads (scans, big sorts and counts; cheap pages still answer)" : "requests";
    const e = new DatastoreError("rate_limit", { message: `Rate limit: this client's budget of ${what} is spent for now; try again in ${seconds} s`, policy });
    e.retryAfter = seconds;
    return e;
  }

  /** Set by changed(). */
  changed?: boolean;

  /** A query past the time budget. */
  static tooLong(ms: number): DatastoreError {
    return DatastoreError.field("query", `Query took too long (over ${ms} ms): narrow it with filters or a search, or ask for fewer rows`);
  }
}

/** A DatastoreError as plain data, to cross to another thread (a read worker, an import's):
 *  its kind, details, message and Retry-After survive, so its answer is the same. */
export interface WireError {
  kind: ErrorKind;
  details: ErrorDetails;
  message: string;
  retryAfter?: number;
}

export function toWire(e: DatastoreError): WireError {
  return { kind: e.kind, details: e.details, message: e.message, retryAfter: e.retryAfter };
}

export function fromWire(w: WireError): DatastoreError {
  const e = new DatastoreError(w.kind, w.details, w.message);
  if (w.retryAfter !== undefined) e.retryAfter = w.retryAfter;
  return e;
}

/** The details as one line ("records: bad value; records_row: 3"), for logs and CLIs. */
function summary(details: ErrorDetails): string | undefined {
  const parts = Object.entries(details).map(([k, v]) => (k === "message" ? String(v) : `${k}: ${Array.isArray(v) ? v.join("; ") : JSON.stringify(v)}`));
  return parts.length ? parts.join("; ") : undefined;
}

/** The store cannot be used at all (start-up): the message says why and what to do. */
export class DatastoreUnavailable extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "DatastoreUnavailable");
  }

  constructor(message: string) {
    super(message);
    this.name = "DatastoreUnavailable";
    mark(this, "DatastoreUnavailable");
  }
}

/** Collects per-key validation messages and throws them together. */
export class ErrorBag {
  private errors: Record<string, string[]> = {};

  add(key: string, message: string): void {
    (this.errors[key] ??= []).push(message);
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw DatastoreError.validation(this.errors);
  }
}
