import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticFiles } from "./static-files";

let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  // The layout `next build` writes: prerendered pages, their RSC payloads, a metadata route, assets.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-"));
  const app = path.join(dir, ".next/server/app");
  fs.mkdirSync(path.join(dir, ".next/static/chunks"), { recursive: true });
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(app, "index.html"), `<html>${"home ".repeat(500)}</html>`);
  fs.writeFileSync(path.join(app, "index.rsc"), "0:rsc payload");
  fs.mkdirSync(path.join(app, "index.segments"));
  fs.writeFileSync(path.join(app, "index.segments/_tree.segment.rsc"), "0:tree payload");
  fs.writeFileSync(path.join(app, "_not-found.html"), "<html>not here</html>");
  fs.writeFileSync(path.join(app, "icon.svg.body"), "<svg/>");
  fs.writeFileSync(path.join(app, "icon.svg.meta"), JSON.stringify({ status: 200, headers: { "content-type": "image/svg+xml" } }));
  fs.writeFileSync(path.join(app, "page.js"), "server code, never served");
  fs.writeFileSync(path.join(dir, ".next/static/chunks/app.js"), "console.log(1)");
  fs.writeFileSync(path.join(os.tmpdir(), "outside.txt"), "secret");
  server = http.createServer(staticFiles(dir)).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would undo gzip and normalise `..` away). */
function get(p: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("static files", () => {
  it("serves the page at / and its assets, hashed assets cached for good", async () => {
    const page = await get("/?resource=x");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.body.toString()).toMatch(/^<html>home/);
    const asset = await get("/_next/static/chunks/app.js");
    expect(asset.body.toString()).toBe("console.log(1)");
    expect(asset.headers["cache-control"]).toContain("immutable");
  });

  it("gzips text for clients that accept it, and answers 304 to a matching ETag", async () => {
    const page = await get("/", { "accept-encoding": "gzip, br" });
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(page.body).toString()).toMatch(/^<html>home/);
    expect((await get("/", { "if-none-match": String(page.headers.etag) })).status).toBe(304);
  });

  it("answers 404.html for unknown paths and for paths out of the directory", async () => {
    for (const p of ["/nope", "/../outside.txt", "/%2e%2e/outside.txt", "/_next/../../outside.txt", "/%zz", "/page.js", "/index.rsc"]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString(), p).toBe("<html>not here</html>");
    }
  });

  it("answers Next's client an RSC payload when it asks with RSC: 1, and metadata routes with their type", async () => {
    const rsc = await get("/?_rsc=1a2b", { rsc: "1" });
    expect(rsc.status).toBe(200);
    expect(rsc.headers["content-type"]).toBe("text/x-component");
    expect(rsc.body.toString()).toBe("0:rsc payload");
    expect(rsc.headers.vary).toContain("rsc");
    const icon = await get("/icon.svg");
    expect([icon.status, icon.headers["content-type"], icon.body.toString()]).toEqual([200, "image/svg+xml", "<svg/>"]);
  });

  it("answers a segment prefetch with that segment's payload, and 404 for a segment it lacks", async () => {
    const tree = await get("/?_rsc=1a2b", { rsc: "1", "next-router-prefetch": "1", "next-router-segment-prefetch": "/_tree" });
    expect([tree.status, tree.body.toString()]).toEqual([200, "0:tree payload"]);
    for (const segment of ["/__PAGE__", "/../index", "_tree"]) {
      const other = await get("/?_rsc=1a2b", { rsc: "1", "next-router-segment-prefetch": segment });
      expect(other.status, segment).toBe(404);
      expect(other.body.toString()).not.toContain("rsc payload");
    }
  });

  it("HEAD has no body; other methods are 405", async () => {
    const head = await get("/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get("/", {}, "POST")).status).toBe(405);
  });
});
