// `npm run bench -- --only flood`: issue 29's flood goal. One anonymous client (127.0.0.3) sends
// 200 requests a second, on a clock, whatever the answers; another (127.0.0.2) reads cheap pages
// five times a second, in windows with and without the flood by turns. Its median in flooded
// windows beside quiet ones, and the flooder's answers (200, 429, other, no answer within
// 10 s), under the default budgets and with them off, through `npm start` and `next start`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { NO_QUOTAS } from "../lib/test/no-quotas";
import { freePort, startArgs } from "../lib/test/server";

const TOKEN = "bench-flood-admin";
const ROWS = 10_000;
/** Windows of each kind (quiet, flooded), taking turns. */
const WINDOWS = Number(process.env.BENCH_FLOOD_WINDOWS ?? 4);
const WINDOW_MS = 5000;
const FLOOD_PER_SECOND = 200;
const READER_EVERY_MS = 200;
const TIMEOUT_MS = 10_000;

type Via = "npm start" | "next start";

interface Asked {
  status: number | "timeout" | "error";
  ms: number;
}

function ask(port: number, localAddress: string, agent: http.Agent, action: string, body: unknown, token?: string): Promise<Asked> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = token;
    const req = http.request({ host: "127.0.0.1", port, path: `/api/action/${action}`, method: "POST", localAddress, agent, headers, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on("timeout", () => {
      req.destroy();
      resolve({ status: "timeout", ms: performance.now() - started });
    });
    req.on("error", () => resolve({ status: "error", ms: performance.now() - started }));
    req.end(JSON.stringify(body));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(via: Via, db: string, env: Record<string, string>): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const command = via === "next start" ? ["node_modules/next/dist/bin/next", "start"] : [...startArgs(), "--api"];
  const proc = spawn(process.execPath, [...command, "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, DATASTORE_DB: db, DATASTORE_SAMPLE_DATA: "0", DATASTORE_ADMIN_TOKEN: TOKEN, PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const agent = new http.Agent({ keepAlive: false });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(100)) {
    if ((await ask(port, "127.0.0.1", agent, "datastore_whoami", {}, TOKEN)).status === 200) return { port, proc };
  }
  proc.kill("SIGKILL");
  throw new Error(`${via} did not start`);
}

async function stop(proc: ChildProcess): Promise<void> {
  proc.kill("SIGTERM");
  await new Promise((r) => proc.once("exit", r));
}

/**
 * The reader's cheap pages in windows of WINDOW_MS, quiet and flooded by turns (the flooder
 * sending on a clock, whatever the answers), so that a load the shared machine carries meanwhile
 * weighs on both alike. Medians of the reader's answers in each kind of window.
 */
async function phase(port: number, resourceId: string) {
  const readerAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const floodAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const quiet: number[] = [];
  const flooded: number[] = [];
  const floods: Promise<Asked>[] = [];
  let readerFailed = 0;
  for (let w = 0; w < WINDOWS * 2; w++) {
    const flood = w % 2 === 1;
    const until = performance.now() + WINDOW_MS;
    const flooding = (async () => {
      if (!flood) return;
      const every = 1000 / FLOOD_PER_SECOND;
      for (let next = performance.now(); next < until; next += every) {
        const wait = next - performance.now();
        if (wait > 1) await sleep(wait);
        floods.push(ask(port, "127.0.0.3", floodAgent, "datastore_search", { resource_id: resourceId, limit: 20, offset: floods.length % 1000 }));
      }
    })();
    for (let i = 0; performance.now() < until; i++) {
      const started = performance.now();
      const r = await ask(port, "127.0.0.2", readerAgent, "datastore_search", { resource_id: resourceId, limit: 20, offset: (i * 37 + w * 101) % 1000 });
      if (r.status === 200) (flood ? flooded : quiet).push(r.ms);
      else readerFailed++;
      await sleep(Math.max(0, READER_EVERY_MS - (performance.now() - started)));
    }
    await flooding;
  }
  const answers = await Promise.all(floods);
  readerAgent.destroy();
  floodAgent.destroy();
  const mix: Record<string, number> = {};
  for (const f of answers) mix[String(f.status)] = (mix[String(f.status)] ?? 0) + 1;
  return {
    reader: { quietMedianMs: median(quiet), floodedMedianMs: median(flooded), ratio: median(flooded) / median(quiet), floodedP95Ms: p95(flooded), asked: quiet.length + flooded.length + readerFailed, failed: readerFailed },
    flooder: { sent: answers.length, perSecond: answers.length / ((WINDOWS * WINDOW_MS) / 1000), mix, medianMs: median(answers.map((f) => f.ms)), p95Ms: p95(answers.map((f) => f.ms)) },
  };
}

export async function benchFlood(dir: string, results: string): Promise<void> {
  // BENCH_FLOOD_VIA="npm start" (or "next start") runs one way of serving only; npm start's
  // API-only server needs no pages built.
  const vias = (["npm start", "next start"] as const).filter((v) => !process.env.BENCH_FLOOD_VIA || process.env.BENCH_FLOOD_VIA === v);
  const ensure = spawnSync(process.execPath, ["scripts/ensure-build.mjs", ...(vias.includes("next start") ? [] : ["--server"])], { stdio: "inherit" });
  if (ensure.status !== 0) throw new Error("build failed");
  fs.mkdirSync(dir, { recursive: true });
  const out: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const via of vias) {
    const db = path.join(dir, `flood-${via.replace(" ", "-")}.db`);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(f, { force: true });
    let server = await start(via, db, {});
    const agent = new http.Agent({ keepAlive: false });
    const records = Array.from({ length: ROWS }, (_, i) => ({ n: i, word: `w${i % 97}` }));
    const created = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: "/api/action/datastore_create", method: "POST", agent, headers: { "content-type": "application/json", authorization: TOKEN } }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(text).result.resource_id) : reject(new Error(text))));
      });
      req.end(JSON.stringify({ resource: { name: "flood" }, fields: [{ id: "n", type: "int" }, { id: "word", type: "text" }], records }));
    });
    const limited = await phase(server.port, created);
    await stop(server.proc);
    server = await start(via, db, { ...NO_QUOTAS });
    const unlimited = await phase(server.port, created);
    await stop(server.proc);
    out[via] = { limited, unlimited };
    const mix = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => `${k}: ${v}`).join(", ");
    const reader = (r: typeof limited.reader) => `median quiet ${r.quietMedianMs.toFixed(1)} ms, flooded ${r.floodedMedianMs.toFixed(1)} ms (${r.ratio.toFixed(2)}x; p95 ${r.floodedP95Ms.toFixed(1)} ms)`;
    lines.push(
      `${via} (load average ${os.loadavg()[0].toFixed(1)}): the reader's cheap pages, default budgets: ${reader(limited.reader)}; budgets off: ${reader(unlimited.reader)}`,
      `  flooder with budgets: ${limited.flooder.sent} sent (${limited.flooder.perSecond.toFixed(0)}/s): ${mix(limited.flooder.mix)}; median answer ${limited.flooder.medianMs.toFixed(1)} ms, p95 ${limited.flooder.p95Ms.toFixed(1)}`,
      `  flooder without: ${unlimited.flooder.sent} sent: ${mix(unlimited.flooder.mix)}; median answer ${unlimited.flooder.medianMs.toFixed(1)} ms, p95 ${unlimited.flooder.p95Ms.toFixed(1)}`,
    );
    console.log(lines.slice(-3).join("\n"));
  }
  const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
  fs.writeFileSync(results, JSON.stringify({ ...previous, flood: { windows: WINDOWS, windowSeconds: WINDOW_MS / 1000, perSecond: FLOOD_PER_SECOND, ...out } }, null, 2));
  console.log(`\nJSON: ${results} (key "flood")`);
}
