// Tests reach the API as a client does: a real Request through the App Router's route modules
// (app/**/route.ts), matched by the same table `npm start` serves them from; or, in the *-http
// projects, through `next start` over HTTP (lib/test/over-http.ts).
import path from "node:path";
import { badPath } from "../http/envelope";
import { loadRoutes, type Match } from "../server/routes";
import { overHttp, viaNextStart } from "./over-http";

let routes: Promise<(pathname: string) => Match | null> | undefined;

/** The response the app's route for `request`'s path and method gives (a bare 400 for a path
 *  that is not valid percent-encoding, 404 for a path no route has, as the server answers). */
export async function dispatch(request: Request): Promise<Response> {
  if (viaNextStart) return overHttp(request);
  routes ??= loadRoutes(path.resolve(import.meta.dirname, "../../app"));
  const pathname = new URL(request.url).pathname;
  const bad = badPath(pathname);
  if (bad) return bad;
  const match = (await routes)(pathname);
  const handler = match?.handler(request.method);
  if (!match || !handler) return new Response("Not found", { status: 404 });
  return handler(request, { params: Promise.resolve(match.params) });
}
