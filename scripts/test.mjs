// `npm test`: type check, lint, unit and API tests (vitest), then browser journeys
// (Playwright), and one closing line "N passed, N failed, N skipped" for CI. Vitest runs two
// projects (vitest.config.mts): "sqlite", everything, and "postgres", the API, security, fuzz
// and fault suites again on a throwaway PostgreSQL cluster (skipped, and said so, where
// PostgreSQL's binaries are missing); its one JSON report holds both projects' totals.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) console.log(`=== ${label} exited with ${r.status}`);
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

fs.mkdirSync("test-reports", { recursive: true });

if (!run("typecheck", "npx", ["tsc", "--noEmit", "-p", "."])) broken = true;
if (!run("lint", "npx", ["eslint", "."])) broken = true;

run("unit and API tests, on SQLite and on PostgreSQL", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-reports/vitest.json"]);
const v = readJson("test-reports/vitest.json");
if (v) {
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests + (v.numFailedTestSuites ?? 0);
  totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else broken = true;

if (process.env.SKIP_E2E !== "1") {
  run("browser tests", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-reports/playwright.json" });
  const p = readJson("test-reports/playwright.json");
  if (p?.stats) {
    totals.passed += p.stats.expected;
    totals.failed += p.stats.unexpected + (p.stats.flaky ?? 0);
    totals.skipped += p.stats.skipped;
    if (p.errors?.length) broken = true;
  } else broken = true;
}

if (broken) totals.failed += 1; // a step that could not run counts as a failure
const ran = totals.passed + totals.failed;
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || ran === 0 ? 1 : 0);
