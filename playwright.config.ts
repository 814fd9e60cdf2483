// Browser journeys against the built server on a freshly seeded sample database (see e2e/).
import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

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

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const executablePath = fs.existsSync(chromium) ? chromium : undefined;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
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
    trace: "retain-on-failure",
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
        command: "node e2e/support/serve.mjs",
        url: `http://127.0.0.1:${port}/api/action/resource_search`,
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: "ignore",
        stderr: "pipe",
        env: {
          E2E_PORT: port,
          PORT: port,
          DATASTORE_DB: db,
          DATASTORE_ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN,
        },
      },
});
