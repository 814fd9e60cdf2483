import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { sendResponse } from "./node-http";

it("an answer ready only after the client left: its body is cancelled and sending ends", async () => {
  let cancelled = false;
  let finished = false;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(100_000)); // a streamed answer: a big search page or a dump
    },
    cancel() {
      cancelled = true;
    },
  });
  const server = http.createServer((req, res) => {
    // The answer is ready only after the client has gone (a read worker was still searching).
    res.once("close", () => {
      setTimeout(() => {
        void sendResponse(res, new Response(body)).then(() => (finished = true));
      }, 10);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const req = http.request({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, path: "/" });
  req.on("error", () => {});
  req.end();
  setTimeout(() => req.destroy(), 50);
  await expect.poll(() => ({ cancelled, finished }), { timeout: 3000 }).toEqual({ cancelled: true, finished: true });
  server.close();
});
