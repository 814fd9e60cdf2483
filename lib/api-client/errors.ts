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

function detailLines(details: Record<string, unknown>): string[] {
  return Object.entries(details)
    .filter(([key]) => key !== "data")
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join("; ") : JSON.stringify(value)}`);
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
      const lines = detailLines(error.details);
      return {
        title: "The server could not use this view",
        body: `${lines.length ? lines.join(". ") : error.message}. Change or remove the search, filters, sort or columns and try again.`,
      };
    }
    default:
      return { title: "The server ran into a problem", body: "Try again in a moment." };
  }
}
