// Playwright's webServer: a fresh sample database, a build if the sources changed, then
// the server (lib/server/main.ts) on the port the config picked.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const port = process.env.E2E_PORT;
const db = process.env.DATASTORE_DB;
if (!port || !db) throw new Error("E2E_PORT and DATASTORE_DB must be set (see playwright.config.ts)");

for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(db + suffix, { force: true });

const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

// `npm start`'s node arguments, so the journeys run the server as users do.
const start = JSON.parse(fs.readFileSync("package.json", "utf8")).scripts.start.split(" ").slice(1);
const server = spawn(process.execPath, [...start, "-H", "127.0.0.1", "-p", port], {
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(db + suffix, { force: true });
  process.exit(code ?? 0);
});
