// Helpers for the API contract tests (lib/http/contract-*.test.ts): whole-envelope
// assertions, and a small books table that exercises every column type of contract §2.
import { expect } from "vitest";
import { ADMIN, call, type CallOptions, type CallResult } from "./api";
import { apiOrigin } from "./over-http";

export { apiOrigin };

const JSON_CONTENT_TYPE = "application/json;charset=utf-8";

export function helpFor(action: string): string {
  return `${apiOrigin()}/api/3/action/help_show?name=${action}`;
}

/** Asserts a 200 success envelope and returns its result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ok(res: CallResult, action?: string): any {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  expect(res.headers.get("content-type")).toBe(JSON_CONTENT_TYPE);
  expect(Object.keys(res.body).sort()).toEqual(["help", "result", "success"]);
  expect(res.body.success).toBe(true);
  if (action) expect(res.body.help).toBe(helpFor(action));
  return res.body.result;
}

const TYPES: Record<number, string> = {
  400: "Integrity Error",
  403: "Authorization Error",
  404: "Not Found Error",
  409: "Validation Error",
};

/**
 * Asserts a failure envelope as a whole: `{help, success: false, error: {__type, ...details}}`.
 * `details` may use asymmetric matchers (expect.any, expect.stringMatching…).
 */
export function fails(res: CallResult, status: number, details: Record<string, unknown>, action?: string): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: {
      help: action ? helpFor(action) : expect.stringMatching(new RegExp(`^${helpFor("").replace(/[.?]/g, "\\$&")}`)),
      success: false,
      error: { __type: TYPES[status], ...details },
    },
  });
  expect(res.headers.get("content-type")).toBe(JSON_CONTENT_TYPE);
}

/** 409 with exactly these error keys (messages free, but each a list of strings). */
export function invalid(res: CallResult, ...keys: string[]): void {
  fails(res, 409, Object.fromEntries(keys.map((k) => [k, expect.arrayContaining([expect.any(String)])])));
}

/** 409 for a record the database refused: `records` messages and the 0-based `records_row`. */
export function rowError(res: CallResult, row: number): void {
  fails(res, 409, { records: [expect.any(String)], records_row: row });
}

export const notFound = (res: CallResult) => fails(res, 404, { message: expect.stringMatching(/^Not found: /) });
export const denied = (res: CallResult) => fails(res, 403, { message: expect.stringMatching(/^Access denied: /) });

/** A 400 answered with a bare JSON string (no envelope). */
export function badRequest(res: CallResult, text: string | RegExp): void {
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toBe(JSON_CONTENT_TYPE);
  expect(typeof res.body).toBe("string");
  if (typeof text === "string") expect(res.body).toBe(text);
  else expect(res.body).toMatch(text);
}

export const admin = (action: string, params: Record<string, unknown> = {}, opts: CallOptions = {}) =>
  call(action, params, { token: ADMIN, ...opts });

/** datastore_search as admin (unless a token is given) returning the result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function search(params: Record<string, unknown>, opts: CallOptions = {}): Promise<any> {
  return ok(await call("datastore_search", params, { token: ADMIN, ...opts }), "datastore_search");
}

/** The `_id`s a search returns, in order. */
export async function ids(params: Record<string, unknown>, opts: CallOptions = {}): Promise<number[]> {
  const r = await search({ fields: ["_id"], limit: 1000, ...params }, opts);
  return r.records.map((x: { _id: number }) => x._id);
}

export const BOOK_FIELDS = [
  { id: "title", type: "text", info: { label: "Title" } },
  { id: "author", type: "text" },
  { id: "year", type: "int" },
  { id: "rating", type: "numeric" },
  { id: "in_stock", type: "bool" },
  { id: "updated", type: "timestamp" },
  { id: "tags", type: "text[]" },
  { id: "meta", type: "json" },
  { id: "note", type: "text" },
];

