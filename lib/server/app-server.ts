// The HTTP server: the API (/api/action/*, /api/3/action/*) and dumps (/datastore/dump/*) go
// straight to their handlers, everything else to the explorer's pages (Next's static build).
// Next's router costs the API more than the handler itself (README, bench section), and the
// API needs none of what it does.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { handleAction } from "../http/action-handler";
import { handleDump } from "../http/dump";
import { json } from "../http/envelope";
import type { ApiRequest } from "../http/params";
import { sendResponse, toRequest } from "./node-http";
import { securityHeaders } from "./security-headers";

/** Serves the explorer: its static build, or Next itself in development. */
type PagesHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const ACTION_PATH = /^\/api(?:\/3)?\/action\/([^/]+)$/;
const DUMP_PATH = /^\/datastore\/dump\/([^/]+)$/;

/** The API handler for a path, or null when the path is the explorer's. */
function apiRoute(pathname: string): ((request: ApiRequest) => Promise<Response>) | null {
  const action = ACTION_PATH.exec(pathname);
  const dump = action ? null : DUMP_PATH.exec(pathname);
  if (!action && !dump) return null;
  let name: string;
  try {
    name = decodeURIComponent((action ?? dump)![1]);
  } catch {
    return async () => json("Bad request - the path is not valid percent-encoding", 400);
  }
  return action ? (request) => handleAction(request, name) : (request) => handleDump(request, name);
}

export function createAppServer(pages: PagesHandler, dev: boolean): http.Server {
  const headers = securityHeaders(dev);
  return http.createServer(async (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const route = apiRoute(q < 0 ? url : url.slice(0, q));
    try {
      if (!route) return await pages(req, res);
      const head = req.method === "HEAD" && DUMP_PATH.test(url.slice(0, q < 0 ? undefined : q));
      // A dump answers HEAD as GET without the body; actions answer 405 to HEAD (CKAN does).
      const { request, done } = toRequest(req, head ? "GET" : req.method);
      const response = await route(request);
      done();
      await sendResponse(res, response, head);
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
}
