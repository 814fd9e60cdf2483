// `npm start` (compiled: dist/lib/server/main.js, scripts/build-server.mjs) and `npm run dev` (the
// source, with --dev): open and check the database, load the sample data
// into an empty one, then serve the API (the App Router's route modules, without Next's router)
// and the explorer on one port. `next start` serves the same routes through Next itself.
//   PORT (3000); flags -p/--port, -H/--hostname (all interfaces), --dev, --api (the API only:
//   no explorer pages, so no `next build` is needed; for app servers behind a load balancer).
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import { parseArgs } from "node:util";
import { codeRoot, projectRoot as root } from "../source-worker";
import { distDir } from "./static-files";

const { values } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" }, dev: { type: "boolean" }, api: { type: "boolean" } },
});
const apiOnly = values.api ?? false;
const dev = !apiOnly && (values.dev ?? false);
// Next reads NODE_ENV when it loads; set it before anything imports Next.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";

async function main(): Promise<void> {
  // Exits with a clear message when the database is unusable. Opening it starts the read
  // workers, which would take the cores from loading the routes and pages: it goes last, but in
  // development, where Next opens it too as it prepares (instrumentation.ts).
  const { startDatastore } = await import("../server-start");
  if (dev) await startDatastore();
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  // Not $HOSTNAME: shells and containers set it to the machine name.
  const hostname = values.hostname;
  // The API: the App Router's route modules (compiled, under `npm start`), the same ones `next start` serves.
  const routes = await (await import("./routes")).loadRoutes(path.join(codeRoot, "app"));
  let pages;
  let upgrade: ((req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>) | undefined;
  if (apiOnly) {
    // Every path that is not an API route is a plain 404.
    pages = (_req: IncomingMessage, res: ServerResponse) => {
      res.statusCode = 404;
      res.setHeader("content-type", "text/plain;charset=utf-8");
      res.end("Not found: this server serves the API only (--api)");
    };
  } else if (dev) {
    // Development: Next serves the pages itself, rebuilding them as the sources change.
    const { default: next } = await import("next");
    const app = next({ dev, dir: root, hostname, port });
    await app.prepare();
    pages = app.getRequestHandler() as never;
    upgrade = app.getUpgradeHandler() as typeof upgrade;
  } else {
    if (!fs.existsSync(path.join(root, distDir(), "server", "app", "index.html"))) {
      console.error(`datastore: no build of the explorer in ${distDir()}/; run \`npm run build\` (npm start does it for you).`);
      process.exit(1);
    }
    // The pages as `next build` prerendered them, from memory: Next's server runtime is not loaded.
    pages = (await import("./static-files")).staticFiles(root);
  }
  if (!dev) await startDatastore();
  const { createAppServer } = await import("./app-server");
  const server = createAppServer(routes, pages, dev);
  // the dev server's hot reload talks over a WebSocket
  if (upgrade) server.on("upgrade", upgrade);
  server.listen(port, hostname, () => {
    console.log(`Datastore Explorer ready on http://${hostname && hostname !== "0.0.0.0" ? hostname : "localhost"}:${port}`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
