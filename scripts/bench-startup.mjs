// Start-up time (docs/performance.md "Start-up"): launches a command (default `npm start`) again
// and again on an existing database and times each launch until GET
// /api/action/resource_search answers 200; also the server's resident memory then and 3 s later,
// and the CPU its main thread and its whole process had used by then. Prints the medians.
//   DATASTORE_DB=COPY.db node scripts/bench-startup.mjs [--runs 5] [--cwd DIR] [-- command…]
// The server may write to the database (migrations, learned indexes): give it a copy.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ options: { runs: { type: "string" }, cwd: { type: "string" } }, allowPositionals: true });
const runs = Number(values.runs ?? 5);
const command = positionals.length ? positionals : ["npm", "start"];
if (!process.env.DATASTORE_DB) throw new Error("set DATASTORE_DB to a copy of the database to start on");

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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (let i = 0; i < runs; i++) {
  const port = 4700 + i;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: values.cwd, env: { ...process.env, PORT: String(port) }, stdio: "ignore", detached: true });
  let ready = 0;
  while (!ready && performance.now() - started < 300_000) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/action/resource_search`);
      await res.arrayBuffer();
      if (res.status === 200) ready = performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 5)); // not listening yet
    }
  }
  if (!ready) throw new Error(`${command.join(" ")} did not answer within 300 s`);
  const pid = serverPid(child.pid);
  const row = { ready, mainCpu: cpuMs(pid, pid), cpu: cpuMs(pid), rss: rssMb(pid) };
  await new Promise((r) => setTimeout(r, 3000));
  rows.push({ ...row, rssLater: rssMb(pid) });
  console.log(`run ${i + 1}: ready in ${ready.toFixed(0)} ms, CPU ${row.mainCpu} ms main thread / ${row.cpu} ms process, RSS ${row.rss.toFixed(0)} MB, ${rssMb(pid).toFixed(0)} MB 3 s later`);
  process.kill(-child.pid, "SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
}
const m = (k) => median(rows.map((r) => r[k])).toFixed(0);
console.log(`median of ${runs}: ready in ${m("ready")} ms, CPU ${m("mainCpu")} ms main thread / ${m("cpu")} ms process, RSS ${m("rss")} MB, ${m("rssLater")} MB 3 s later`);
