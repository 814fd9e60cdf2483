// The explorer's pages as `next build` prerendered them (.next/server/app: the HTML, and the
// RSC payload Next's client asks for with an `RSC: 1` header), its hashed assets
// (.next/static, at /_next/static) and public/, read once at start and kept in memory with a
// gzip copy: small enough to hold whole. Paths are looked up in that table, so nothing else can
// be named. The copies are made on libuv's threads, one at a time from the start (or when first
// asked for), so they hold up neither the first answer nor the file reads that share those threads.
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const gzip = promisify(zlib.gzip);

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
  compressible: boolean;
  /** Made once (gzipped()); undefined should compressing fail: the body goes as it is. */
  gzip?: Promise<Buffer | undefined>;
  type: string;
  etag: string;
}

function entry(file: string, type = TYPES[path.extname(file)] ?? "application/octet-stream"): StaticFile {
  const body = fs.readFileSync(file);
  const compressible = /^(text\/|application\/(javascript|json)|image\/svg)/.test(type) && body.length > 1024;
  const st = fs.statSync(file);
  return {
    body,
    compressible,
    type,
    etag: `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`,
  };
}

function gzipped(file: StaticFile): Promise<Buffer | undefined> | undefined {
  if (!file.compressible) return undefined;
  return (file.gzip ??= gzip(file.body, { level: 9 }).catch(() => undefined));
}

function walk(dir: string, visit: (file: string, rel: string) => void, base = dir): void {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) walk(file, visit, base);
    else visit(file, "/" + path.relative(base, file).split(path.sep).join("/"));
  }
}

/** Where `next build` writes: next.config.mjs reads the same variable (one build per checkout
 *  by default; a second directory lets two builds of one tree coexist). */
export function distDir(): string {
  return process.env.NEXT_DIST_DIR || ".next";
}

/** URL path → file, from a `next build` in `root`: prerendered pages and metadata routes,
 *  their RSC payloads (under "rsc:" keys), build assets and public files. */
function buildFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  walk(path.join(root, distDir(), "server/app"), (file, rel) => {
    if (rel.endsWith(".html")) files.set(rel === "/_not-found.html" ? "/404.html" : rel, entry(file));
    else if (rel.endsWith(".rsc")) files.set(`rsc:${rel.slice(0, -4)}`, entry(file, "text/x-component"));
    else if (rel.endsWith(".body")) {
      // A prerendered metadata route (icon.svg): its content type is in the .meta beside it.
      const meta = JSON.parse(fs.readFileSync(file.replace(/\.body$/, ".meta"), "utf8")) as { headers?: Record<string, string> };
      files.set(rel.slice(0, -5), entry(file, meta.headers?.["content-type"]));
    }
  });
  walk(path.join(root, distDir(), "static"), (file, rel) => files.set(`/_next/static${rel}`, entry(file)));
  walk(path.join(root, "public"), (file, rel) => files.set(rel, entry(file)));
  return files;
}

/** A handler for the build in `root`; anything else answers the not-found page with a 404. */
export function staticFiles(root: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const files = buildFiles(root);
  void (async () => {
    for (const file of files.values()) await gzipped(file);
  })();
  const page = (pathname: string) => (pathname === "/" ? "/index" : pathname.replace(/\/$/, ""));
  // A prefetch of one segment (`Next-Router-Segment-Prefetch: /_tree`) gets that segment's
  // payload, which the build writes beside the page's: the page's whole payload in its place is
  // unreadable to the router, which then asks again without end.
  const find = (pathname: string, rsc: boolean, segment: string | string[] | undefined): StaticFile | undefined => {
    if (!rsc) return files.get(pathname) ?? files.get(`${page(pathname)}.html`);
    if (segment === undefined) return files.get(`rsc:${page(pathname)}`);
    return typeof segment === "string" && /^(\/[\w.$-]+)+$/.test(segment) && !segment.includes("..")
      ? files.get(`rsc:${page(pathname)}.segments${segment}.segment`)
      : undefined;
  };
  return async (req, res) => {
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
    const rsc = req.headers.rsc === "1";
    const found = find(pathname, rsc, req.headers["next-router-segment-prefetch"]);
    if (rsc) res.setHeader("vary", "rsc, accept-encoding");
    const file = found ?? files.get("/404.html");
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    // Hashed build assets never change; pages are checked each time (the ETag makes that cheap).
    res.setHeader("cache-control", pathname.startsWith("/_next/static/") ? "public, max-age=31536000, immutable" : "no-cache");
    res.setHeader("content-type", file.type);
    res.setHeader("etag", file.etag);
    if (!rsc) res.setHeader("vary", "accept-encoding");
    if (found && req.headers["if-none-match"] === file.etag) {
      res.writeHead(304).end();
      return;
    }
    const zipped = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) ? await gzipped(file) : undefined;
    const body = zipped ?? file.body;
    if (zipped) res.setHeader("content-encoding", "gzip");
    res.setHeader("content-length", body.length);
    res.statusCode = found ? 200 : 404;
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
