// API failures as one error type, and their explanation in plain words for the page.

export type ApiErrorKind = "network" | "forbidden" | "not-found" | "invalid" | "server";

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    /** CKAN's per-parameter messages for a 409, e.g. {filters: ["..."]}. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function kindForStatus(status: number): ApiErrorKind {
  if (status === 403 || status === 401) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 409 || status === 400) return "invalid";
  return "server";
}

/** Builds an ApiError from a failed response body (CKAN envelope, or a bare 400 string). */
export function errorFromBody(status: number, body: unknown): ApiError {
  const kind = kindForStatus(status);
  if (typeof body === "string") return new ApiError(kind, status, body);
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (error && typeof error === "object") {
    const { __type, message, ...rest } = error;
    const text = typeof message === "string" ? message : String(__type ?? `HTTP ${status}`);
    return new ApiError(kind, status, text, rest);
  }
  return new ApiError(kind, status, `HTTP ${status}`);
}

// keys whose messages name what they concern themselves: a refused row's error, a key not
// found, a busy or full database, the envelope's message
const STANDS_ALONE = new Set(["records", "key", "database", "message"]);

/**
 * The API's own words for a failure, one line per message. CKAN keys a 409's messages by the
 * parameter they concern: resource_patch answers {name: ["Missing value"]}, which needs its key
 * ("name: Missing value"); datastore_upsert answers {records: ["invalid input syntax…"],
 * records_row: 0} or {key: ['key "…" not found']}, which read on their own. Values that are not
 * messages (records_row, an integrity error's data) are left out.
 */
export function errorLines(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
  const lines = Object.entries(error.details).flatMap(([key, value]) => {
    if (key === "data") return [];
    const messages = (Array.isArray(value) ? value : [value]).filter((m): m is string => typeof m === "string");
    return messages.map((m) => (STANDS_ALONE.has(key) ? m : `${key}: ${m}`));
  });
  return lines.length ? lines : [error.message];
}

export type Explanation = { title: string; body: string };

/** What went wrong and what to do, for people who don't read HTTP status codes. */
export function explainError(error: unknown, what = "this resource"): Explanation {
  if (!(error instanceof ApiError)) {
    return { title: "Something went wrong", body: error instanceof Error ? error.message : String(error) };
  }
  switch (error.kind) {
    case "network":
      return {
        title: "The server could not be reached",
        body: "Check your connection, then try again.",
      };
    case "forbidden":
      return {
        title: `${what[0].toUpperCase()}${what.slice(1)} is private`,
        body: "To see it, paste an API token that may read it into the Token box at the top of the page and choose “Use token”. Ask the data owner for a token if you don't have one.",
      };
    case "not-found":
      return {
        title: `${what[0].toUpperCase()}${what.slice(1)} was not found`,
        body: "It may have been deleted, or the link may be mistyped. Pick another one from the Resource list.",
      };
    case "invalid": {
      return {
        title: "The server could not use this view",
        body: `${errorLines(error).join(". ")}. Change or remove the search, filters, sort or columns and try again.`,
      };
    }
    default:
      return { title: "The server ran into a problem", body: "Try again in a moment." };
  }
}
