// `npm test`: the type check, lint, unit and API tests (vitest) and the browser journeys
// (Playwright), and one closing line "N passed, N failed, N skipped" for CI.
// The build runs once, first, beside lint, without Next's own type check: tsc checks the same
// project once the build has written .next/types. Then the type check, the vitest projects
// (vitest.config.mts: sqlite, postgres, and the contract suites over HTTP on each) and the
// journeys on each engine (on SQLite in two groups, playwright.config.ts E2E_GROUP) run side by
// side: each waits on servers, databases and browsers
// much of the time, and one step at a time left a core of these 2-core machines idle. A step's
// output goes to test-reports/<step>.log and is printed when the step ends. Without
// PostgreSQL's binaries the postgres runs say so and are skipped.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const totals = { passed: 0, failed: 0, skipped: 0 };
// The failed tests' names, printed again beside the closing line: CI keeps only the output's tail.
const failures = [];
let broken = false;
const times = [];
const started = Date.now();

fs.mkdirSync("test-reports", { recursive: true });

/** Runs a step with its output to test-reports/<name>.log; prints that when it ends. */
function run(name, cmd, args, env = {}) {
  const log = `test-reports/${name}.log`;
  const out = fs.openSync(log, "w");
  const t0 = Date.now();
  console.log(`=== ${name}: started (${cmd} ${args.join(" ")})`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
    child.on("error", (e) => fs.appendFileSync(log, `\n${e.message}\n`));
    child.on("close", (code) => {
      fs.closeSync(out);
      const seconds = Math.round((Date.now() - t0) / 1000);
      times.push(`${name} ${seconds} s`);
      console.log(`\n=== ${name}: ${code === 0 ? "ok" : `exited with ${code}`} in ${seconds} s\n${fs.readFileSync(log, "utf8")}`);
      resolve(code === 0);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

async function step(name, cmd, args, env) {
  if (!(await run(name, cmd, args, env))) broken = true;
}

async function vitest() {
  fs.rmSync("test-reports/vitest.json", { force: true });
  const ok = await run("vitest", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-reports/vitest.json"]);
  const v = readJson("test-reports/vitest.json");
  if (!v) return void (broken = true);
  const failed = v.numFailedTests + (v.numFailedTestSuites ?? 0);
  totals.passed += v.numPassedTests;
  totals.failed += failed;
  totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  for (const file of v.testResults ?? []) {
    const bad = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of bad) failures.push(`vitest ${file.name.replace(`${process.cwd()}/`, "")} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === "failed" && bad.length === 0) failures.push(`vitest ${file.name.replace(`${process.cwd()}/`, "")}: ${firstLine(file.message)}`);
  }
  if (!ok && failed === 0) broken = true; // an error outside any test (vitest says which)
}

async function journeys(engine, group) {
  const name = `journeys-${engine}${group === "page" ? "-page" : ""}`;
  const report = `test-reports/playwright-${name.slice("journeys-".length)}.json`;
  fs.rmSync(report, { force: true });
  await run(name, "npx", ["playwright", "test", "--reporter=list,json"], { E2E_ENGINE: engine, E2E_GROUP: group ?? "", PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  const p = readJson(report);
  if (!p?.stats) return void (broken = true);
  totals.passed += p.stats.expected;
  totals.failed += p.stats.unexpected + (p.stats.flaky ?? 0);
  totals.skipped += p.stats.skipped;
  if (p.errors?.length) broken = true;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const error = t.results?.find((r) => r.error)?.error?.message;
        failures.push(`${name} ${spec.file} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of p.suites ?? []) walk(suite, []);
}

/** A failure message's first line, without the terminal's colour codes. */
function firstLine(text) {
  return String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
}

/** Why no PostgreSQL cluster can start here (lib/test/pg-cluster.ts), or "" when one can. */
function pgUnavailable() {
  // Its exports come named, or (when tsx loads it as CommonJS) as the default export.
  const ask = 'import("./lib/test/pg-cluster.ts").then((m) => process.stdout.write((m.default ?? m).pgUnavailableReason() ?? ""))';
  const r = spawnSync(process.execPath, ["--import", "tsx", "-e", ask], { encoding: "utf8" });
  return r.status === 0 ? r.stdout : `lib/test/pg-cluster.ts did not load: ${r.stderr}`;
}

/** The journeys on each engine, side by side: each has its own server, store, port and output. */
async function browser() {
  if (process.env.SKIP_E2E === "1") return;
  const reason = pgUnavailable();
  if (reason) console.log(`=== journeys-postgres: skipped, PostgreSQL binaries not found (${reason})`);
  // On PostgreSQL without the checks that look at the page alone; on SQLite those apart, as a
  // step of their own (playwright.config.ts E2E_GROUP).
  await Promise.all([journeys("sqlite", "data"), journeys("sqlite", "page"), reason ? undefined : journeys("postgres")]);
}

const linting = step("lint", "npx", ["eslint", "."]);
await step("build", "node", ["scripts/ensure-build.mjs"], { BUILD_SKIP_TYPECHECK: "1" });
await Promise.all([linting, step("typecheck", "npx", ["tsc", "--noEmit", "-p", "."]), vitest(), browser()]);

/** CPU seconds the steps used (every descendant this process has waited for), or null off Linux:
 *  on these 2-core machines the run's time is about half of it, so it says what a change saves. */
function stepsCpuSeconds() {
  try {
    // /proc/self/stat: fields 16 and 17 are cutime and cstime, in ticks (100 a second on Linux).
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return Math.round((Number(fields[13]) + Number(fields[14])) / 100);
  } catch {
    return null;
  }
}

if (broken) totals.failed += 1; // a step that could not run counts as a failure
const ran = totals.passed + totals.failed;
const cpu = stepsCpuSeconds();
console.log(`\n=== times: ${times.join(", ")}; all ${Math.round((Date.now() - started) / 1000)} s${cpu === null ? "" : `, CPU ${cpu} s`}`);
if (failures.length) console.log(`\n=== failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || ran === 0 ? 1 : 0);
