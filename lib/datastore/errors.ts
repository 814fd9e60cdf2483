// The one error type of the domain. Actions throw it; lib/http maps it to CKAN's envelope
// and status once (validation 409, not found 404, authorization 403, integrity 400).

export type ErrorKind = "validation" | "not_found" | "authorization" | "integrity";

export type ErrorDetails = Record<string, unknown>;

export class DatastoreError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly details: ErrorDetails,
    message?: string,
  ) {
    super(message ?? kind);
    this.name = "DatastoreError";
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
