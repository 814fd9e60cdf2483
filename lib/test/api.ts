// Test helpers: a fresh datastore per suite (a SQLite file, or a PostgreSQL schema in vitest's
// postgres project) and a caller that sends real Requests through the app's route handlers
// (app/api/action/[action]/route.ts and its /api/3 twin).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatastore } from "../datastore";
import { checksumFile } from "../datastore/sqlite/test-support";
import type { StoreRef } from "./fuzz";
import { schemaChecksum } from "./pg-support";
import { dispatch } from "./routes";

export { viaNextStart } from "./over-http";

export const ADMIN = "test-admin-token";

/** The suites run on PostgreSQL: DATASTORE_DATABASE_URL is set (vitest's postgres project,
 *  lib/test/pg-setup.ts). Tests that only mean something on SQLite skip with `it.skipIf(isPostgres)`. */
export const isPostgres = Boolean(process.env.DATASTORE_DATABASE_URL?.trim());

/** Points the datastore at a new, empty store: DATASTORE_DB at a new temporary file (returned),
 *  or under PostgreSQL DATASTORE_PG_SCHEMA at a new schema (its name returned), which the engine
 *  creates on open. The next getDatastore() opens it; the previous engine is forgotten at once
 *  and closed in the background. */
export function freshDb(): string {
  void closeDatastore().catch(() => undefined);
  process.env.DATASTORE_ADMIN_TOKEN = ADMIN;
  process.env.DATASTORE_SAMPLE_DATA = "0";
  if (isPostgres) {
    const schema = `t_${randomBytes(8).toString("hex")}`;
    process.env.DATASTORE_PG_SCHEMA = schema;
    return schema;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "datastore-test-"));
  const file = path.join(dir, "test.db");
  process.env.DATASTORE_DB = file;
  process.env.DATASTORE_READ_WORKERS ??= "0"; // reads in-process; read-pool.test.ts covers the workers
  return file;
}

/** The store freshDb() last chose, as the fuzz judge's checksum reads it. */
export function currentStore(): StoreRef {
  const url = process.env.DATASTORE_DATABASE_URL?.trim();
  return url ? { databaseUrl: url, schema: process.env.DATASTORE_PG_SCHEMA ?? "datastore" } : process.env.DATASTORE_DB!;
}

/** A checksum of everything the current store holds, to show a rejected write changed nothing. */
export async function storeChecksum(): Promise<string> {
  const store = currentStore();
  return typeof store === "string" ? checksumFile(store) : schemaChecksum(store.databaseUrl, store.schema);
}

export interface CallOptions {
  method?: "GET" | "POST" | "PUT";
  token?: string;
  path?: string;
  body?: string;
  contentType?: string;
}

export interface CallResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/** Calls an action: POST with a JSON body, or GET with `params` as the query string. */
export async function call(action: string, params: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallResult> {
  const method = opts.method ?? "POST";
  const base = `http://localhost${opts.path ?? "/api/action"}/${action}`;
  let url = base;
  const init: RequestInit = { method, headers: {} as Record<string, string> };
  const headers = init.headers as Record<string, string>;
  if (opts.token) headers.authorization = opts.token;
  if (method === "GET") {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (Array.isArray(v)) v.forEach((x) => qs.append(k, String(x)));
      else qs.append(k, typeof v === "object" ? JSON.stringify(v) : String(v));
    }
    url = `${base}?${qs}`;
  } else {
    init.body = opts.body ?? JSON.stringify(params);
    headers["content-type"] = opts.contentType ?? "application/json";
  }
  const res = await dispatch(new Request(url, init));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Creates a resource as admin and returns its id. */
export async function createResource(params: Record<string, unknown>): Promise<string> {
  const res = await call("datastore_create", { resource: { name: "test" }, ...params }, { token: ADMIN });
  if (res.status !== 200) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body.result.resource_id;
}

export interface SendOptions {
  method?: string;
  token?: string;
  /** A raw body (a file's bytes, a stream); sent as it is. */
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Sends a request with a raw body (an upload) to any route, as a client would. */
export async function send(pathAndQuery: string, opts: SendOptions = {}): Promise<CallResult & { text: string }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = opts.token;
  const init: RequestInit & { duplex?: "half" } = { method: opts.method ?? "POST", headers, body: opts.body };
  if (opts.body instanceof ReadableStream) init.duplex = "half";
  const res = await dispatch(new Request(`http://localhost${pathAndQuery}`, init));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON (NDJSON, a bare string): keep the text */
  }
  return { status: res.status, body, headers: res.headers, text };
}
