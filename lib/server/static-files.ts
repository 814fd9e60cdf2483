// The explorer's static files (Next's `output: "export"` in out/), read once at start and
// kept in memory with a gzip copy: a static export is small enough to hold whole. Paths are
// looked up in that table, so nothing outside out/ can be named.
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import zlib from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".map": "application/json; charset=utf-8",
};

interface StaticFile {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
}

function walk(dir: string, base = dir, out = new Map<string, StaticFile>()): Map<string, StaticFile> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(file, base, out);
      continue;
    }
    const body = fs.readFileSync(file);
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const compressible = /^(text\/|application\/(javascript|json)|image\/svg)/.test(type) && body.length > 1024;
    const st = fs.statSync(file);
    out.set("/" + path.relative(base, file).split(path.sep).join("/"), {
      body,
      gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : undefined,
      type,
      etag: `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`,
    });
  }
  return out;
}

/** A handler for the files under `dir`; anything else answers out/404.html with a 404. */
export function staticFiles(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const files = walk(dir);
  const find = (pathname: string): StaticFile | undefined =>
    files.get(pathname) ?? files.get(`${pathname.replace(/\/$/, "")}.html`) ?? files.get(`${pathname.replace(/\/?$/, "/")}index.html`);
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    let pathname = (req.url ?? "/").split("?")[0];
    try {
      pathname = decodeURIComponent(pathname);
    } catch {
      /* not valid percent-encoding: no such file */
    }
    const found = find(pathname);
    const file = found ?? files.get("/404.html");
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    // Hashed build assets never change; pages are checked each time (the ETag makes that cheap).
    res.setHeader("cache-control", pathname.startsWith("/_next/static/") ? "public, max-age=31536000, immutable" : "no-cache");
    res.setHeader("content-type", file.type);
    res.setHeader("etag", file.etag);
    res.setHeader("vary", "accept-encoding");
    if (found && req.headers["if-none-match"] === file.etag) {
      res.writeHead(304).end();
      return;
    }
    const gzip = file.gzip && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const body = gzip ? file.gzip! : file.body;
    if (gzip) res.setHeader("content-encoding", "gzip");
    res.setHeader("content-length", body.length);
    res.statusCode = found ? 200 : 404;
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
