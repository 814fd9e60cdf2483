// CKAN's response envelope (contract §1), the one writer of every answer the API gives
// (actions, dumps, uploads, and an import's NDJSON lines): success 200 with `result`; every
// error mapped to its status and `__type` in this one place; anything unexpected a logged,
// generic 500. Engines map their own failures, so no database codes here.
import { randomUUID } from "node:crypto";
import { DatastoreError, DatastoreUnavailable, type ErrorKind } from "../datastore/errors";
import { EncodedJson } from "../datastore/formats";
import { ImportError } from "../import/source";
import { CutOff, TooLarge } from "../upload/receive";
import { BadRequest, type ApiRequest } from "./params";

const STATUS: Record<ErrorKind, number> = { validation: 409, not_found: 404, authorization: 403, integrity: 400, rate_limit: 429 };
const TYPE: Record<ErrorKind, string> = {
  validation: "Validation Error",
  not_found: "Not Found Error",
  authorization: "Authorization Error",
  integrity: "Integrity Error",
  rate_limit: "Rate Limit Error",
};

/** The status and CKAN `__type` of a DatastoreError. */
export function errorStatus(error: DatastoreError): { status: number; type: string } {
  return { status: STATUS[error.kind], type: TYPE[error.kind] };
}

/** Retry-After for an error that may succeed when sent again. */
export function retryHeaders(error: DatastoreError): Record<string, string> {
  return error.retryAfter === undefined ? {} : { "retry-after": String(error.retryAfter) };
}

const JSON_TYPE = "application/json;charset=utf-8";

export function helpUrl(request: ApiRequest, action: string): string {
  return `${new URL(request.url).origin}/api/3/action/help_show?name=${encodeURIComponent(action)}`;
}

/** CKAN's bare 400 for a path that is not valid percent-encoding, or null when it decodes:
 *  checked before any router reads the path, on every way of serving. */
export function badPath(pathname: string): Response | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return json("Bad request - the path is not valid percent-encoding", 400);
  }
}

/** The bytes of answers built here, so a server can write them without reading the body
 *  back through its stream. */
const bodies = new WeakMap<Response, Uint8Array>();

export function bodyOf(response: Response): Uint8Array | undefined {
  return bodies.get(response);
}

/**
 * A Response whose body stream is made only when something reads it: making one costs more
 * than the rest of the Response, and `npm start`'s server never does (it writes bodyOf).
 * Next (`next start`) and tests read it as any other.
 */
class BytesResponse extends Response {
  #bytes: Uint8Array;
  #read?: Response;

  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  /** The same answer with its body, made once. */
  #full(): Response {
    return (this.#read ??= new Response(this.#bytes as BodyInit, this));
  }

