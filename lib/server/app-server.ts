// The HTTP server behind `npm start`: the API goes straight to the App Router's own route
// modules (app/**/route.ts, matched by lib/server/routes.ts), everything else to the
// explorer's pages (the prerendered build, or Next itself in development). Next's router costs
// the API more than the handler itself (docs/performance.md), and the API needs none of it.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { badPath, json } from "../http/envelope";
import { sendResponse, toRequest } from "./node-http";
import type { Match } from "./routes";
import { isEmbedPath, securityHeaders } from "./security-headers";

/** Serves the explorer: its prerendered build, or Next itself in development. */
type PagesHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export function createAppServer(routes: (pathname: string) => Match | null, pages: PagesHandler, dev: boolean): http.Server {
  const headers = securityHeaders(dev);
  const embedHeaders = securityHeaders(dev, true);
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    for (const [name, value] of isEmbedPath(pathname) ? embedHeaders : headers) res.setHeader(name, value);
    try {
      const bad = badPath(pathname);
      const route = bad ? null : routes(pathname);
      if (!bad && !route) return await pages(req, res);
      const method = req.method ?? "GET";
      const handler = route?.handler(method);
      const { request, done } = toRequest(req, method);
      const response = bad
        ? bad
        : handler
          ? await handler(request, { params: Promise.resolve(route!.params) })
          : json(`Bad request - Method not allowed: ${method}`, 405, { allow: METHODS.filter((m) => route!.handler(m)).join(", ") });
      done();
      await sendResponse(res, response, method === "HEAD");
    } catch (e) {
      // The handlers answer every error themselves; this is a broken socket or a bug.
      console.error(e);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "application/json;charset=utf-8");
        res.end(JSON.stringify("Internal server error"));
      } else res.destroy();
    }
  });
  // An idle kept-alive connection stays open longer than clients and load balancers keep theirs
  // (60 s is common): closed at Node's 5 s, a request sent on it as it closes is reset.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
