// The address of a request's peer, for its turn among expensive reads (params.ts clientKey),
// under every way of serving. `npm start`'s server reads it off the socket. Next gives route
// handlers no address, and its x-forwarded-for is the client's own when the client sent one,
// so under Next (instrumentation.ts) this process stamps each request it receives with its
// socket's address, replacing any such header the client sent, before Next reads it.
import diagnostics_channel from "node:diagnostics_channel";
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
