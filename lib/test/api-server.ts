// An API-only app server (`lib/server/main.ts --api`, run from source through tsx: no build
// needed) as a child process on a free loopback port, for tests and scripts that put a real
// server in front of a database they control (a primary that restarts, a pooler).
import { spawn } from "node:child_process";
import { NO_QUOTAS } from "./no-quotas";
import { freePort, ROOT } from "./server";

export interface ApiServer {
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) when the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/** Starts the server with `env` added to ours; resolves once the API answers. */
export async function startApiServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ApiServer> {
  const port = await freePort();
  const proc = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts", "--api", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: { ...NO_QUOTAS, ...process.env, NODE_ENV: "production", PORT: String(port), DATASTORE_SAMPLE_DATA: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  const onExit = () => proc.kill("SIGKILL"); // a dying run leaves no server behind
  process.on("exit", onExit);
  const server: ApiServer = {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    async stop() {
      process.off("exit", onExit);
      if (done) return;
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done) throw new Error(`the API server exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${server.url}/api/action/resource_search`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  throw new Error(`the API server did not answer within ${timeoutMs} ms:\n${out}`);
}
