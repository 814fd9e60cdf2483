// The peer's address under Next's server, which gives route handlers none: a stamp this process
// puts on each request it receives (peer.ts), read from the headers Next copies into the
// route's Request. Here a plain Node server builds that Request the same way.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientKey } from "./params";
import { peerAddress, stampPeerAddresses } from "./peer";

let server: http.Server;
let port: number;

beforeAll(async () => {
  // As Next does: the route's Request has the Node request's headers, and no socket.
  server = http.createServer((req, res) => {
    const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
    const request = new Request(`http://localhost${req.url}`, { headers });
    res.end(JSON.stringify({ peer: peerAddress(request) ?? null, key: clientKey(request, { scope: null }) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
});

function ask(localAddress: string, headers: Record<string, string> = {}): Promise<{ peer: string | null; key: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", localAddress, headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve(JSON.parse(text)));
    });
    req.on("error", reject);
  });
}

const FORGED = { "x-datastore-peer": "10.9.9.9", "x-forwarded-for": "10.9.9.9" };

describe("a request's peer address under Next's server", () => {
  it("is unknown, whatever the client claims, until this process stamps requests", async () => {
    expect(await ask("127.0.0.2", FORGED)).toEqual({ peer: null, key: "address:unknown" });
  });

  it("once stamped, is each socket's own address, and a client's claim is replaced", async () => {
    stampPeerAddresses();
    stampPeerAddresses(); // once per process, however often asked
    expect(await ask("127.0.0.2")).toEqual({ peer: "127.0.0.2", key: "address:127.0.0.2" });
    expect(await ask("127.0.0.3", FORGED)).toEqual({ peer: "127.0.0.3", key: "address:127.0.0.3" });
  });

  it("a token's requests are the token's, from any address", async () => {
    const request = new Request("http://localhost/", { headers: { "x-datastore-peer": "127.0.0.2" } });
    expect(clientKey(request, { scope: "read", tokenId: "t1" })).toBe("token:t1");
  });
});
