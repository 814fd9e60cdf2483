// The built server as a child process, for fault tests, the fuzzer's --server mode and the
// load test: build when the sources changed (once, under a lock, since several suites may
// ask at the same time), pick a free port, start the server (lib/server/main.ts, or `next
// start`) on a given database file (or, when DATASTORE_DATABASE_URL is set, a new PostgreSQL
// schema), wait until it answers, and stop or kill it by its own pid.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { StoreRef } from "./fuzz";
import { NO_QUOTAS } from "./no-quotas";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  port: number;
  pid: number;
  proc: ChildProcess;
  /** The SQLite file it was given (unused under PostgreSQL). */
  dbFile: string;
  /** Where its data lives: `dbFile`, or under PostgreSQL the URL and the schema it was given. */
  store: StoreRef;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) when the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after a grace period; resolves when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL at once; resolves when it has exited. */
  kill(): Promise<void>;
}

/** A loopback port nothing listens on (the servers of tests and benches start on one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const LOCK = path.join(os.tmpdir(), `datastore-build-${createHash("sha1").update(ROOT).digest("hex").slice(0, 12)}.lock`);

/** Runs scripts/ensure-build.mjs (builds only when sources are newer than the last build). */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      // Another suite is building; a lock older than 5 minutes was left by a killed run.
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000) fs.rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 10 minutes for the build lock ${LOCK}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    const r = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`the build failed:\n${r.stdout}\n${r.stderr}`);
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/** `npm start`'s node arguments, read from package.json so tests run the server as users do. */
export function startArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  return pkg.scripts.start.split(" ").slice(1);
}

export interface StartOptions {
  dbFile: string;
  /** Added to the server's environment. Where DATASTORE_DATABASE_URL is set (here or in ours),
   *  the server runs on PostgreSQL, in DATASTORE_PG_SCHEMA if given here, else a new schema. */
  env?: Record<string, string>;
  /** Wait until the API answers (default); false returns at once (for start-up failures). */
  waitReady?: boolean;
  adminToken?: string;
  uid?: number;
  gid?: number;
  /** How to serve: `npm start`'s server (default), or `next start`, Next serving the same build alone. */
  via?: "npm start" | "next start";
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const command = opts.via === "next start" ? [path.join(ROOT, "node_modules/next/dist/bin/next"), "start"] : startArgs();
  const databaseUrl = (opts.env?.DATASTORE_DATABASE_URL ?? process.env.DATASTORE_DATABASE_URL)?.trim();
  const schema = databaseUrl ? (opts.env?.DATASTORE_PG_SCHEMA ?? `s_${randomBytes(6).toString("hex")}`) : undefined;
  const proc = spawn(process.execPath, [...command, "-H", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: {
      ...NO_QUOTAS,
      ...process.env,
      NODE_ENV: "production",
      DATASTORE_DB: opts.dbFile,
      DATASTORE_SAMPLE_DATA: "0",
      DATASTORE_ADMIN_TOKEN: opts.adminToken ?? "test-admin-token",
      DATASTORE_READ_WORKERS: "",
      PORT: String(port),
      ...(schema ? { DATASTORE_PG_SCHEMA: schema } : {}),
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    uid: opts.uid,
    gid: opts.gid,
  });
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: proc.pid!,
    proc,
    dbFile: opts.dbFile,
    store: databaseUrl && schema ? { databaseUrl, schema } : opts.dbFile,
    output: () => out,
    exited,
    async stop() {
      if (done) return;
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
    async kill() {
      if (done) return;
      proc.kill("SIGKILL");
      await exited;
    },
  };
  if (opts.waitReady === false) return server;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (done) throw new Error(`the server exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${server.url}/api/action/resource_search`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.kill();
  throw new Error(`the server did not answer within 60 s:\n${out}`);
}

/** Resident memory of a process in MB (Linux /proc), or NaN elsewhere. `part`: all of it,
 *  the anonymous part (heaps, caches) or the file-backed part (mapped code and database). */
export function rssMb(pid: number, part: "VmRSS" | "RssAnon" | "RssFile" = "VmRSS"): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`${part}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/** A new temporary directory for a test's database files. */
export function tempDir(prefix = "datastore-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
