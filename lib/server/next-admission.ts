// Under Next (`next start`, `next dev`; instrumentation.ts): each request to the action API or a
// dump is admitted as it arrives, before Next's server sees it (lib/http/admission.ts). One past
// its budget is answered here, with the 429 its route would have sent and the headers Next's
// proxy would have added (proxy.ts); one let through goes on to Next, which otherwise sees a
// flood of refusals first. Uploads are admitted by their routes, which read a refused body as
// their own entry says (pipeline.ts streamsBody).
import diagnostics_channel from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { admitOnArrival } from "../http/admission";
import { sendResponse, toRequest } from "./node-http";
import { securityHeaders } from "./security-headers";

const ADMITTING = Symbol.for("datastore-explorer.admitting-on-arrival");

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The entry a request path goes to, by the name its answers' help links give: an action's, or
 *  the dump's; none for other paths, nor for one that is not valid percent-encoding (proxy.ts). */
export function entryOf(pathname: string): string | undefined {
  try {
    decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const action = /^\/api(?:\/3)?\/action\/([^/]+)$/.exec(pathname);
  if (action) return decodeURIComponent(action[1]);
  return /^\/datastore\/dump\/[^/]+$/.test(pathname) ? "datastore_dump" : undefined;
}

/** From now on, this process's HTTP servers admit each API request before their own listeners. */
export function admitBeforeNext(): void {
  const g = globalThis as { [ADMITTING]?: boolean };
  if (g[ADMITTING]) return;
  g[ADMITTING] = true;
  const headers = securityHeaders(process.env.NODE_ENV === "development");
  const servers = new WeakSet<Server>();
  // Published as a request is parsed, before the server emits it: on a server's first request,
  // its listeners (Next's) are put behind the admission.
  diagnostics_channel.subscribe("http.server.request.start", (message) => {
    const { server } = message as { server: Server };
    if (servers.has(server)) return;
    servers.add(server);
    const listeners = server.listeners("request") as Listener[];
    server.removeAllListeners("request");
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const pass = () => {
        for (const listener of listeners) listener.call(server, req, res);
      };
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const name = entryOf(q < 0 ? url : url.slice(0, q));
      if (name === undefined) return pass();
      const { request, done } = toRequest(req);
      void (async () => {
        let admitted;
        try {
          admitted = await admitOnArrival(request, name);
        } catch (e) {
          // Not admitted (the store failed to open): its route admits it, as under `npm start`.
          console.error(e);
          return pass();
        }
        if ("stamp" in admitted) {
          req.headers[admitted.stamp[0]] = admitted.stamp[1];
          return pass();
        }
        for (const [header, value] of headers) res.setHeader(header, value);
        done();
        await sendResponse(res, admitted.refusal, req.method === "HEAD").catch(() => res.destroy());
      })();
    });
  });
}
