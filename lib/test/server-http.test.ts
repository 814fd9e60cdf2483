// The built server over real HTTP: security headers on pages and API answers, and hostile
// transport that only a real server sees (a declared or streamed body over the limit, invalid
// UTF-8, odd methods and paths), plus a short fuzz run over the wire.
import fc from "fast-check";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzCase } from "./arbitraries";
import { createWorld, httpSend, httpTarget, newStats, runCase } from "./fuzz";
import { ensureBuilt, startServer, tempDir, type RunningServer } from "./server";

const ADMIN = "http-admin-token";
let server: RunningServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({ dbFile: path.join(tempDir(), "http.db"), adminToken: ADMIN, env: { DATASTORE_MAX_BODY_BYTES: "100000" } });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (server) fs.rmSync(path.dirname(server.dbFile), { recursive: true, force: true });
});

/** Writes raw bytes to the server and returns the status line and the rest. */
function raw(request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let out = "";
    socket.on("data", (c) => (out += c.toString("latin1")));
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", (e) => (out ? resolve(out) : reject(e)));
    socket.end(request);
  });
}

describe("security headers", () => {
  it("on the explorer page, API answers (including errors) and dumps", async () => {
    for (const p of ["/", "/api/action/resource_search", "/api/action/nope", "/api/3/action/datastore_search?resource_id=x", "/datastore/dump/missing"]) {
      const res = await fetch(`${server.url}${p}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, p).toMatch(/default-src 'self'/);
      expect(csp, p).toMatch(/frame-ancestors 'none'/);
      expect(csp, p).toMatch(/object-src 'none'/);
      expect(csp, p).not.toMatch(/unsafe-eval/);
      expect(res.headers.get("x-content-type-options"), p).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), p).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options"), p).toBe("DENY");
      expect(res.headers.get("x-powered-by"), p).toBeNull();
    }
  });
});

describe("hostile transport against the real server", () => {
  it("a body over DATASTORE_MAX_BODY_BYTES: 413, declared or streamed", async () => {
    const big = JSON.stringify({ resource_id: "x", q: "a".repeat(200_000) });
    const declared = await fetch(`${server.url}/api/action/datastore_search`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatch(/^Bad request - Request body is larger than 100000 bytes/);
    // Chunked, so no Content-Length tells the size in advance.
    const chunks = Array.from({ length: 30 }, () => `${(10_000).toString(16)}\r\n${"a".repeat(10_000)}\r\n`).join("");
    const streamed = await raw(
      `POST /api/action/datastore_upsert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
    );
    expect(streamed).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("invalid UTF-8, odd methods, malformed percent-encoding in paths and queries: 4xx, never 5xx", async () => {
    const body = Buffer.concat([Buffer.from('{"resource_id": "'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const bad = await raw(Buffer.concat([Buffer.from(`POST /api/action/datastore_search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad).toContain("not valid UTF-8");
    const statuses: [string, number][] = [];
    for (const [method, p, extra] of [
      ["PUT", "/api/action/datastore_search", ""],
      ["DELETE", "/api/action/datastore_delete", ""],
      ["GET", "/api/action/datastore_upsert", ""],
      ["GET", "/api/action/%E0%A4%A", ""],
      ["GET", "/api/action/..%2f..%2fetc%2fpasswd", ""],
      ["GET", "/api/action/datastore_search?resource_id=%zz&limit=%", ""],
      ["GET", `/api/action/datastore_search?${"a=1&".repeat(2000)}`, ""],
      ["POST", "/api/action/datastore_search", "Content-Type: multipart/form-data; boundary=z\r\n"],
      ["POST", "/api/action/datastore_search", "Content-Type: application/x-www-form-urlencoded\r\n"],
      ["GET", "/datastore/dump/%00", ""],
      ["GET", "/datastore/dump/x?format=exe", ""],
    ] as const) {
      const res = await raw(`${method} ${p} HTTP/1.1\r\nHost: x\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
      statuses.push([`${method} ${p.slice(0, 60)}`, Number(/^HTTP\/1\.1 (\d+)/.exec(res)?.[1])]);
    }
    for (const [what, status] of statuses) {
      expect(status, what).toBeGreaterThanOrEqual(400);
      expect(status, what).toBeLessThan(500);
    }
  });

  it("a short fuzz run over the wire", async () => {
    const target = httpTarget(server.url, server.store);
    const world = await createWorld(target, ADMIN);
    const stats = newStats();
    for (const c of fc.sample(fuzzCase, { numRuns: 150, seed: 42 })) {
      const problems = await runCase(target, world, c, stats);
      expect(problems, stats.failures.at(-1)?.sent).toEqual([]);
    }
    await target.close?.();
    expect(server.output()).not.toMatch(/internal error/);
    // The server is still serving.
    expect((await httpSend(server.url, { path: "/api/action/resource_search", method: "GET", headers: {} })).status).toBe(200);
  });
});
