// Node's http request and response to and from what the action and dump handlers speak: an
// ApiRequest in (a Fetch Request is one too) and a Fetch Response out.
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyOf } from "../http/envelope";
import type { ApiRequest } from "../http/params";

/**
 * The handlers' view of a Node request (method, URL, headers, body), lighter than a Fetch API
 * Request: the body is read from the socket's own chunks (`bodyUpTo`), with no web stream, or
 * streamed (`stream`, uploads). Call `done` once answered: a body left unread (a 413) is read
 * and dropped, as Node does, so the client gets its answer and keeps the connection; a body
 * the handler streamed is left as the handler left it (it closes the connection when it stops
 * early, rather than read gigabytes it refused).
 */
export function toRequest(req: IncomingMessage, method = req.method ?? "GET"): { request: ApiRequest; done: () => void } {
  const host = /^[\w.:[\]-]+$/.test(req.headers.host ?? "") ? req.headers.host : "localhost";
  const hasBody = method !== "GET" && method !== "HEAD";
  let streamed = false;
  let gone: AbortController | undefined;
  const onClose = () => gone?.abort();
  const request: ApiRequest = {
    method,
    url: `http://${host}${req.url ?? "/"}`,
    headers: {
      get(name) {
        const v = req.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      },
    },
    body: null,
    bodyUpTo: hasBody ? (max) => readAll(req, max) : async () => new Uint8Array(0),
    stream() {
      streamed = true;
      // Stopping early (a 413) must not destroy the socket: the answer still goes out on it.
      return hasBody ? req.iterator({ destroyOnReturn: false }) : (async function* () {})();
    },
    // Aborted when the client goes away before the handler has answered (a long import).
    get signal() {
      if (!gone) {
        gone = new AbortController();
        if (req.socket.destroyed) gone.abort();
        else req.socket.once("close", onClose);
      }
      return gone.signal;
    },
    clientAddress: req.socket.remoteAddress,
  };
  const done = () => {
    req.socket.off("close", onClose);
    if (!streamed && !req.complete) req.resume();
  };
  return { request, done };
}

/** The whole body, or null once it passes `max` bytes (the rest is read and dropped). */
function readAll(req: IncomingMessage, max: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size < 0) return;
      size += chunk.length;
      if (size > max) {
        size = -1;
        chunks.length = 0;
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on("end", () => size >= 0 && resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Writes the answer with backpressure; a client that goes away cancels the body's source. */
export async function sendResponse(res: ServerResponse, response: Response, head = false): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  const bytes = bodyOf(response);
  if (bytes) {
    // Built in one piece by the envelope: written as it is, with its length.
    res.setHeader("content-length", bytes.byteLength);
    res.end(head ? undefined : bytes);
    return;
  }
  if (!response.body || head) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  if (res.destroyed) {
    // The client left while the answer was being made: its close event has passed already.
    onClose();
    return;
  }
  res.once("close", onClose);
  try {
    // Most answers are one chunk: send those with a length rather than chunked.
    const first = await reader.read();
    const second = first.done ? first : await reader.read();
    if (second.done) {
      if (first.value) res.setHeader("content-length", first.value.byteLength);
      res.end(first.value);
      return;
    }
    res.write(first.value);
    let chunk: ReadableStreamReadResult<Uint8Array> = second;
    for (; !chunk.done; chunk = await reader.read()) {
      const value = chunk.value;
      if (!res.write(value) && !res.destroyed) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
      }
      if (res.destroyed) return;
    }
    res.end();
  } finally {
    res.off("close", onClose);
  }
}
