// Reading action parameters from a request as CKAN does (contract §1): GET query strings
// (repeated keys become lists), POST JSON bodies (must be an object), and form posts.
// Anything unreadable is a BadRequest, answered as a bare JSON string with status 400.
import type { Principal } from "../auth/principal";
import { hasBrand, mark } from "../brand";
import { config } from "../config";
import { nestedDeeperThan, type Params } from "../datastore/validate";
import { clientAddress } from "./peer";

/** What the handlers read of a request: a Fetch API Request has all of it, and so does the
 *  server's lighter view of a Node request (lib/server/node-http.ts). */
export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** The whole body at once, or null past `max` bytes: read instead of `body` when present
   *  (the Node server's path, without a web stream). */
  bodyUpTo?(max: number): Promise<Uint8Array | null>;
  /** The body as it arrives, for bodies too big to hold (uploads): read instead of `body` when
   *  present. Stopping early leaves the connection to the handler's answer. */
  stream?(): AsyncIterable<Uint8Array>;
  /** Aborted when the client has gone away (a Fetch Request's own signal, or the Node server's). */
  readonly signal?: AbortSignal;
  /** The peer's address, when the server reads it (`npm start`'s; under Next, peer.ts). */
  readonly clientAddress?: string;
}

/** Whose request this is, for taking turns with costly reads and for its budgets: the token's
 *  id (never its secret) when one was sent, the operator's own token (DATASTORE_ADMIN_TOKEN, it
 *  has no id), else the client's address (peer.ts), under every way of serving. */
export function clientKey(request: ApiRequest, user: Principal): string {
  if (user.tokenId) return `token:${user.tokenId}`;
  return user.scope === "admin" ? "admin" : `address:${clientAddress(request) ?? "unknown"}`;
}

export class BadRequest extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "BadRequest");
  }

  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    mark(this, "BadRequest");
  }
}

export function queryParams(search: URLSearchParams): Params {
  const out: Params = {};
  for (const [key, value] of search) {
    // Own keys, defined rather than assigned: `__proto__=a&__proto__=b` must not set a prototype.
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    if (Array.isArray(prev)) prev.push(value);
    else Object.defineProperty(out, key, { value: prev === undefined ? value : [prev, value], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const JSON_ERROR = "Bad request - JSON Error: ";

/** Read in chunks so an oversized body without a Content-Length is refused early (null). */
async function readStream(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readBody(request: ApiRequest): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > config.maxBodyBytes) {
    throw new BadRequest(`Bad request - Request body is larger than ${config.maxBodyBytes} bytes`, 413);
  }
  const bytes = request.bodyUpTo ? await request.bodyUpTo(config.maxBodyBytes) : await readStream(request.body, config.maxBodyBytes);
  if (bytes === null) throw new BadRequest(`Bad request - Request body is larger than ${config.maxBodyBytes} bytes`, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BadRequest(`${JSON_ERROR}Request body is not valid UTF-8`);
  }
}

function parseJsonObject(text: string): Params {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BadRequest(`${JSON_ERROR}${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    // Named, not echoed: the value may be megabytes long, or too deep to stringify.
    const kind = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    throw new BadRequest(`${JSON_ERROR}Request data JSON decoded to ${kind} but it needs to be a dictionary.`);
  }
  if (nestedDeeperThan(value, config.maxJsonDepth)) {
    throw new BadRequest(`${JSON_ERROR}Request data nests arrays and objects more than ${config.maxJsonDepth} levels deep`);
  }
  return value as Params;
}

export async function bodyParams(request: ApiRequest): Promise<Params> {
  const text = await readBody(request);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const form = queryParams(new URLSearchParams(text));
    const keys = Object.keys(form);
    // Legacy CKAN clients post the JSON body as the single key of a form.
    if (keys.length === 1 && (form[keys[0]] === "" || form[keys[0]] === "1")) return parseJsonObject(keys[0]);
    return form;
  }
  if (type.startsWith("multipart/form-data")) {
    throw new BadRequest(`${JSON_ERROR}multipart uploads are not supported; send a JSON body`);
  }
  if (text.trim() === "") return {};
  return parseJsonObject(text);
}
