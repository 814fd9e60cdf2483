// Browser journeys against the built server on a freshly seeded sample database (see e2e/), on
// SQLite, or with E2E_ENGINE=postgres on a throwaway PostgreSQL cluster (e2e/support/serve.mjs).
// One engine a run: scripts/test.mjs runs both, each with its own server, port and output.
import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NO_QUOTAS } from "./lib/test/no-quotas";

// The config is loaded by the runner and again by each worker: pick the port once and pass it
// down through the environment so they all agree.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const port = process.env.E2E_PORT;
// E2E_BASE_URL runs the journeys against a server you started yourself (for quick iteration).
const external = process.env.E2E_BASE_URL;
process.env.E2E_ADMIN_TOKEN ??= "e2e-admin-token";
const db = path.join(os.tmpdir(), `datastore-e2e-${port}.db`);
const engine = process.env.E2E_ENGINE === "postgres" ? "postgres" : "sqlite";
// The checks that look at the page alone (the axe scans, the keyboard journey): the same on
// either engine, so PostgreSQL runs without them. E2E_GROUP=page runs only them, =data all but
// them: scripts/test.mjs runs the two groups side by side, each with its own server and store,
// so the serial chain of journeys is not one long tail.
const PAGE_ONLY = [/axe:/, /a11y\.spec\.ts/, /keyboard\.spec\.ts/];
const group = process.env.E2E_GROUP === "page" || process.env.E2E_GROUP === "data" ? process.env.E2E_GROUP : undefined;

// Debian's headless shell where installed (.ci/run installs it): Chromium's headless build,
// without the full browser's layers, takes much less CPU per journey than the full Chromium's
// headless mode. Else the full Chromium, else Playwright's download.
const chromium = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p));
const executablePath = chromium && fs.existsSync(chromium) ? chromium : undefined;

export default defineConfig({
  testDir: "e2e",
  outputDir: `test-results/${engine}${group ? `-${group}` : ""}`,
  grep: group === "page" ? PAGE_ONLY : undefined,
  grepInvert: engine === "postgres" || group === "data" ? PAGE_ONLY : undefined,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: external ?? `http://127.0.0.1:${port}`,
    browserName: "chromium",
    permissions: ["clipboard-read", "clipboard-write"],
    // A failed test keeps its trace (each step's DOM, network and console) and a screenshot; the
    // trace's own screencast is left out: recording it took a quarter of the browser's CPU.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: external
    ? undefined
    : {
        command: "node --import tsx e2e/support/serve.mjs",
        url: `http://127.0.0.1:${port}/api/action/resource_search`,
        timeout: 240_000,
        reuseExistingServer: false,
        // serve.mjs stops the server and the PostgreSQL cluster it started
        gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
        stdout: "ignore",
        stderr: "pipe",
        env: {
          E2E_PORT: port,
          E2E_ENGINE: engine,
          PORT: port,
          DATASTORE_DB: db,
          DATASTORE_ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN,
          ...NO_QUOTAS,
          // e2e/views.spec.ts frames the embed pages from this origin (and from one not named)
          DATASTORE_EMBED_ORIGINS: "http://embed-allowed.test",
        },
      },
});
