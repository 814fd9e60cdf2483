// A throwaway PgBouncer (Debian's `pgbouncer`) in front of a throwaway cluster (pg-cluster.ts),
// for tests of the engine through a connection pooler: database `app` on its own loopback port,
// trust authentication, the pool mode and settings a test gives. As root it runs as the
// `postgres` OS user (PgBouncer refuses root).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { PgCluster } from "./pg-cluster";
import { freePort } from "./server";

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";

/** Why no PgBouncer can be started here, or undefined when one can. */
export function pgbouncerUnavailableReason(): string | undefined {
  return fs.existsSync(PGBOUNCER) ? undefined : `no ${PGBOUNCER}; install Debian's pgbouncer (or set PGBOUNCER_BIN)`;
}

export interface Bouncer {
  /** Role `app` on database `app`, through the pooler. */
  url: string;
  /** Everything it logged so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts PgBouncer for `cluster`'s database `app`; `settings` go in its [pgbouncer] section. */
export async function startBouncer(cluster: PgCluster, settings: Record<string, string | number>): Promise<Bouncer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgbouncer-test-"));
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout) : undefined;
  const gid = asRoot ? Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout) : undefined;
  const port = await freePort();
  const conf = {
    listen_addr: "127.0.0.1",
    listen_port: port,
    unix_socket_dir: "",
    auth_type: "trust",
    auth_file: path.join(dir, "userlist.txt"),
    logfile: path.join(dir, "pgbouncer.log"),
    pidfile: "",
    max_client_conn: 200,
    default_pool_size: 20,
    ...settings,
  };
  fs.writeFileSync(path.join(dir, "userlist.txt"), '"app" ""\n"postgres" ""\n');
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    `[databases]\napp = host=127.0.0.1 port=${cluster.port} dbname=app\n\n[pgbouncer]\n${Object.entries(conf).map(([k, v]) => `${k} = ${v}`).join("\n")}\n`,
  );
  if (uid !== undefined) for (const f of ["", "userlist.txt", "pgbouncer.ini"]) fs.chownSync(path.join(dir, f), uid, gid!);
  const proc = spawn(PGBOUNCER, [path.join(dir, "pgbouncer.ini")], { uid, gid, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  const onExit = () => proc.kill("SIGKILL");
  process.on("exit", onExit);
  const log = () => out + (fs.existsSync(conf.logfile) ? fs.readFileSync(conf.logfile, "utf8") : "");
  const bouncer: Bouncer = {
    url: `postgresql://app@127.0.0.1:${port}/app`,
    log,
    async stop() {
      process.off("exit", onExit);
      proc.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  // Ready once it answers a query through to the server.
  for (const deadline = Date.now() + 15_000; ; ) {
    const client = new pg.Client({ connectionString: bouncer.url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return bouncer;
    } catch (e) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || proc.exitCode !== null) {
        await bouncer.stop();
        throw new Error(`PgBouncer did not start (${(e as Error).message}):\n${log()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
