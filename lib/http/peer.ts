// The address of a request's peer, for its turn among expensive reads (params.ts clientKey),
// under every way of serving. `npm start`'s server reads it off the socket. Next gives route
// handlers no address, and its x-forwarded-for is the client's own when the client sent one,
// so under Next (instrumentation.ts) this process stamps each request it receives with its
// socket's address, replacing any such header the client sent, before Next reads it. Behind
// proxies the operator names (DATASTORE_TRUST_PROXY), the client is the address they forwarded.
import diagnostics_channel from "node:diagnostics_channel";
import { isIP } from "node:net";
import { config } from "../config";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { ApiRequest } from "./params";

const PEER_HEADER = "x-datastore-peer";
const STAMPING = Symbol.for("datastore-explorer.stamping-peers");

/** From now on, every request this process's HTTP servers receive carries its peer's address. */
export function stampPeerAddresses(): void {
  const g = globalThis as { [STAMPING]?: boolean };
  if (g[STAMPING]) return;
  g[STAMPING] = true;
  // Published as a request is parsed, before any listener (Next's server) sees it.
  diagnostics_channel.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
  });
}

/** The peer's address: the server's own reading, or this process's stamp; else unknown. A
 *  stamp is believed only where this process stamps, as a client could send one. */
export function peerAddress(request: ApiRequest): string | undefined {
  if (request.clientAddress) return request.clientAddress;
  if (!(globalThis as { [STAMPING]?: boolean })[STAMPING]) return undefined;
  return request.headers.get(PEER_HEADER) || undefined;
}

/**
 * The client's address: the peer's, or behind `DATASTORE_TRUST_PROXY` = n proxies, the address
 * the outermost of them saw: X-Forwarded-For read from the right, n entries in, as each proxy
 * appends its own peer and anything further left is the client's to write. Unknown when the
 * peer is, or the header is not what n proxies would have written.
 */
export function clientAddress(request: ApiRequest, hops = config.trustProxy): string | undefined {
  const peer = peerAddress(request);
  if (hops <= 0 || peer === undefined) return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "").split(",").map((a) => a.trim()).filter(Boolean);
  // Fewer entries than proxies: the request did not come through all of them.
  if (forwarded.length < hops) return peer;
  const address = forwarded[forwarded.length - hops];
  return isIP(address) ? address : undefined;
}
