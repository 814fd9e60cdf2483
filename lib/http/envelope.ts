// CKAN's response envelope (contract §1): success 200 with `result`; DatastoreError mapped to
// its status and `__type` in this one place; anything unexpected a logged, generic 500.
import { randomUUID } from "node:crypto";
import { DatastoreError, type ErrorKind } from "../datastore/errors";
import { BadRequest } from "./params";

const STATUS: Record<ErrorKind, number> = { validation: 409, not_found: 404, authorization: 403, integrity: 400 };
const TYPE: Record<ErrorKind, string> = {
  validation: "Validation Error",
  not_found: "Not Found Error",
  authorization: "Authorization Error",
  integrity: "Integrity Error",
};

export const JSON_TYPE = "application/json;charset=utf-8";

export function helpUrl(request: Request, action: string): string {
  return `${new URL(request.url).origin}/api/3/action/help_show?name=${encodeURIComponent(action)}`;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}

/** Pages with more records than this are streamed rather than built as one string. */
const STREAM_RECORDS = 1000;
const ROWS_PER_CHUNK = 500;

export function success(help: string, result: unknown): Response {
  const records = (result as { records?: unknown } | null)?.records;
  if (Array.isArray(records) && records.length > STREAM_RECORDS) return streamed(help, result as Record<string, unknown>, records);
  return json({ help, success: true, result });
}

/**
 * The same JSON as `success`, written a few hundred records at a time: a 32,000-row page never
 * becomes one multi-megabyte string. The envelope is serialised once with a unique marker
 * where the records go, and split there.
 */
function streamed(help: string, result: Record<string, unknown>, records: unknown[]): Response {
  const marker = `__records_${randomUUID()}__`;
  const envelope = JSON.stringify({ help, success: true, result: { ...result, records: marker } });
  const at = envelope.indexOf(JSON.stringify(marker));
  const head = `${envelope.slice(0, at)}[`;
  const tail = `]${envelope.slice(at + marker.length + 2)}`;
  let next = 0;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === 0) controller.enqueue(encoder.encode(head));
      const chunk = records.slice(next, next + ROWS_PER_CHUNK).map((r) => JSON.stringify(r));
      if (chunk.length) controller.enqueue(encoder.encode((next > 0 ? "," : "") + chunk.join(",")));
      next += ROWS_PER_CHUNK;
      if (next >= records.length) {
        controller.enqueue(encoder.encode(tail));
        controller.close();
      }
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": JSON_TYPE } });
}

/** The error response for anything an action or the request reader threw. */
export function failure(help: string, error: unknown): Response {
  if (error instanceof BadRequest) return json(error.message, error.status);
  if (error instanceof DatastoreError) {
    return json({ help, success: false, error: { __type: TYPE[error.kind], ...error.details } }, STATUS[error.kind]);
  }
  const code = (error as { code?: string })?.code ?? "";
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    return json(
      { help, success: false, error: { __type: "Validation Error", database: ["the database is busy with another write; try again"] } },
      409,
      { "retry-after": "1" },
    );
  }
  // A search word FTS5 still reads as a phrase (see sqlite/sql.ts): the word's fault, not ours.
  if (/^fts5: phrase queries are not supported/.test((error as Error)?.message ?? "")) {
    return json({ help, success: false, error: { __type: "Validation Error", query: ["a search word holds characters that split it in two; put a space there instead"] } }, 409);
  }
  if (code === "SQLITE_FULL") {
    return json({ help, success: false, error: { __type: "Validation Error", database: ["the database is full; nothing was written"] } }, 409);
  }
  if (code.startsWith("SQLITE_READONLY")) {
    console.error("datastore: the database became read-only", error);
    return json({ help, success: false, error: { __type: "Validation Error", database: ["the database is read-only; nothing was written"] } }, 409);
  }
  console.error("datastore: internal error", error);
  return json({ help, success: false, error: { __type: "Internal Server Error", message: "Internal Server Error" } }, 500);
}
