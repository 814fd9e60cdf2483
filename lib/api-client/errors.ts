// API failures as one error type, and their explanation in plain words for the page (in the
// reader's language; the server's own messages are quoted as they come).
import { english, type Translate } from "@/lib/i18n";

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

/** What failed to load, as the explanation names it: a kind of thing, or a resource (or its map) by name. */
export type Subject = "resource" | "list" | "chart" | "pivot" | "summary" | "view" | "savedView" | { name: string } | { mapOf: string };

/** What went wrong and what to do, for people who don't read HTTP status codes, in the reader's language. */
export function explainError(error: unknown, what: Subject = "resource", t: Translate = english): Explanation {
  if (!(error instanceof ApiError)) {
    return { title: t("error.generic"), body: error instanceof Error ? error.message : String(error) };
  }
  const subject = (state: "private" | "notFound") =>
    typeof what === "string"
      ? t(`error.${state}.${what}`)
      : "name" in what
        ? t(`error.${state}.named`, { name: what.name })
        : t(`error.${state}.mapOf`, { name: what.mapOf });
  switch (error.kind) {
    case "network":
      return { title: t("error.network"), body: t("error.networkBody") };
    case "forbidden":
      return { title: subject("private"), body: t("error.privateBody") };
    case "not-found":
      return { title: subject("notFound"), body: t("error.notFoundBody") };
    case "invalid":
      return { title: t("error.invalid"), body: t("error.invalidBody", { reasons: errorLines(error).join(". ") }) };
    default:
      return { title: t("error.server"), body: t("error.serverBody") };
  }
}
