// Playwright's webServer: a fresh sample database, a build if the sources changed, then the
// server (lib/server/main.ts) on the port the config picked. E2E_ENGINE=postgres serves from a
// throwaway PostgreSQL cluster (lib/test/pg-cluster.ts; run under tsx for it) instead of a
// SQLite file. On SIGTERM (the config's graceful shutdown) it stops the server, then the
// cluster, and removes the file.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const port = process.env.E2E_PORT;
const db = process.env.DATASTORE_DB;
if (!port || !db) throw new Error("E2E_PORT and DATASTORE_DB must be set (see playwright.config.ts)");

const removeDb = () => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(db + suffix, { force: true });
};
removeDb();

const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const env = { ...process.env };
let cluster;
if (process.env.E2E_ENGINE === "postgres") {
  const pgCluster = await import("../../lib/test/pg-cluster.ts");
  // Its exports come named, or (when tsx loads it as CommonJS) as the default export.
  const { startCluster } = pgCluster.default ?? pgCluster;
  cluster = await startCluster();
  env.DATASTORE_DATABASE_URL = cluster.url();
  console.log(`e2e: PostgreSQL on 127.0.0.1:${cluster.port}`);
}

// `npm start`'s node arguments, so the journeys run the server as users do.
const start = JSON.parse(fs.readFileSync("package.json", "utf8")).scripts.start.split(" ").slice(1);
const server = spawn(process.execPath, [...start, "-H", "127.0.0.1", "-p", port], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", async (code) => {
  await cluster?.stop();
  removeDb();
  process.exit(code ?? 0);
});