  override get body(): Response["body"] {
    return this.#full().body;
  }
  override get bodyUsed(): boolean {
    return this.#read?.bodyUsed ?? false;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#full().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#full().blob();
  }
  override text(): Promise<string> {
    return this.#full().text();
  }
  override json(): Promise<unknown> {
    return this.#full().json();
  }
  override formData(): Promise<FormData> {
    return this.#full().formData();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#full().arrayBuffer().then((b) => new Uint8Array(b));
  }
  override clone(): Response {
    return new BytesResponse(this.#bytes, this);
  }
}

function withBody(bytes: Uint8Array, status: number, headers: Record<string, string>): Response {
  const response = new BytesResponse(bytes, { status, headers });
  bodies.set(response, bytes);
  return response;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return withBody(Buffer.from(JSON.stringify(body)), status, { "content-type": JSON_TYPE, ...headers });
}

/** Answers up to this size go out as one buffer with a length; bigger ones in parts. */
const ONE_BUFFER_BYTES = 64 * 1024;

/** Stands in for encoded records while the rest of the envelope is serialised. */
const RECORDS_MARKER = `"__records_${randomUUID()}__"`;

/**
 * CKAN's success envelope as JSON text in parts: a search's records, already written out as
 * JSON by a read worker (EncodedJson), are spliced in as they are, never parsed or copied.
 */
export function envelopeParts(help: string, result: unknown): (string | Uint8Array)[] {
  const records = (result as { records?: unknown } | null)?.records;
  if (!(records instanceof EncodedJson)) return [JSON.stringify({ help, success: true, result })];
  const text = JSON.stringify({ help, success: true, result: { ...(result as object), records: JSON.parse(RECORDS_MARKER) } });
  const at = text.indexOf(RECORDS_MARKER);
  return [text.slice(0, at), records.bytes, text.slice(at + RECORDS_MARKER.length)];
}

/** A response whose body is these parts, in one buffer when small. */
export function partsResponse(parts: (string | Uint8Array)[], contentType: string, status = 200): Response {
  const encoder = new TextEncoder();
  const chunks = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const headers = { "content-type": contentType };
  if (size <= ONE_BUFFER_BYTES) return withBody(Buffer.concat(chunks), status, headers);
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  return new Response(body, { status, headers });
}

export function success(help: string, result: unknown): Response {
  return partsResponse(envelopeParts(help, result), JSON_TYPE);
}

export interface FailureOptions {
  /** The status of a refused parameter: 409, but 400 for a dump, as CKAN's dump answers. */
  validationStatus?: number;
}

type Mapped = { status: number; headers?: Record<string, string> } & ({ bare: string } | { error: Record<string, unknown> });

/** Any error as CKAN's answer: a bare string (400s the request reader or the server refused)
 *  or the envelope's `error`, with its status. */
function mapError(error: unknown, opts: FailureOptions): Mapped {
  if (error instanceof BadRequest) return { status: error.status, bare: error.message };
  if (error instanceof CutOff) return { status: 400, bare: `Bad request - ${error.message}` };
  if (error instanceof TooLarge) return { status: 413, error: { __type: "Request Entity Too Large", message: error.message } };
  // An importer's complaint about a file or its options is a Validation Error.
  if (error instanceof ImportError) error = new DatastoreError("validation", { message: error.message });
  if (error instanceof DatastoreError) {
    const { status, type } = errorStatus(error);
    // a dump the rows cannot take in its format keeps its 409 (lib/datastore/dump-conflict.ts)
    const refused = status === 409 && !(error as { keepsStatus?: boolean }).keepsStatus;
    return { status: refused ? (opts.validationStatus ?? 409) : status, error: { __type: type, ...error.details }, headers: retryHeaders(error) };
  }
  if (error instanceof DatastoreUnavailable) {
    // The database went away (PostgreSQL restarting, a cut connection): the next try may work.
    console.error(`datastore: unavailable: ${error.message}`);
    return { status: 503, error: { __type: "Service Unavailable", message: "The datastore is unavailable for the moment; try again shortly." }, headers: { "retry-after": "5" } };
  }
  console.error("datastore: internal error", error);
  return { status: 500, error: { __type: "Internal Server Error", message: "Internal Server Error" } };
}

/** The error response for anything an entry or the request reader threw. */
export function failure(help: string, error: unknown, opts: FailureOptions = {}): Response {
  const m = mapError(error, opts);
  return "bare" in m ? json(m.bare, m.status, m.headers) : json({ help, success: false, error: m.error }, m.status, m.headers);
}

const NDJSON_TYPE = "application/x-ndjson;charset=utf-8";

/**
 * A long job's answer as NDJSON (an upload's import): a line for each report `run` sends as it
 * goes, then exactly one final line, `{success: true, result}` or `{success: false, error}`
 * with the envelope's error (a `message` always). The client going away calls `cancel`.
 */
export function progressStream(run: (send: (report: unknown) => void) => Promise<unknown>, cancel: () => void): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const line = (value: unknown) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        } catch {
          /* the stream was cancelled: the job is stopping */
        }
      };
      try {
        line({ success: true, result: await run(line) });
      } catch (e) {
        const m = mapError(e, {});
        line({ success: false, error: "bare" in m ? { __type: "Bad Request", message: m.bare } : { message: e instanceof Error ? e.message : String(e), ...m.error } });
      }
      try {
        controller.close();
      } catch {
        /* cancelled */
      }
    },
    cancel,
  });
  return new Response(body, { status: 200, headers: { "content-type": NDJSON_TYPE, "cache-control": "no-store" } });
}
