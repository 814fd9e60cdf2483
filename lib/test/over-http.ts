// The API suites over real HTTP (vitest's *-http projects, CONTRACT_VIA=next-start): dispatch()
// (lib/test/routes.ts) sends each Request to a `next start` serving the store freshDb() last
// chose. A server starts when a suite first calls, with the environment the suite has set by
// then, and is replaced when freshDb() picks another store. Next gives a route handler the URL
// http://localhost:<its port>/… whatever Host the client sent, so absolute URLs in answers (the
// envelope's help) start with apiOrigin(), not the Request's origin.
import http from "node:http";
import { startServer, type RunningServer } from "./server";

/** The suites run through `next start` over HTTP instead of the route modules in-process. */
export const viaNextStart = process.env.CONTRACT_VIA === "next-start";

let current: { store: string; server: Promise<RunningServer> } | undefined;
let port: number | undefined;

/** The origin of absolute URLs in the answers: the Request's in-process (tests send
 *  http://localhost/…), `next start`'s own over HTTP. */
export function apiOrigin(): string {
  if (!viaNextStart) return "http://localhost";
  if (port === undefined) throw new Error("apiOrigin() over HTTP before any request reached a server");
  return `http://localhost:${port}`;
}

function storeKey(): string {
  return process.env.DATASTORE_DATABASE_URL?.trim() ? `schema ${process.env.DATASTORE_PG_SCHEMA}` : `file ${process.env.DATASTORE_DB}`;
}

function serverForStore(): Promise<RunningServer> {
  const store = storeKey();
  if (current?.store !== store) {
    const previous = current?.server;
    const server = (async () => {
      await (await previous?.catch(() => undefined))?.stop();
      return startServer({
        via: "next start",
        dbFile: process.env.DATASTORE_DB ?? "",
        adminToken: process.env.DATASTORE_ADMIN_TOKEN,
        env: { DATASTORE_READ_WORKERS: process.env.DATASTORE_READ_WORKERS ?? "", ...(process.env.DATASTORE_PG_SCHEMA ? { DATASTORE_PG_SCHEMA: process.env.DATASTORE_PG_SCHEMA } : {}) },
      });
    })();
    current = { store, server };
  }
  return current.server;
}

/** Stops the server (a suite's afterAll, lib/test/http-setup.ts). */
export async function stopServer(): Promise<void> {
  const server = current?.server;
  current = undefined;
  await (await server?.catch(() => undefined))?.stop();
}

/** What `next start` answers to `request`, read in full. */
export async function overHttp(request: Request): Promise<Response> {
  const server = await serverForStore();
  port = server.port;
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: http.OutgoingHttpHeaders = { ...Object.fromEntries(request.headers), host: url.host };
  if (url.protocol === "https:") headers["x-forwarded-proto"] = "https";
  if (body) headers["content-length"] = body.length;
  return new Promise<Response>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, method: request.method, path: `${url.pathname}${url.search}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const value of [v ?? []].flat()) out.append(k, value);
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304 || request.method === "HEAD";
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
