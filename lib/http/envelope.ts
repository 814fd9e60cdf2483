// CKAN's response envelope (contract §1): success 200 with `result`; DatastoreError mapped to
// its status and `__type` in this one place; anything unexpected a logged, generic 500.
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

export function success(help: string, result: unknown): Response {
  return json({ help, success: true, result });
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