/** Inputs in every accepted spelling; BOOK_ROWS is what search gives back. */
const BOOK_RECORDS = [
  { title: "War and Peace", author: "Tolstoy", year: 1869, rating: 4.5, in_stock: true, updated: "2020-01-03", tags: ["classic", "russian"], meta: { translations: 3 }, note: "long, very long" },
  { title: "Anna Karenina", author: "Tolstoy", year: 1877, rating: "4.2", in_stock: "false", updated: "2020-01-01 10:00:00", tags: ["classic", "russian"], meta: null, note: 'says "hi"' },
  { title: "One Hundred Years of Solitude", author: "Gabriel García Márquez", year: "1967", rating: null, in_stock: "yes", updated: null, tags: ["magical realism"], meta: { awards: ["nobel"] }, note: "line1\nline2" },
  { title: "The Old Man and the Sea", author: "Hemingway", year: 1952, rating: 3.9, in_stock: "", updated: "2021-06-15T08:30Z", tags: [], meta: "just text", note: "" },
  { title: "25", author: "Anonymous", year: "", rating: 9.99, in_stock: "f", updated: "2019-12-31", meta: null, note: null },
  { title: "100% Done_right", author: "O'Brien", year: 2001, rating: 10, in_stock: "t", updated: "2001-01-01", tags: ["a,b"], meta: [1, 2], note: "tab\there" },
];

export const BOOK_ROWS = [
  { _id: 1, title: "War and Peace", author: "Tolstoy", year: 1869, rating: 4.5, in_stock: true, updated: "2020-01-03T00:00:00", tags: ["classic", "russian"], meta: { translations: 3 }, note: "long, very long" },
  { _id: 2, title: "Anna Karenina", author: "Tolstoy", year: 1877, rating: 4.2, in_stock: false, updated: "2020-01-01T10:00:00", tags: ["classic", "russian"], meta: null, note: 'says "hi"' },
  { _id: 3, title: "One Hundred Years of Solitude", author: "Gabriel García Márquez", year: 1967, rating: null, in_stock: true, updated: null, tags: ["magical realism"], meta: { awards: ["nobel"] }, note: "line1\nline2" },
  { _id: 4, title: "The Old Man and the Sea", author: "Hemingway", year: 1952, rating: 3.9, in_stock: null, updated: "2021-06-15T08:30:00", tags: [], meta: "just text", note: "" },
  { _id: 5, title: "25", author: "Anonymous", year: null, rating: 9.99, in_stock: false, updated: "2019-12-31T00:00:00", tags: null, meta: null, note: null },
  { _id: 6, title: "100% Done_right", author: "O'Brien", year: 2001, rating: 10, in_stock: true, updated: "2001-01-01T00:00:00", tags: ["a,b"], meta: [1, 2], note: "tab\there" },
];

/** The fields as search reports them (PG type names), `_id` first. */
export const BOOK_SEARCH_FIELDS = [
  { id: "_id", type: "int" },
  { id: "title", type: "text", info: { label: "Title" } },
  { id: "author", type: "text" },
  { id: "year", type: "int4" },
  { id: "rating", type: "numeric" },
  { id: "in_stock", type: "bool" },
  { id: "updated", type: "timestamp" },
  { id: "tags", type: "_text" },
  { id: "meta", type: "json" },
  { id: "note", type: "text" },
];

/** Creates the books table (public unless `private`), returns its id. */
export async function createBooks(extra: Record<string, unknown> = {}, isPrivate = false): Promise<string> {
  const res = await admin("datastore_create", {
    resource: { name: "books", description: "Some books", private: isPrivate },
    fields: BOOK_FIELDS,
    records: BOOK_RECORDS,
    ...extra,
  });
  return ok(res).resource_id;
}

/** Creates a token with a scope as admin; returns the secret. */
export async function token(scope: "read" | "write" | "admin", extra: Record<string, unknown> = {}): Promise<string> {
  return ok(await admin("api_token_create", { name: `${scope} token`, scope, ...extra })).token;
}
