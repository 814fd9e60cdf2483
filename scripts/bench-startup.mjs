// Start-up time (docs/performance.md "Start-up"): launches a command (default `npm start`) again
// and again on an existing database and times each launch until both first answers a visitor
// needs have come: `GET /api/action/datastore_search?resource_id=…&limit=1` (a 200 with its
// record) and `GET /` (the explorer's page, a 200). Also the server's resident memory then and
// 3 s later, and the CPU its main thread and its whole process had used by then. Prints medians.
//   node scripts/bench-startup.mjs [--runs 5] [--cwd DIR] [--resource airports] [-- command…]
// DATASTORE_DB: the database to start on (the server may write to it: migrations, learned
// indexes; give it a copy). Unset: a new one in a temporary directory, which a first launch,
// not timed, fills with the sample data; `--resource` then names one of them.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { runs: { type: "string" }, cwd: { type: "string" }, resource: { type: "string" } },
  allowPositionals: true,
});
const runs = Number(values.runs ?? 5);
const command = positionals.length ? positionals : ["npm", "start"];
const resource = values.resource ?? "airports";
const made = !process.env.DATASTORE_DB;
const db = process.env.DATASTORE_DB || path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-startup-")), "datastore.db");
const env = { ...process.env, DATASTORE_DB: db };

/** utime + stime in ms of a process, or of one of its threads. */
function cpuMs(pid, tid) {
  const stat = fs.readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks, 100 a second on Linux
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/** The server: the node process under `pid` (npm and its shell included) that runs main.{ts,js}. */
function serverPid(pid) {
  const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  if (args[0].endsWith("node") && args.some((a) => /main\.(ts|js)$/.test(a))) return pid;
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).trim().split(/\s+/).filter(Boolean);
  for (const child of children) {
    const found = serverPid(Number(child));
    if (found) return found;
  }
  return undefined;
}

/** ms from `started` until `url` answers 200 and `ok(body)` holds; asks again until then. */
async function firstAnswer(url, started, ok) {
  while (performance.now() - started < 300_000) {
    try {
      const res = await fetch(url);
      const body = await res.text();
      if (res.status === 200 && ok(body)) return performance.now() - started;
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`); // a start that answers wrongly is not ready
    } catch (e) {
      if (!(e instanceof TypeError)) throw e; // fetch's TypeError: not listening yet
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  throw new Error(`${command.join(" ")}: no answer from ${url} within 300 s`);
}

async function launch(port) {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: values.cwd, env: { ...env, PORT: String(port) }, stdio: "ignore", detached: true });
  const base = `http://127.0.0.1:${port}`;
  const [search, page] = await Promise.all([
    firstAnswer(`${base}/api/action/datastore_search?resource_id=${encodeURIComponent(resource)}&limit=1`, started, (b) => JSON.parse(b).result.records.length === 1),
    firstAnswer(`${base}/`, started, (b) => b.includes("</html>")),
  ]);
  return { child, search, page, ready: Math.max(search, page) };
}

async function stop(child) {
  process.kill(-child.pid, "SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
}

// The timed launches find the build current, as a second `npm start` does.
execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: values.cwd, stdio: "inherit" });
if (made) {
  console.log(`a new database at ${db}: a first launch (not timed) loads the sample data`);
  await stop((await launch(4699)).child);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (let i = 0; i < runs; i++) {
  const { child, search, page, ready } = await launch(4700 + i);
  const pid = serverPid(child.pid);
  const row = { ready, search, page, mainCpu: cpuMs(pid, pid), cpu: cpuMs(pid), rss: rssMb(pid) };
  await new Promise((r) => setTimeout(r, 3000));
  rows.push({ ...row, rssLater: rssMb(pid) });
  console.log(
    `run ${i + 1}: ready in ${ready.toFixed(0)} ms (search ${search.toFixed(0)}, page ${page.toFixed(0)}), CPU ${row.mainCpu} ms main thread / ${row.cpu} ms process, RSS ${row.rss.toFixed(0)} MB, ${rssMb(pid).toFixed(0)} MB 3 s later`,
  );
  await stop(child);
}
const m = (k) => median(rows.map((r) => r[k])).toFixed(0);
console.log(
  `median of ${runs}: ready in ${m("ready")} ms (search ${m("search")}, page ${m("page")}), CPU ${m("mainCpu")} ms main thread / ${m("cpu")} ms process, RSS ${m("rss")} MB, ${m("rssLater")} MB 3 s later`,
);
if (made) fs.rmSync(path.dirname(db), { recursive: true, force: true });
