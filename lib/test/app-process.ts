// API-only app servers as child processes (`lib/server/main.ts --api`), for tests of several
// app servers on one store: started on a free loopback port, ready once they answer an action,
// killed with the test run.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { NO_QUOTAS } from "./no-quotas";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface AppProcess {
  name: string;
  url: string;
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | string>;
  kill(): Promise<void>;
}

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

/** Starts an app server with `env` over the test's own; resolves once it is spawned. */
export async function startApp(name: string, env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts", "--api", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: ROOT,
    env: { ...NO_QUOTAS, ...process.env, NODE_ENV: "production", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exited.then(() => (done = true));
  process.on("exit", () => proc.kill("SIGKILL")); // a dying test run leaves no server behind
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    proc,
    output: () => out,
    exited,
    async kill() {
      if (!done) proc.kill("SIGKILL");
      await exited;
    },
  };
}

/** Polls until the app answers an API call (it listens only once the store is ready). */
export async function untilReady(app: AppProcess, timeoutMs: number): Promise<void> {
  let exited = false;
  void app.exited.then(() => (exited = true));
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exited) throw new Error(`app server ${app.name} exited before it was ready:\n${app.output()}`);
    try {
      const res = await fetch(`${app.url}/api/action/resource_search`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`app server ${app.name} did not answer within ${timeoutMs} ms:\n${app.output()}`);
}
